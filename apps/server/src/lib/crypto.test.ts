import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenCipher, pkceChallenge } from './crypto';

describe('TokenCipher', () => {
  const cipher = new TokenCipher(randomBytes(32).toString('base64'));

  it('round-trips any text and never stores it in clear', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (plain) => {
        const sealed = cipher.encrypt(plain);
        expect(cipher.decrypt(sealed)).toBe(plain);
        expect(sealed.includes(plain) && plain.length > 3).toBe(false);
      }),
    );
  });

  it('detects tampering and a wrong key', () => {
    const sealed = cipher.encrypt('secret-token');
    const parts = sealed.split('.');
    const tampered = [...parts.slice(0, 3), Buffer.from('other').toString('base64url')].join('.');
    expect(() => cipher.decrypt(tampered)).toThrow();
    expect(() => new TokenCipher(randomBytes(32).toString('hex')).decrypt(sealed)).toThrow();
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new TokenCipher('short')).toThrow(/32 bytes/);
  });
});

it('computes S256 challenges as unpadded base64url SHA-256 digests', () => {
  // SHA-256("abc") is the FIPS 180-2 test vector.
  const challenge = pkceChallenge('abc');
  expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(Buffer.from(challenge, 'base64url').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
