import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../lib/random';
import { LINK_CODE_ALPHABET, newLinkCode, normaliseLinkCode } from './link-code';

describe('link codes', () => {
  it('are six characters without look-alikes, and read back however they are typed', () => {
    const random = seededRandom(1);
    for (let i = 0; i < 100; i++) {
      const code = newLinkCode(random);
      expect(code).toMatch(new RegExp(`^[${LINK_CODE_ALPHABET}]{6}$`));
      expect(normaliseLinkCode(code.toLowerCase())).toBe(code);
      expect(normaliseLinkCode(`${code.slice(0, 3)}-${code.slice(3)}`)).toBe(code);
    }
    expect(normaliseLinkCode('ABC0O1')).toBeNull();
    expect(normaliseLinkCode('ABCDE')).toBeNull();
  });
});
