/**
 * The points repository on a real database (PGlite here, PostgreSQL under `npm run test:pg`): batched
 * earnings are idempotent and skip banned viewers, debits never overdraw, gives move points whole or
 * not at all, plays respect the loss cap, links sum balances in the ledger, and every wallet's ledger
 * sums to its balance; watch-time ticks are claimed once, retried by their claimer, taken over only when stale.
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

const viewer = (provider: IdentityInput['provider'], id: string, name = id): IdentityInput => ({
  provider,
  providerUserId: id,
  login: name.toLowerCase(),
  displayName: name,
});

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  repo = new DbPointsRepository(database.db);
  channelId = newId();
  await database.db.insert(channels).values({ id: channelId, displayName: 'Chan' });
});
afterAll(async () => {
  await database.close();
  await drop();
});

async function consistent(walletId: string) {
  const w = await repo.walletById(channelId, walletId);
  expect(await repo.ledgerSum(walletId)).toBe(w!.balance);
}

describe('points repository', () => {
  it('earns in batches, once per key, creating wallets on first sight', async () => {
    const ann = viewer('twitch', 'ann-1', 'Ann');
    const entries = [
      { channelId, identity: ann, amount: 5, kind: 'chat' as const, key: 'e1' },
      { channelId, identity: ann, amount: 7, kind: 'chat' as const, key: 'e2' },
      { channelId, identity: viewer('kick', 'bob-1', 'Bob'), amount: 3, kind: 'follow' as const, key: 'e3' },
    ];
    expect(await repo.earn(entries)).toBe(3);
    expect(await repo.earn(entries)).toBe(0);
    const w = await repo.wallet(channelId, ann);
    expect(w.balance).toBe(12);
    await consistent(w.id);
    const ledger = await repo.ledger(w.id, { limit: 10 });
    expect(ledger.map((r) => [r.delta, r.balance])).toEqual([
      [7, 12],
      [5, 5],
    ]);
  });

  it('earns a batch of 1,000 viewers seen for the first time, then again (the watch-time payout of a large audience)', async () => {
    const batch = (round: number) =>
      Array.from({ length: 1_000 }, (_, i) => ({
        channelId,
        identity: viewer((['twitch', 'youtube', 'kick'] as const)[i % 3]!, `crowd-${i}`, `Crowd${i}`),
        amount: 5,
        kind: 'watch' as const,
        key: `crowd:${round}:${i}`,
      }));
    expect(await repo.earn(batch(1))).toBe(1_000);
    expect(await repo.earn(batch(2))).toBe(1_000);
    const w = await repo.wallet(channelId, viewer('kick', 'crowd-998', 'Crowd998'));
    expect(w.balance).toBe(10);
    await consistent(w.id);
  });

  it('banned viewers earn nothing', async () => {
    const eve = viewer('youtube', 'eve-1', 'Eve');
    await repo.setBanned(channelId, eve, true);
    expect(await repo.earn([{ channelId, identity: eve, amount: 10, kind: 'chat', key: 'b1' }])).toBe(0);
    await repo.setBanned(channelId, eve, false);
    expect(await repo.earn([{ channelId, identity: eve, amount: 10, kind: 'chat', key: 'b2' }])).toBe(1);
  });

  it('refuses a debit or give the balance cannot cover, and moves gives whole', async () => {
    const cat = await repo.wallet(channelId, viewer('twitch', 'cat-1', 'Cat'));
    const dan = await repo.wallet(channelId, viewer('kick', 'dan-1', 'Dan'));
    await repo.change({ channelId, walletId: cat.id, delta: 100, kind: 'adjust', key: 'adj1' });
    expect(await repo.change({ channelId, walletId: cat.id, delta: -150, kind: 'command', key: 'rm1' })).toEqual({
      status: 'insufficient',
      balance: 100,
    });
    expect(await repo.change({ channelId, walletId: cat.id, delta: -150, kind: 'command', key: 'rm2', clamp: true })).toEqual({
      status: 'applied',
      delta: -100,
      balance: 0,
    });
    await repo.change({ channelId, walletId: cat.id, delta: 50, kind: 'adjust', key: 'adj2' });
    expect(
      (await repo.give({ channelId, from: cat.id, to: dan.id, amount: 60, key: 'g1', noteOut: 'to Dan', noteIn: 'from Cat' })).status,
    ).toBe('insufficient');
    const ok = await repo.give({ channelId, from: cat.id, to: dan.id, amount: 30, key: 'g2', noteOut: 'to Dan', noteIn: 'from Cat' });
    expect(ok).toEqual({ status: 'applied', delta: -30, balance: 20 });
    expect((await repo.give({ channelId, from: cat.id, to: dan.id, amount: 30, key: 'g2', noteOut: '', noteIn: '' })).status).toBe(
      'duplicate',
    );
    expect((await repo.walletById(channelId, dan.id))!.balance).toBe(30);
    await consistent(cat.id);
    await consistent(dan.id);
  });

  it('plays: net change in one row, the outcome answered again on re-delivery, and the loss cap', async () => {
    const w = await repo.wallet(channelId, viewer('twitch', 'gus-1', 'Gus'));
    await repo.change({ channelId, walletId: w.id, delta: 1000, kind: 'adjust', key: 'gus-adj' });
    const play = (key: string, stake: number, payout: number) =>
      repo.play({
        channelId,
        walletId: w.id,
        stake,
        payout,
        kind: 'slots',
        key,
        note: 'spin',
        data: { reels: [1, 2, 3] },
        lossCap: { streamKey: 's1', cap: 500 },
      });
    expect(await play('p1', 300, 0)).toEqual({ status: 'applied', balance: 700 });
    expect(await play('p1', 300, 0)).toEqual({ status: 'duplicate', balance: 700, data: { reels: [1, 2, 3] } });
    expect(await play('p2', 300, 0)).toEqual({ status: 'capped', remaining: 200 });
    expect(await play('p3', 200, 600)).toEqual({ status: 'applied', balance: 1100 });
    expect(await repo.gambleNetLoss(w.id, 's1')).toBe(-100);
    expect(await play('p4', 2000, 0)).toEqual({ status: 'capped', remaining: 600 });
    await consistent(w.id);
  });

  it('links two identities into one wallet with the balances summed in the ledger, and unlinks', async () => {
    const tw = viewer('twitch', 'hal-1', 'Hal');
    const yt = viewer('youtube', 'hal-yt', 'HalYT');
    const a = await repo.wallet(channelId, tw);
    const b = await repo.wallet(channelId, yt);
    await repo.change({ channelId, walletId: a.id, delta: 40, kind: 'adjust', key: 'hal-a' });
    await repo.change({ channelId, walletId: b.id, delta: 2, kind: 'adjust', key: 'hal-b' });
    expect(await repo.createLinkCode(channelId, tw, 'ABCDEF', new Date(Date.now() + 600_000))).toBe(true);
    expect(await repo.useLinkCode(channelId, 'ABCDEF', yt, new Date())).not.toBeNull();
    expect(await repo.useLinkCode(channelId, 'ABCDEF', yt, new Date())).toBeNull();
    expect((await repo.pendingLink(channelId, tw, new Date()))?.used?.providerUserId).toBe('hal-yt');
    const joined = await repo.join(channelId, 'ABCDEF', tw, yt);
    expect(joined).toEqual({ status: 'joined', walletId: a.id, balance: 42, moved: 2 });
    expect((await repo.wallet(channelId, yt)).id).toBe(a.id);
    await consistent(a.id);
    await consistent(b.id);
    // A third identity on a platform the wallet has already is refused.
    const tw2 = viewer('twitch', 'hal-2', 'Hal2');
    await repo.createLinkCode(channelId, tw2, 'GHJKMN', new Date(Date.now() + 600_000));
    expect(await repo.join(channelId, 'GHJKMN', tw2, yt)).toEqual({ status: 'same_platform', provider: 'twitch' });
    // Unlink the wallet's first identity: the points stay with the other.
    const unlinked = await repo.unlink(channelId, 'twitch', 'hal-1');
    expect(unlinked).not.toBeNull();
    expect((await repo.wallet(channelId, tw)).balance).toBe(0);
    expect((await repo.wallet(channelId, yt)).balance).toBe(42);
    expect(await repo.unlink(channelId, 'youtube', 'hal-yt')).toBeNull();
  });

  it('ranks, lists and searches wallets', async () => {
    const list = await repo.list(channelId, { limit: 50 });
    // Over 1,000 viewers earned above: a full page, and no cheap total.
    expect(list).toHaveLength(50);
    expect(await repo.countUpTo(channelId, undefined, 1000)).toBeNull();
    expect(await repo.countUpTo(channelId, 'halyt', 1000)).toBe(1);
    const balances = list.map((r) => r.balance);
    expect([...balances].sort((x, y) => y - x)).toEqual(balances);
    expect(await repo.rank(channelId, balances[0]!)).toBe(1);
    const found = await repo.list(channelId, { search: 'halyt', limit: 50 });
    expect(found.map((r) => r.balance)).toEqual([42]);
    expect((await repo.walletByLogin(channelId, '@HalYT'.slice(1), 'twitch'))?.identity.provider).toBe('youtube');
  });
});

describe('watch-time ticks', () => {
  it('are claimed once, retried by their claimer, taken over only when stale, never after they finish', async () => {
    const tick = new Date('2026-11-27T12:05:00Z');
    const claims = await Promise.all([repo.claimTick(channelId, tick, 'a', 60_000), repo.claimTick(channelId, tick, 'b', 60_000)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = claims[0] ? 'a' : 'b';
    const loser = winner === 'a' ? 'b' : 'a';
    expect(await repo.claimTick(channelId, tick, winner, 60_000)).toBe(true);
    expect(await repo.claimTick(channelId, tick, loser, 60_000)).toBe(false);
    // A claim older than the stale limit (0 ms here) is taken over by another instance.
    await new Promise((r) => setTimeout(r, 5));
    expect(await repo.claimTick(channelId, tick, loser, 0)).toBe(true);
    await repo.finishTick(channelId, tick, 3);
    expect(await repo.claimTick(channelId, tick, loser, 0)).toBe(false);
    expect(await repo.claimTick(channelId, tick, winner, 0)).toBe(false);
    // The next tick is a new claim.
    expect(await repo.claimTick(channelId, new Date('2026-11-27T12:10:00Z'), winner, 60_000)).toBe(true);
  });
});
