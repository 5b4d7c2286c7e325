/**
 * The accounting export (issue 44): completed jobs as rows of Xero's sales invoice import file
 * (Business → Invoices → Import: its template's column names, the required ones starred, one row
 * per line of an invoice, the invoice's rows sharing its number). Amounts are GST-inclusive, as
 * every price here is: import them with "Amounts are tax inclusive". Pure: the service reads the
 * jobs, this makes their rows.
 */
import { aucklandDate } from './booking-dates.ts';

/** The template's columns, in its order (Xero matches them by name; the starred ones are required). */
export const XERO_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
] as const;

export type XeroColumn = (typeof XERO_COLUMNS)[number];

/** Xero's New Zealand tax rates for sales: 15% GST, or none for a business not registered (no GST_NUMBER when the job was completed). */
export const XERO_TAX_TYPES = { gst: '15% GST on Income', none: 'No GST' } as const;

/** One line of an invoice, GST-inclusive cents. */
export interface InvoiceLine {
  description: string;
  quantity: number;
  unitCents: number;
}

/** What one invoice's rows are made from. */
export interface XeroInvoice {
  contact: { name: string; email: string; lines: string[]; city: string; region: string; postcode: string };
  /** The tax invoice's number, or null for a receipt of a business not registered for GST (then the booking reference numbers it). */
  invoiceNumber: number | null;
  reference: string;
  completedAt: Date;
  /** When it was paid (the due date); unpaid: due on completion, as the Terms say. */
  paidAt: Date | null;
  registeredForGst: boolean;
  lines: InvoiceLine[];
}

/** DD/MM/YYYY, Xero's date format for a New Zealand organisation, of an instant's date in Auckland. */
export function xeroDate(at: Date): string {
  const [year, month, day] = aucklandDate(at).split('-');
  return `${day}/${month}/${year}`;
}

/** Dollars as a number ('-29.85' when written): a number, so that the export's guard against spreadsheet formulas, which prefixes text starting with '-', leaves it alone. */
const dollars = (cents: number) => cents / 100;

/** The invoice's number in Xero: INV- and the gapless tax-invoice number, else the booking reference. */
export const xeroInvoiceNumber = (invoice: Pick<XeroInvoice, 'invoiceNumber' | 'reference'>) =>
  invoice.invoiceNumber !== null ? `INV-${String(invoice.invoiceNumber).padStart(4, '0')}` : invoice.reference;

/** The invoice's rows, one per line, each a full row of the template (the quantity and the amount as numbers). */
export function xeroRows(invoice: XeroInvoice, accountCode: string): Record<XeroColumn, string | number>[] {
  const [line1 = '', line2 = '', line3 = '', line4 = ''] = invoice.contact.lines;
  const date = xeroDate(invoice.completedAt);
  return invoice.lines.map((line) => ({
    '*ContactName': invoice.contact.name,
    EmailAddress: invoice.contact.email,
    POAddressLine1: line1,
    POAddressLine2: line2,
    POAddressLine3: line3,
    POAddressLine4: line4,
    POCity: invoice.contact.city,
    PORegion: invoice.contact.region,
    POPostalCode: invoice.contact.postcode,
    POCountry: invoice.contact.lines.length > 0 || invoice.contact.city ? 'New Zealand' : '',
    '*InvoiceNumber': xeroInvoiceNumber(invoice),
    Reference: invoice.reference,
    '*InvoiceDate': date,
    '*DueDate': invoice.paidAt ? xeroDate(invoice.paidAt) : date,
    InventoryItemCode: '',
    '*Description': line.description,
    '*Quantity': line.quantity,
    '*UnitAmount': dollars(line.unitCents),
    Discount: '',
    '*AccountCode': accountCode,
    '*TaxType': invoice.registeredForGst ? XERO_TAX_TYPES.gst : XERO_TAX_TYPES.none,
    TrackingName1: '',
    TrackingOption1: '',
    TrackingName2: '',
    TrackingOption2: '',
    Currency: 'NZD',
    BrandingTheme: '',
  }));
}
