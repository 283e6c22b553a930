/**
 * The games pay what their odds say. Over 100,000 spins from a seeded generator (deterministic, so
 * it cannot flake), the observed win rate and the observed return per point bet must fall inside
 * the 99.9 % interval around the odds computed from the settings. The check is shown to have teeth:
 * spins from a payout table that differs from the configured one (a symbol weighted 5 instead of 4,
 * pairs not paid, a jackpot paying more, a 46 % roulette) fall outside it. The outcome frequencies
 * are checked too (chi-square at 99.9 %), so a wrong weight is caught even when it leaves the win
 * rate and the return where they were.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  defaultRouletteSettings,
  defaultSlotsSettings,
  rouletteOdds,
  slotsOdds,
  type GameOdds,
  type SlotsSymbol,
} from '@greenroom/contracts/api/games';
import { seededRandom, type RandomSource } from '../../../lib/random';
import { payoutOf, slotsMultiplier, spinRoulette, spinSlots } from './spin';

const SPINS = 100_000;
/** Two-sided 99.9 %: the normal quantile at 0.9995. */
const Z = 3.2905;
/** One-sided 99.9 %: the normal quantile at 0.999 (for the chi-square bound). */
const Z_ONE_SIDED = 3.0902;

interface Play {
  multiplier: number;
  /** The outcome as the configured odds name it (a label of `odds.outcomes`, or 'loss'). */
  label: string;
}

interface Check {
  winRate: number;
  winInterval: [number, number];
  meanReturn: number;
  returnInterval: [number, number];
  chiSquare: number;
  chiSquareBound: number;
  ok: boolean;
}

/** The chi-square quantile (Wilson–Hilferty; within 1 % of the exact value for these degrees of freedom). */
function chiSquareQuantile(df: number, z: number): number {
  const a = 2 / (9 * df);
  return df * (1 - a + z * Math.sqrt(a)) ** 3;
}

/**
 * Simulates `SPINS` plays and compares them with `odds` three ways, each at 99.9 %: the win rate,
 * the mean return (its variance from the outcome table) and the frequency of every outcome
 * (chi-square goodness of fit, losses as one category).
 */
function check(odds: GameOdds, play: (r: RandomSource) => Play, seed: number): Check {
  const random = seededRandom(seed);
  let wins = 0;
  let sum = 0;
  const observed = new Map<string, number>();
  for (let i = 0; i < SPINS; i++) {
    const { multiplier, label } = play(random);
    if (multiplier > 0) wins++;
    sum += multiplier;
    observed.set(label, (observed.get(label) ?? 0) + 1);
  }
  const p = odds.win_chance;
  const winHalf = Z * Math.sqrt((p * (1 - p)) / SPINS);
  const second = odds.outcomes.reduce((acc, o) => acc + o.chance * o.multiplier ** 2, 0);
  const retHalf = Z * Math.sqrt((second - odds.expected_return ** 2) / SPINS);
  const categories = [...odds.outcomes.map((o) => ({ label: o.label, chance: o.chance })), { label: 'loss', chance: 1 - p }];
  let chiSquare = 0;
  for (const c of categories) {
    const expected = c.chance * SPINS;
    chiSquare += ((observed.get(c.label) ?? 0) - expected) ** 2 / expected;
  }
  const chiSquareBound = chiSquareQuantile(categories.length - 1, Z_ONE_SIDED);
  const winRate = wins / SPINS;
  const meanReturn = sum / SPINS;
  const winInterval: [number, number] = [p - winHalf, p + winHalf];
  const returnInterval: [number, number] = [odds.expected_return - retHalf, odds.expected_return + retHalf];
  const inside = (v: number, [lo, hi]: [number, number]) => v >= lo && v <= hi;
  const ok = inside(winRate, winInterval) && inside(meanReturn, returnInterval) && chiSquare <= chiSquareBound;
  return { winRate, winInterval, meanReturn, returnInterval, chiSquare, chiSquareBound, ok };
}

/** Names a spin's reels as the configured table's odds do. */
function slotsLabel(reels: number[], table: readonly SlotsSymbol[]): string {
  const [a, b, c] = reels as [number, number, number];
  const s = (i: number) => table[i]!;
  if (a === b && b === c) return s(a).pays_three > 0 ? `${s(a).emote} ${s(a).emote} ${s(a).emote}` : 'loss';
  const pair = a === b || a === c ? a : b === c ? b : -1;
  return pair >= 0 && s(pair).pays_two > 0 ? `Two ${s(pair).emote}` : 'loss';
}

/** Plays slots with `spinTable` (the table the machine really uses), labelled by `configured`. */
const slots =
  (spinTable: readonly SlotsSymbol[], configured: readonly SlotsSymbol[]) =>
  (r: RandomSource): Play => {
    const spin = spinSlots(spinTable, r);
    return { multiplier: spin.multiplier, label: slotsLabel(spin.reels, configured) };
  };

