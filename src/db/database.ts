/** The database as Kysely sees it: one interface per table, columns as the driver returns them. */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface BookingsTable {
  id: Generated<string>;
  service: string;
  coating_type: string;
  vehicle_type: string;
  selected_vehicle_type: string;
  /** YYYY-MM-DD: the driver is told to return dates as text, never as a shifted Date. */
  date: string;
  time: string;
  service_type: string;
  house_number: string;
  street_address: string;
  suburb: string;
  city: string;
  postal_code: string;
  region: string;
  landmark: string;
  save_address: boolean;
  name: string;
  email: string;
  phone: string;
  notes: string;
  price_nzd: number;
  status: Generated<string>;
  created_at: ColumnType<Date, never, never>;
}

export interface ContactMessagesTable {
  id: Generated<string>;
  name: string;
  email: string;
  phone: string;
  message: string;
  read_at: Date | null;
  created_at: ColumnType<Date, never, never>;
}

export interface StaffSessionsTable {
  id_hash: string;
  created_at: ColumnType<Date, never, never>;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
  expires_at: Date;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface Database {
  bookings: BookingsTable;
  contact_messages: ContactMessagesTable;
  staff_sessions: StaffSessionsTable;
  settings: SettingsTable;
}

export type Booking = Selectable<BookingsTable>;
export type NewBooking = Insertable<BookingsTable>;
export type BookingUpdate = Updateable<BookingsTable>;
export type ContactMessage = Selectable<ContactMessagesTable>;
export type NewContactMessage = Insertable<ContactMessagesTable>;
export type StaffSession = Selectable<StaffSessionsTable>;
