/**
 * `npm run hash-password` (in the Docker image: `node dist/server/hash-password.js`): asks twice
 * for a staff password, without echo, and prints its argon2id hash for ADMIN_PASSWORD_HASH.
 * Nothing is stored.
 */
import { stdout } from 'node:process';
import { hashPassword } from '../services/auth.service.ts';
import { askNewPassword } from './ask-password.ts';

try {
  const password = await askNewPassword();
  stdout.write(`${await hashPassword(password)}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
