/**
 * Amounts typed in chat: `100`, `1,000`, `5k`, `2.5k`, `1m`, and for bets also `50%` and `all`.
 * Everything is parsed to whole points; anything else is refused with a message for the viewer.
 */
import { POINTS_MAX } from '@greenroom/contracts/api/points';

export type AmountResult = { ok: true; amount: number } | { ok: false; message: string };

const SUFFIX: Record<string, number> = { '': 1, k: 1_000, m: 1_000_000, b: 1_000_000_000 };
const AMOUNT = /^(\d{1,13}(?:,\d{3})*|\d*\.\d+|\d+\.\d*)([kmb]?)$/u;

/** A plain amount (`!give @a 5k`): a positive whole number of points. */
export function parseAmount(raw: string | undefined): AmountResult {
  const text = (raw ?? '').trim().toLowerCase();
  const m = AMOUNT.exec(text);
  if (!m) return { ok: false, message: 'Give an amount such as 100, 5k or 1m.' };
  const value = Number(m[1]!.replaceAll(',', '')) * SUFFIX[m[2]!]!;
  if (!Number.isFinite(value)) return { ok: false, message: 'That amount is too large.' };
  const amount = Math.floor(value);
  if (amount < 1) return { ok: false, message: 'The amount must be at least 1.' };
  if (amount > POINTS_MAX) return { ok: false, message: 'That amount is too large.' };
  return { ok: true, amount };
}

export type BetSpec = { kind: 'amount'; amount: number } | { kind: 'percent'; percent: number } | { kind: 'all' };
export type BetSpecResult = { ok: true; bet: BetSpec } | { ok: false; message: string };

/** A bet as typed: an amount, a percentage of the balance (`50%`) or `all`. */
export function parseBet(raw: string | undefined): BetSpecResult {
  const text = (raw ?? '').trim().toLowerCase();
  if (!text) return { ok: false, message: 'Say how much to bet: 100, 50%, 5k, 1m or all.' };
  if (text === 'all' || text === 'allin' || text === 'all-in') return { ok: true, bet: { kind: 'all' } };
  const pct = /^(\d{1,3}(?:\.\d+)?)%$/u.exec(text);
  if (pct) {
    const percent = Number(pct[1]);
    if (percent <= 0 || percent > 100) return { ok: false, message: 'A percentage bet is between 1% and 100%.' };
    return { ok: true, bet: { kind: 'percent', percent } };
  }
  const amount = parseAmount(text);
  if (!amount.ok) return { ok: false, message: 'Bet an amount such as 100, 50%, 5k, 1m or all.' };
  return { ok: true, bet: { kind: 'amount', amount: amount.amount } };
}

/**
 * The points a bet stakes, given the balance read just before: percentages and `all` are taken of
 * that balance and capped at the maximum bet (so `all` with a large balance bets the maximum).
 * The stake is then taken with a conditional update, so a balance that changed in between is
 * refused rather than overdrawn.
 */
export function resolveBet(
  bet: BetSpec,
  balance: number,
  limits: { min: number; max: number },
): { ok: true; stake: number; allIn: boolean } | { ok: false; reason: 'below_min' | 'above_max' | 'balance' | 'empty' } {
  if (bet.kind === 'amount') {
    if (bet.amount < limits.min) return { ok: false, reason: 'below_min' };
    if (bet.amount > limits.max) return { ok: false, reason: 'above_max' };
    if (bet.amount > balance) return { ok: false, reason: 'balance' };
    return { ok: true, stake: bet.amount, allIn: bet.amount === balance };
  }
  if (balance <= 0) return { ok: false, reason: 'empty' };
  const wanted = bet.kind === 'all' ? balance : Math.floor((balance * bet.percent) / 100);
  const stake = Math.min(wanted, limits.max);
  if (stake < limits.min) return { ok: false, reason: balance < limits.min ? 'balance' : 'below_min' };
  return { ok: true, stake, allIn: stake === balance };
}

/** `12,345` */
export function formatPoints(n: number): string {
  return n.toLocaleString('en-US');
}
