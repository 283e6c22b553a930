/**
 * Where games, draws and codes take their randomness from. Production uses the operating system's
 * CSPRNG (`crypto.randomInt`, unbiased by rejection sampling); tests pass a seeded generator so a
 * statistical test cannot flake.
 */
import { randomInt } from 'node:crypto';

export interface RandomSource {
  /** A uniform integer in [0, maxExclusive); `maxExclusive` is at least 1 and at most 2^48. */
  int(maxExclusive: number): number;
}

export const cryptoRandom: RandomSource = {
  int: (maxExclusive) => (maxExclusive <= 1 ? 0 : randomInt(maxExclusive)),
};

/**
 * A seeded generator (xoshiro128**, 32-bit state words) for tests and simulations. `int` rejects
 * the biased tail like `crypto.randomInt`, so its distribution is exactly uniform too.
 */
export function seededRandom(seed: number): RandomSource {
  // splitmix32 spreads the seed over the four state words.
  let x = seed >>> 0;
  const next32 = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const s = [next32(), next32(), next32(), next32()];
  const rotl = (v: number, k: number) => ((v << k) | (v >>> (32 - k))) >>> 0;
  const u32 = () => {
    const result = Math.imul(rotl(Math.imul(s[1]!, 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1]! << 9) >>> 0;
    s[2] = (s[2]! ^ s[0]!) >>> 0;
    s[3] = (s[3]! ^ s[1]!) >>> 0;
    s[1] = (s[1]! ^ s[2]) >>> 0;
    s[0] = (s[0]! ^ s[3]) >>> 0;
    s[2] = (s[2] ^ t) >>> 0;
    s[3] = rotl(s[3], 11);
    return result;
  };
  // 48 random bits as a float-safe integer.
  const u48 = () => (u32() >>> 8) * 2 ** 24 + (u32() >>> 8);
  return {
    int(maxExclusive: number): number {
      if (maxExclusive <= 1) return 0;
      const range = 2 ** 48;
      const limit = range - (range % maxExclusive);
      for (;;) {
        const v = u48();
        if (v < limit) return v % maxExclusive;
      }
    },
  };
}

/** An index chosen with probability proportional to its weight (weights ≥ 0, integers). */
export function weightedIndex(weights: readonly number[], random: RandomSource): number {
  let total = 0;
  for (const w of weights) total += w;
  if (total <= 0) return -1;
  let r = random.int(total);
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i]!;
    if (r < 0) return i;
  }
  return weights.length - 1;
}
