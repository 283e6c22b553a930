/**
 * Drawing giveaway winners: each entry's chance is proportional to its weight (tickets, times the
 * subscriber luck for subscribers and members); several winners are drawn without replacement, so
 * one viewer wins at most once per giveaway. Weights are scaled to integers (luck has one decimal)
 * so the CSPRNG's uniform integers give exact proportions.
 */
import { weightedIndex, type RandomSource } from '../../../lib/random';

export interface DrawEntry {
  walletId: string;
  tickets: number;
  subscriber: boolean;
}

/** An entry's weight ×10 (an integer): tickets × luck, where luck is 1 or the subscriber luck (one decimal). */
export function entryWeight10(entry: Pick<DrawEntry, 'tickets' | 'subscriber'>, subLuck: number): number {
  return entry.tickets * (entry.subscriber ? Math.round(subLuck * 10) : 10);
}

/** Draws up to `count` different entries, excluding wallets in `exclude` (earlier winners). */
export function drawWinners<T extends DrawEntry>(
  entries: readonly T[],
  count: number,
  subLuck: number,
  random: RandomSource,
  exclude: ReadonlySet<string> = new Set(),
): T[] {
  const pool = entries.filter((e) => !exclude.has(e.walletId) && e.tickets > 0);
  const weights = pool.map((e) => entryWeight10(e, subLuck));
  const winners: T[] = [];
  while (winners.length < count) {
    const i = weightedIndex(weights, random);
    if (i < 0) break;
    winners.push(pool[i]!);
    weights[i] = 0;
  }
  return winners;
}
