/**
 * One viewer with one wallet linked across Twitch, YouTube and Kick fires 1,000 bets, gives and
 * debits at once, each addressed through one of the three platform identities. Whatever the
 * interleaving (PGlite runs them one by one; `npm run test:pg` runs them on a pool of connections),
 * the balance never goes below zero — no ledger row's running balance does either — every refusal
 * is a clean "insufficient", and each wallet's ledger sums exactly to its balance, with no point
 * created or lost beyond the games' payouts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { channels } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { DbPointsRepository, type IdentityInput } from '../src/modules/points';
import { freshDatabase } from './helper';

let database: Database;
let drop: () => Promise<void>;
let repo: DbPointsRepository;
let channelId: string;

const identity = (provider: IdentityInput['provider'], id: string): IdentityInput => ({
  provider,
  providerUserId: id,
  login: id,
  displayName: id,
});

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  repo = new DbPointsRepository(database.db);
  channelId = newId();
  await database.db.insert(channels).values({ id: channelId, displayName: 'Concurrency' });
});
afterAll(async () => {
  await database.close();
  await drop();
});

/** A small deterministic generator, so a failure can be replayed. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('one wallet on three platforms under 1,000 concurrent bets and gives', () => {
  it('never goes below zero and its ledger sums exactly to its balance', async () => {
    const tw = identity('twitch', 'zoe-tw');
    const yt = identity('youtube', 'zoe-yt');
    const kk = identity('kick', 'zoe-kk');
    const zoe = await repo.wallet(channelId, tw);
    await repo.wallet(channelId, yt);
    await repo.wallet(channelId, kk);
    for (const [code, other] of [
      ['LNKYTA', yt],
      ['LNKKKA', kk],
    ] as const) {
      expect(await repo.createLinkCode(channelId, tw, code, new Date(Date.now() + 600_000))).toBe(true);
      expect(await repo.useLinkCode(channelId, code, other, new Date())).not.toBeNull();
      expect((await repo.join(channelId, code, tw, other)).status).toBe('joined');
    }
    const friends = await Promise.all(['ann', 'bob', 'cid'].map((n) => repo.wallet(channelId, identity('twitch', `${n}-tw`))));
    // About a fifth of what the 1,000 operations ask for in total: whatever the interleaving, plenty are applied
    // and plenty refused.
    const start = 40_000;
    await repo.change({ channelId, walletId: zoe.id, delta: start, kind: 'adjust', key: 'zoe-start' });

    const random = lcg(12);
    // Drawn up front, so amounts and outcomes do not depend on the order the operations interleave in.
    const draws = Array.from({ length: 1_000 }, () => ({ amount: 1 + Math.floor(random() * 400), wins: random() < 0.45 }));
    const identities = [tw, yt, kk];
    const outcomes = { applied: 0, insufficient: 0 };
    let paidOut = 0;
    let staked = 0;
    const ops = Array.from({ length: 1_000 }, (_, i) => async () => {
      const via = identities[i % 3]!;
      const wallet = await repo.wallet(channelId, via);
      expect(wallet.id).toBe(zoe.id);
      const { amount, wins } = draws[i]!;
      const kind = i % 4;
      if (kind === 0 || kind === 1) {
        const payout = wins ? amount * 2 : 0;
        const r = await repo.play({
          channelId,
          walletId: wallet.id,
          stake: amount,
          payout,
          kind: kind === 0 ? 'slots' : 'roulette',
          key: `bet-${i}`,
          note: 'bet',
          data: {},
          lossCap: null,
        });
        if (r.status === 'applied') {
          outcomes.applied += 1;
          staked += amount;
          paidOut += payout;
        } else {
          expect(r.status).toBe('insufficient');
          outcomes.insufficient += 1;
        }
      } else if (kind === 2) {
        const to = friends[i % friends.length]!;
        const r = await repo.give({ channelId, from: wallet.id, to: to.id, amount, key: `give-${i}`, noteOut: 'out', noteIn: 'in' });
        expect(['applied', 'insufficient']).toContain(r.status);
        outcomes[r.status as 'applied' | 'insufficient'] += 1;
      } else {
        const r = await repo.change({ channelId, walletId: wallet.id, delta: -amount, kind: 'command', key: `rm-${i}` });
        expect(['applied', 'insufficient']).toContain(r.status);
        outcomes[r.status as 'applied' | 'insufficient'] += 1;
      }
    });
    await Promise.all(ops.map((op) => op()));

    expect(outcomes.applied + outcomes.insufficient).toBe(1_000);
    // Enough of both kinds that the test means something.
    expect(outcomes.applied).toBeGreaterThan(50);
    expect(outcomes.insufficient).toBeGreaterThan(50);

    const after = (await repo.walletById(channelId, zoe.id))!;
    expect(after.balance).toBeGreaterThanOrEqual(0);
    expect(await repo.ledgerSum(zoe.id)).toBe(after.balance);
    const rows = await repo.ledger(zoe.id, { limit: 5_000 });
    expect(rows.length).toBeGreaterThan(outcomes.applied);
    expect(Math.min(...rows.map((r) => r.balance))).toBeGreaterThanOrEqual(0);

    let friendsTotal = 0;
    for (const f of friends) {
      const w = (await repo.walletById(channelId, f.id))!;
      expect(await repo.ledgerSum(f.id)).toBe(w.balance);
      friendsTotal += w.balance;
    }
    // Conservation: what Zoe has plus what she gave equals the start, minus removals, minus stakes, plus payouts.
    const removed = rows.filter((r) => r.kind === 'command').reduce((sum, r) => sum - r.delta, 0);
    expect(after.balance + friendsTotal).toBe(start - removed - staked + paidOut);
  }, 300_000);
});
