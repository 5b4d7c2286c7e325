/**
 * Staff accounts' data shapes (issue 22): TypeBox schemas for /v1/staff-members and
 * /v1/account/password, and their static types for the dashboard (which imports types only).
 */
import { Type, type Static } from 'typebox';
import { STAFF_MEMBER_LIMITS } from '../domain/staff-members.ts';

const Role = Type.Union([Type.Literal('owner'), Type.Literal('staff')], {
  description: 'owner: everything, including staff accounts and customers’ exports and erasure; staff: the bookings, messages, schedule and e-mails',
});

// One line, no control characters (tab allowed), as a session's name.
const NAME_PATTERN = '^[^\\x00-\\x08\\x0A-\\x1F\\x7F]*\\S[^\\x00-\\x08\\x0A-\\x1F\\x7F]*$';

const Name = Type.String({ minLength: 1, maxLength: STAFF_MEMBER_LIMITS.name, pattern: NAME_PATTERN, description: 'Shown in booking histories and notes' });

export const StaffMemberSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  email: Type.String(),
  role: Role,
  status: Type.Union([Type.Literal('invited'), Type.Literal('active'), Type.Literal('disabled')], {
    description: 'invited: has not set a password yet; active: can sign in; disabled: cannot sign in, and has no session',
  }),
  invitationExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the newest unused invitation stops working' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type StaffMemberDto = Static<typeof StaffMemberSchema>;

export const InviteStaffMemberBody = Type.Object(
  {
    name: Name,
    email: Type.String({ format: 'email', minLength: 3, maxLength: STAFF_MEMBER_LIMITS.email }),
    role: Type.Optional(Role),
  },
  { additionalProperties: false },
);

export const ChangeStaffMemberBody = Type.Object(
  {
    name: Type.Optional(Name),
    role: Type.Optional(Role),
    disabled: Type.Optional(Type.Boolean({ description: 'true ends every session of the member at once' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

const Password = Type.String({ minLength: 1, maxLength: STAFF_MEMBER_LIMITS.password });

export const ChangePasswordBody = Type.Object(
  { currentPassword: Password, newPassword: Password, confirmPassword: Password },
  { additionalProperties: false },
);
