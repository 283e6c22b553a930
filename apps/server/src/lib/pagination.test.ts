import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { decodeKeysetCursor, encodeKeysetCursor, escapeLike, pageOf, parseSeqCursor } from './pagination';

describe('pagination helpers', () => {
  it('escapes LIKE wildcards and the escape character', () => {
    expect(escapeLike('50%_off\\now')).toBe('50\\%\\_off\\\\now');
  });

  it('parses sequence cursors and refuses anything else with a 400', () => {
    expect(parseSeqCursor(undefined)).toBeNull();
    expect(parseSeqCursor('')).toBeNull();
    expect(parseSeqCursor('123')).toBe(123);
    for (const bad of ['-1', '1.5', 'abc', '1234567890123456']) expect(() => parseSeqCursor(bad)).toThrow(AppError);
  });

  it('round-trips keyset cursors and refuses forged ones', () => {
    const cursor = encodeKeysetCursor(['Demo', '0190']);
    expect(decodeKeysetCursor(cursor, 2)).toEqual(['Demo', '0190']);
    expect(decodeKeysetCursor(undefined, 2)).toBeNull();
    expect(() => decodeKeysetCursor(cursor, 3)).toThrow(AppError);
    expect(() => decodeKeysetCursor('not-json', 2)).toThrow(AppError);
  });

  it('cuts a page fetched with one extra row and gives the cursor of its last row', () => {
    expect(pageOf([1, 2, 3], 2, String)).toEqual({ rows: [1, 2], cursor: '2' });
    expect(pageOf([1, 2], 2, String)).toEqual({ rows: [1, 2], cursor: null });
    expect(pageOf([], 2, String)).toEqual({ rows: [], cursor: null });
  });
});
