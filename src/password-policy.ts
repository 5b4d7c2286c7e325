/** What an admin password hash must be to be accepted (checked when the configuration is read). */

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
