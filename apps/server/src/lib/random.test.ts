import { describe, expect, it } from 'vitest';
import { cryptoRandom, seededRandom, weightedIndex } from './random';

describe('random sources', () => {
  it('stay within range', () => {
    for (const random of [cryptoRandom, seededRandom(3)]) {
      for (let i = 0; i < 1000; i++) {
        const v = random.int(7);
        expect(v >= 0 && v < 7 && Number.isInteger(v)).toBe(true);
      }
      expect(random.int(1)).toBe(0);
    }
  });

  it('a seeded source repeats its sequence; different seeds differ', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const seqA = Array.from({ length: 20 }, () => a.int(1_000_000));
    expect(Array.from({ length: 20 }, () => b.int(1_000_000))).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.int(1_000_000))).not.toEqual(seqA);
  });

  it('a seeded source is uniform (chi-square over 10 buckets, 99.9 %)', () => {
    const random = seededRandom(5);
    const counts = Array.from({ length: 10 }, () => 0);
    const n = 100_000;
    for (let i = 0; i < n; i++) counts[random.int(10)]!++;
    const chi = counts.reduce((acc, c) => acc + (c - n / 10) ** 2 / (n / 10), 0);
    // The 99.9 % quantile of chi-square with 9 degrees of freedom is 27.88.
    expect(chi).toBeLessThan(27.88);
  });

  it('weighted picks skip zero weights and refuse an all-zero set', () => {
    const random = seededRandom(9);
    for (let i = 0; i < 200; i++) expect(weightedIndex([0, 3, 0, 1], random)).not.toBe(0);
    expect(weightedIndex([0, 0], random)).toBe(-1);
  });
});
