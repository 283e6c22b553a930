import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seededRandom } from '../../../lib/random';
import { drawWinners, entryWeight10 } from './draw';

describe('giveaway draw', () => {
  it('draws different winners, never an excluded one, at most as many as entries', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ tickets: fc.integer({ min: 0, max: 20 }), subscriber: fc.boolean() }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer(),
        (raw, count, seed) => {
          const entries = raw.map((e, i) => ({ walletId: `w${i}`, ...e }));
          const exclude = new Set(['w0']);
          const winners = drawWinners(entries, count, 2.5, seededRandom(seed), exclude);
          const eligible = entries.filter((e) => e.tickets > 0 && e.walletId !== 'w0').length;
          expect(winners.length).toBe(Math.min(count, eligible));
          expect(new Set(winners.map((w) => w.walletId)).size).toBe(winners.length);
          expect(winners.some((w) => w.walletId === 'w0' || w.tickets === 0)).toBe(false);
        },
      ),
    );
  });

  it('weights by tickets and subscriber luck', () => {
    expect(entryWeight10({ tickets: 3, subscriber: false }, 2)).toBe(30);
    expect(entryWeight10({ tickets: 3, subscriber: true }, 2.5)).toBe(75);
    // 1 ticket vs a subscriber with 1 ticket at 3× luck: the subscriber wins about 3 in 4 draws.
    const random = seededRandom(1);
    const entries = [
      { walletId: 'plain', tickets: 1, subscriber: false },
      { walletId: 'sub', tickets: 1, subscriber: true },
    ];
    let sub = 0;
    for (let i = 0; i < 20_000; i++) if (drawWinners(entries, 1, 3, random)[0]!.walletId === 'sub') sub++;
    // 99.9 % interval around 0.75: ±3.29 × sqrt(0.75 × 0.25 / 20000) ≈ ±0.0101.
    expect(Math.abs(sub / 20_000 - 0.75)).toBeLessThan(0.0101);
  });
});
