/**
 * One play of slots or roulette: the outcome from the settings and a random source, and what it
 * pays. The probabilities here are exactly the ones `slotsOdds` / `rouletteOdds` report (each reel
 * draws a symbol with probability weight / total weight; roulette wins with the configured chance,
 * drawn at 0.001 % resolution), which the statistical test checks over 100,000 spins.
 */
import { SLOTS_REELS, type RouletteSettings, type SlotsSymbol } from '@greenroom/contracts/api/games';
import { weightedIndex, type RandomSource } from '../../../lib/random';

export interface SlotsSpin {
  /** The symbol index on each reel. */
  reels: number[];
  /** Paid back per point bet (0: a loss). */
  multiplier: number;
}

/** The multiplier a set of reels pays: three of a kind, else exactly two of a kind, else nothing. */
export function slotsMultiplier(reels: readonly number[], symbols: readonly SlotsSymbol[]): number {
  const counts = new Map<number, number>();
  for (const r of reels) counts.set(r, (counts.get(r) ?? 0) + 1);
  let best = 0;
  for (const [index, count] of counts) {
    const s = symbols[index];
    if (!s) continue;
    if (count === 3) best = Math.max(best, s.pays_three);
    else if (count === 2) best = Math.max(best, s.pays_two);
  }
  return best;
}

export function spinSlots(symbols: readonly SlotsSymbol[], random: RandomSource): SlotsSpin {
  const weights = symbols.map((s) => s.weight);
  const reels: number[] = [];
  for (let i = 0; i < SLOTS_REELS; i++) reels.push(weightedIndex(weights, random));
  return { reels, multiplier: slotsMultiplier(reels, symbols) };
}

/** Roulette's resolution: the chance is drawn in steps of 1 in 100,000 (0.001 %). */
const ROULETTE_STEPS = 100_000;

export function spinRoulette(settings: Pick<RouletteSettings, 'win_chance_percent' | 'payout_multiplier'>, random: RandomSource): number {
  const winSteps = Math.round((settings.win_chance_percent / 100) * ROULETTE_STEPS);
  return random.int(ROULETTE_STEPS) < winSteps ? settings.payout_multiplier : 0;
}

/** What a stake returns: the multiplier applied, rounded down to whole points. */
export function payoutOf(stake: number, multiplier: number): number {
  return Math.floor(stake * multiplier + 1e-9);
}

/** Fills `{name}` variables of a game message; unknown names stay as typed. */
export function fillMessage(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/gu, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
