/**
 * Codes for `!link`: six characters from an alphabet without look-alikes (no 0/O, 1/I/L), easy to
 * type on a phone keyboard on another platform. 31^6 ≈ 887 million codes; a code lives ten minutes
 * and each guess costs a chat message, so guessing one is hopeless.
 */
import type { RandomSource } from '../../../lib/random';

export const LINK_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const LINK_CODE_LENGTH = 6;

export function newLinkCode(random: RandomSource): string {
  let code = '';
  for (let i = 0; i < LINK_CODE_LENGTH; i++) code += LINK_CODE_ALPHABET[random.int(LINK_CODE_ALPHABET.length)];
  return code;
}

/** A code as typed (any case, spaces or dashes between groups) in canonical form, or null. */
export function normaliseLinkCode(raw: string): string | null {
  const code = raw.replace(/[\s-]/gu, '').toUpperCase();
  if (code.length !== LINK_CODE_LENGTH) return null;
  for (const ch of code) if (!LINK_CODE_ALPHABET.includes(ch)) return null;
  return code;
}
