/** What a staff password and its hash must be to be accepted. */
import { createRequire } from 'node:module';
import path from 'node:path';
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

const require = createRequire(import.meta.url);

/**
 * Whether any of `candidates` is one of the ~49,000 most common passwords of zxcvbn-ts's list
 * (from leaked-password frequency lists). The list is read for each check and not kept: it holds
 * about 4 MB of a server's heap, for a check made only at start-up (ADMIN_PASSWORD), by
 * set-password and when a staff member chooses a password (issue 24: the embedded database's
 * server within 200 MB).
 */
function isCommonPassword(candidates: readonly string[]): boolean {
  const entry = require.resolve('@zxcvbn-ts/language-common');
  try {
    const list = require(entry).dictionary['passwords-common'] as string[];
    return candidates.some((candidate) => list.includes(candidate));
  } finally {
    const dir = path.dirname(entry);
    for (const id of Object.keys(require.cache)) if (id.startsWith(dir)) delete require.cache[id];
  }
}

/**
 * Why a staff password is not good enough, or undefined when it is: at least 12 characters,
 * and not one of the most common passwords (compared without case or spaces, so
 * "Password 1234" counts as "password1234").
 */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  const plain = password.toLowerCase();
  if (isCommonPassword([plain, plain.replace(/\s+/g, '')])) return 'is one of the most common passwords; choose another';
  return undefined;
}