const roulette =
  (chance: number) =>
  (r: RandomSource): Play => {
    const multiplier = spinRoulette({ ...defaultRouletteSettings, win_chance_percent: chance }, r);
    return { multiplier, label: multiplier > 0 ? 'Win' : 'loss' };
  };

const symbols = defaultSlotsSettings.symbols;

describe('slots and roulette pay what their odds say', () => {
  it('slots: 100,000 spins of the default table fall inside the 99.9 % bounds', () => {
    const result = check(slotsOdds(symbols), slots(symbols, symbols), 20261123);
    expect(result.winRate).toBeGreaterThanOrEqual(result.winInterval[0]);
    expect(result.winRate).toBeLessThanOrEqual(result.winInterval[1]);
    expect(result.meanReturn).toBeGreaterThanOrEqual(result.returnInterval[0]);
    expect(result.meanReturn).toBeLessThanOrEqual(result.returnInterval[1]);
    expect(result.chiSquare).toBeLessThanOrEqual(result.chiSquareBound);
  });

  it('slots: a high-variance table (a 1,000× jackpot) also holds', () => {
    const table = [
      { emote: 'A', weight: 10, pays_three: 2, pays_two: 1.2 },
      { emote: 'B', weight: 5, pays_three: 10, pays_two: 0 },
      { emote: 'C', weight: 1, pays_three: 1000, pays_two: 3 },
    ];
    expect(check(slotsOdds(table), slots(table, table), 7).ok).toBe(true);
  });

  it('roulette: 100,000 spins at 45 % paying 2× fall inside the bounds', () => {
    expect(check(rouletteOdds(defaultRouletteSettings), roulette(45), 99).ok).toBe(true);
  });

  it('fails for spins from a payout table other than the configured one', () => {
    const odds = slotsOdds(symbols);
    const mutate = (i: number, change: Partial<SlotsSymbol>) => symbols.map((s, j) => (j === i ? { ...s, ...change } : s));
    // A symbol weighted 5 instead of 4 (the win rate and return barely move; the outcome frequencies do).
    expect(check(odds, slots(mutate(0, { weight: 5 }), symbols), 20261123).ok).toBe(false);
    // Pairs not paid.
    expect(
      check(
        odds,
        slots(
          symbols.map((s) => ({ ...s, pays_two: 0 })),
          symbols,
        ),
        20261123,
      ).ok,
    ).toBe(false);
    // Three Kappa paying 10× instead of 8×.
    expect(check(odds, slots(mutate(0, { pays_three: 10 }), symbols), 20261123).ok).toBe(false);
    // Roulette winning 46 % of the time instead of 45 %.
    expect(check(rouletteOdds(defaultRouletteSettings), roulette(46), 99).ok).toBe(false);
  });
});

describe('slots payouts', () => {
  it('three of a kind beats two of a kind; a pair pays its symbol', () => {
    expect(slotsMultiplier([4, 4, 4], symbols)).toBe(150);
    expect(slotsMultiplier([4, 4, 0], symbols)).toBe(2);
    expect(slotsMultiplier([3, 0, 3], symbols)).toBe(1.5);
    expect(slotsMultiplier([0, 0, 1], symbols)).toBe(0);
    expect(slotsMultiplier([0, 1, 2], symbols)).toBe(0);
  });

  it('odds: the outcome chances of a table sum with the losing chance to 1', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ weight: fc.integer({ min: 1, max: 1000 }) }), { minLength: 2, maxLength: 12 }), (weights) => {
        const table = weights.map((w, i) => ({ emote: `E${i}`, weight: w.weight, pays_three: 1, pays_two: 1 }));
        const odds = slotsOdds(table);
        // P(no pair at all) for three reels: Σ over distinct triples = 1 − Σ p³ − Σ 3p²(1−p).
        const p = weights.map((w) => w.weight / weights.reduce((a, b) => a + b.weight, 0));
        let distinct = 0;
        for (let a = 0; a < p.length; a++)
          for (let b = 0; b < p.length; b++)
            for (let c = 0; c < p.length; c++) if (a !== b && b !== c && a !== c) distinct += p[a]! * p[b]! * p[c]!;
        expect(odds.win_chance + distinct).toBeCloseTo(1, 9);
      }),
      { numRuns: 50 },
    );
  });

  it('payouts round down to whole points, never losing a point to float error', () => {
    expect(payoutOf(100, 0.29)).toBe(29);
    expect(payoutOf(100, 1.1)).toBe(110);
    expect(payoutOf(3, 0.5)).toBe(1);
    expect(payoutOf(1000, 0)).toBe(0);
  });
});
