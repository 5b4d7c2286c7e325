/** Staff accounts (issue 22): their roles, invitation rules and the words the pages and API use. */

export const STAFF_ROLES = ['owner', 'staff'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The page table's path of the invitation page; its real addresses are /dashboard/invitation/{token}. */
export const INVITATION_PAGE_PATH = '/dashboard/invitation';
export const INVITATION_PATH_PREFIX = `${INVITATION_PAGE_PATH}/`;

/** How long an invitation's link works (the database refuses a longer one). */
export const INVITATION_HOURS = 48;

/** A staff password's least length (src/password-policy.ts adds: not a common one). */
export const MIN_PASSWORD_LENGTH = 12;

export const STAFF_MEMBER_LIMITS = { name: 60, email: 254, password: 200 } as const;

export const STAFF_MEMBER_MESSAGES = {
  wrongEmailOrPassword: 'Incorrect e-mail or password',
  emailTaken: 'A member of staff already has this e-mail address',
  notFound: 'No such member of staff',
  invitationGone: 'This invitation link has expired or has already been used. Ask the owner to invite you again.',
  passwordsDiffer: 'The two passwords are not the same',
  passwordSet: 'Your password is set. Sign in with your e-mail address and this password.',
  disabledNoInvite: 'This account is disabled; enable it before inviting again',
  alreadyActive: 'This member has already set a password',
  wrongCurrentPassword: 'Your current password is not right',
  ownerPasswordHere: 'The configured owner password is changed with set-password, not here',
  cannotChangeSelf: 'You cannot disable your own account or change its role',
} as const;

/** A password's problem as the form shows it (the policy's words start lower-case). */
export function passwordPolicyMessage(problem: string): string {
  return `The password ${problem}`;
}
