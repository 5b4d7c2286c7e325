/** What a staff password and its hash must be to be accepted. */
import { createRequire } from 'node:module';
import { MIN_PASSWORD_LENGTH } from './domain/staff-members.ts';

/** OWASP's minimum argon2id settings: any one of these memory/iteration pairs or stronger. */
const OWASP_MINIMUMS: ReadonlyArray<[memoryKiB: number, iterations: number]> = [
  [47104, 1],
  [19456, 2],
  [12288, 3],
  [9216, 4],
  [7168, 5],
];

/** True when an argon2id PHC string uses at least OWASP's minimum parameters. */
export function meetsOwaspMinimum(hash: string): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
  if (!match) return false;
  const memory = Number(match[1]);
  const iterations = Number(match[2]);
  return OWASP_MINIMUMS.some(([m, t]) => memory >= m && iterations >= t);
}

export { MIN_PASSWORD_LENGTH };

let common: Set<string> | undefined;

/**
 * The ~49,000 most common passwords of zxcvbn-ts's list (from leaked-password frequency
 * lists), loaded on first use: only the configuration check and set-password ask.
 */
function commonPasswords(): Set<string> {
  common ??= new Set(createRequire(import.meta.url)('@zxcvbn-ts/language-common').dictionary['passwords-common'] as string[]);
  return common;
}

/**
 * Why a staff password is not good enough, or undefined when it is: at least 12 characters,
 * and not one of the most common passwords (compared without case or spaces, so
 * "Password 1234" counts as "password1234").
 */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  const list = commonPasswords();
  const plain = password.toLowerCase();
  if (list.has(plain) || list.has(plain.replace(/\s+/g, ''))) return 'is one of the most common passwords; choose another';
  return undefined;
}
