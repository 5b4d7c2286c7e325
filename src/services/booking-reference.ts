/**
 * New booking references from the operating system's CSPRNG. Each symbol takes the low five bits
 * of a random byte (0–31, every value equally likely) and rejects 31, the one value past the
 * 31-symbol alphabet, instead of reducing modulo 31, which would make some symbols likelier.
 * Uniqueness is the database's job (a unique index; see createBooking's retry).
 */
import { randomBytes } from 'node:crypto';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '../domain/booking-reference.ts';

export type RandomBytes = (size: number) => Uint8Array;

export function newBookingReference(random: RandomBytes = randomBytes): string {
  let reference = '';
  while (reference.length < REFERENCE_LENGTH) {
    for (const byte of random(REFERENCE_LENGTH)) {
      const index = byte & 31;
      if (index < REFERENCE_ALPHABET.length && reference.length < REFERENCE_LENGTH) reference += REFERENCE_ALPHABET[index];
    }
  }
  return reference;
}
