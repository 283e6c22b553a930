import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseAmount, parseBet, resolveBet } from './amounts';

describe('amounts typed in chat', () => {
  it('reads plain numbers, thousands separators and k/m/b suffixes', () => {
    expect(parseAmount('100')).toEqual({ ok: true, amount: 100 });
    expect(parseAmount('1,000')).toEqual({ ok: true, amount: 1000 });
    expect(parseAmount('5k')).toEqual({ ok: true, amount: 5000 });
    expect(parseAmount('2.5K')).toEqual({ ok: true, amount: 2500 });
    expect(parseAmount('1m')).toEqual({ ok: true, amount: 1_000_000 });
    expect(parseAmount('.5k')).toEqual({ ok: true, amount: 500 });
  });

  it('refuses what is not a positive amount, with a message', () => {
    for (const bad of ['', '0', '-5', 'abc', '1e6', '5kk', '0.4', '10%', '99999999999999']) {
      const r = parseAmount(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.message.length).toBeGreaterThan(5);
    }
  });

  it('bets: amounts, percentages and all', () => {
    expect(parseBet('100')).toEqual({ ok: true, bet: { kind: 'amount', amount: 100 } });
    expect(parseBet('50%')).toEqual({ ok: true, bet: { kind: 'percent', percent: 50 } });
    expect(parseBet('ALL')).toEqual({ ok: true, bet: { kind: 'all' } });
    expect(parseBet('5k')).toEqual({ ok: true, bet: { kind: 'amount', amount: 5000 } });
    expect(parseBet('1m')).toEqual({ ok: true, bet: { kind: 'amount', amount: 1_000_000 } });
    expect(parseBet('150%').ok).toBe(false);
    expect(parseBet('0%').ok).toBe(false);
    expect(parseBet(undefined).ok).toBe(false);
  });

  it('resolves a bet against the balance and limits', () => {
    const limits = { min: 10, max: 1000 };
    expect(resolveBet({ kind: 'amount', amount: 100 }, 500, limits)).toEqual({ ok: true, stake: 100, allIn: false });
    expect(resolveBet({ kind: 'amount', amount: 600 }, 500, limits)).toEqual({ ok: false, reason: 'balance' });
    expect(resolveBet({ kind: 'amount', amount: 5 }, 500, limits)).toEqual({ ok: false, reason: 'below_min' });
    expect(resolveBet({ kind: 'amount', amount: 5000 }, 50_000, limits)).toEqual({ ok: false, reason: 'above_max' });
    expect(resolveBet({ kind: 'percent', percent: 50 }, 500, limits)).toEqual({ ok: true, stake: 250, allIn: false });
    expect(resolveBet({ kind: 'all' }, 500, limits)).toEqual({ ok: true, stake: 500, allIn: true });
    expect(resolveBet({ kind: 'all' }, 50_000, limits)).toEqual({ ok: true, stake: 1000, allIn: false });
    expect(resolveBet({ kind: 'all' }, 0, limits)).toEqual({ ok: false, reason: 'empty' });
    expect(resolveBet({ kind: 'all' }, 5, limits)).toEqual({ ok: false, reason: 'balance' });
  });

  it('a resolved stake is never more than the balance, nor outside the limits', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ kind: fc.constant('amount' as const), amount: fc.integer({ min: 1, max: 10_000_000 }) }),
          fc.record({ kind: fc.constant('percent' as const), percent: fc.double({ min: 0.01, max: 100, noNaN: true }) }),
          fc.constant({ kind: 'all' as const }),
        ),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 100_000 }),
        (bet, balance, min, extra) => {
          const r = resolveBet(bet, balance, { min, max: min + extra });
          if (r.ok) {
            expect(r.stake).toBeLessThanOrEqual(balance);
            expect(r.stake).toBeGreaterThanOrEqual(min);
            expect(r.stake).toBeLessThanOrEqual(min + extra);
          }
        },
      ),
    );
  });
});
