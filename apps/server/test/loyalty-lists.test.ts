/**
 * The loyalty lists at scale, on a real database (PGlite here, PostgreSQL under `npm run test:pg`):
 * the leaderboard and a giveaway's entries are keyset pages read in the order of an index that
 * matches exactly (no sort of the whole list, checked with EXPLAIN), every row comes exactly once
 * however the pages fall (ties included), ranks follow from a row's place, and a total comes only
 * where it is cheap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import { channels, giveawayEntries, giveaways } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { cryptoRandom } from '../src/lib/random';
import { GiveawayRepository } from '../src/modules/giveaways';
import { DbPointsRepository, PointsLedger, PointsService, PointsState, walletIdFor, type IdentityInput } from '../src/modules/points';
import { freshDatabase } from './helper';

let database: Database;
let drop: () => Promise<void>;
let repo: DbPointsRepository;
let service: PointsService;
let giveawayRepo: GiveawayRepository;
let channelId: string;

const viewer = (i: number): IdentityInput => ({
  provider: i % 2 === 0 ? 'twitch' : 'kick',
  providerUserId: `v${i}`,
  login: `viewer${i}`,
  displayName: `Viewer${i}`,
});

/**
 * The plan of a statement, as text, with sequential and bitmap scans priced out (the test's tables are tiny, where reading
 * everything wins; a channel's list at scale is read through its index).
 */
async function plan(statement: ReturnType<typeof sql>): Promise<string> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
    const result = (await tx.execute(sql`EXPLAIN ${statement}`)) as { rows: Record<string, string>[] };
    return result.rows.map((r) => Object.values(r)[0]).join('\n');
  });
}

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  repo = new DbPointsRepository(database.db);
  service = new PointsService({
    repo,
    state: new PointsState(),
    audit: { record: async () => {} },
    chat: { say: async () => {} },
    random: cryptoRandom,
  });
  giveawayRepo = new GiveawayRepository(database.db, new PointsLedger());
  channelId = newId();
  await database.db.insert(channels).values({ id: channelId, displayName: 'Chan' });
  // 40 viewers with balances 1..8 (five of each: ties across page boundaries).
  await repo.earn(
    Array.from({ length: 40 }, (_, i) => ({ channelId, identity: viewer(i), amount: (i % 8) + 1, kind: 'chat' as const, key: `k${i}` })),
  );
});
afterAll(async () => {
  await database.close();
  await drop();
});

describe('the leaderboard', () => {
  it('walks every wallet once, highest first, ranks from places, total on the first page only', async () => {
    const seen: { id: string; balance: number; rank: number }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await service.list(channelId, { per_page: 7, ...(cursor ? { cursor } : {}) });
      if (pages === 0) expect(page.total).toBe(40);
      else expect(page.total).toBeUndefined();
      seen.push(...page.records.map((r) => ({ id: r.id, balance: r.balance, rank: r.rank })));
      cursor = page.cursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(6);
    expect(new Set(seen.map((r) => r.id)).size).toBe(40);
    expect(seen.map((r) => r.balance)).toEqual([...seen.map((r) => r.balance)].sort((a, b) => b - a));
    // Equal balances share the rank of the first of them: 8 → 1, 7 → 6, … 1 → 36.
    for (const r of seen) expect(r.rank).toBe(1 + 5 * (8 - r.balance));
    // Ties are ordered by id, so pages never repeat or skip a row.
    for (let i = 1; i < seen.length; i++) if (seen[i]!.balance === seen[i - 1]!.balance) expect(seen[i]!.id > seen[i - 1]!.id).toBe(true);
  });

  it('searches, and a single page gives its total', async () => {
    const page = await service.list(channelId, { per_page: 25, search: 'viewer3' });
    // viewer3, viewer30 … viewer39
    expect(page.records.map((r) => r.display_name).sort()).toEqual(
      ['Viewer3', ...Array.from({ length: 10 }, (_, i) => `Viewer3${i}`)].sort(),
    );
    expect(page.total).toBe(11);
    expect(page.cursor).toBeNull();
    for (const r of page.records) expect(r.rank).toBe(1 + 5 * (8 - r.balance));
  });

  it('gives no total when there are more than 1,000 wallets', async () => {
    const other = newId();
    await database.db.insert(channels).values({ id: other, displayName: 'Big' });
    await repo.earn(
      Array.from({ length: 1001 }, (_, i) => ({ channelId: other, identity: viewer(i), amount: 1, kind: 'chat' as const, key: `b${i}` })),
    );
    const page = await service.list(other, { per_page: 10 });
    expect(page.records).toHaveLength(10);
    expect(page.total).toBeUndefined();
    expect(page.cursor).not.toBeNull();
  });

  it('refuses a cursor it did not make', async () => {
    await expect(service.list(channelId, { per_page: 5, cursor: 'nonsense' })).rejects.toMatchObject({ status: 400 });
  });

  it('reads a deep page from the rank index, without sorting the board', async () => {
    const text = await plan(sql`
      SELECT * FROM point_wallets WHERE channel_id = ${channelId} AND balance <= 5 AND (balance < 5 OR id > 'w_')
      ORDER BY balance DESC, id ASC LIMIT 26`);
    expect(text).toContain('point_wallets_rank');
    expect(text).not.toMatch(/Sort/u);
  });
});

describe("a giveaway's entries", () => {
  it('walks every entry once, most tickets first, then earliest to the microsecond, then by wallet', async () => {
    const giveawayId = newId();
    await database.db.insert(giveaways).values({
      id: giveawayId,
      channelId,
      title: 'Keyboard',
      entryMode: 'tickets',
      keyword: '!enter',
      ticketCost: 10,
      maxTickets: 5,
      minLevel: 0,
      subLuck: 2,
      winners: 1,
      durationSeconds: 0,
      claimSeconds: 0,
      status: 'open',
      createdBy: 'u',
      entryCount: 40,
    });
    // Tickets 1..3; entry times a microsecond apart, with runs of equal times (ties broken by wallet).
    const at = (i: number) => sql`'2026-01-01T00:00:00Z'::timestamptz + ${Math.floor(i / 3)} * interval '1 microsecond'`;
    for (let i = 0; i < 40; i++) {
      const who = viewer(i);
      await database.db.insert(giveawayEntries).values({
        giveawayId,
        walletId: walletIdFor(channelId, who.provider, who.providerUserId),
        provider: who.provider,
        providerUserId: who.providerUserId,
        displayName: who.displayName,
        tickets: (i % 3) + 1,
        subscriber: i % 4 === 0,
        enteredAt: at(i),
      });
    }
    const seen: { wallet: string; tickets: number; at: string }[] = [];
    let after: { tickets: number; enteredAt: string; walletId: string } | undefined;
    for (;;) {
      const page = await giveawayRepo.entries(giveawayId, { ...(after ? { after } : {}), limit: 6 });
      seen.push(...page.map((e) => ({ wallet: e.walletId, tickets: e.tickets, at: e.enteredAtKey })));
      const last = page.at(-1);
      if (page.length < 6 || !last) break;
      after = { tickets: last.tickets, enteredAt: last.enteredAtKey, walletId: last.walletId };
    }
    expect(seen).toHaveLength(40);
    expect(new Set(seen.map((e) => e.wallet)).size).toBe(40);
    const order = [...seen].sort((a, b) => b.tickets - a.tickets || a.at.localeCompare(b.at) || a.wallet.localeCompare(b.wallet));
    expect(seen).toEqual(order);
    // Every weight ×10 summed: tickets × 10, subscribers × 20 (luck 2).
    let expected = 0;
    for (let i = 0; i < 40; i++) expected += ((i % 3) + 1) * (i % 4 === 0 ? 20 : 10);
    expect(await giveawayRepo.totalWeight10(giveawayId, 20)).toBe(expected);

    const text = await plan(sql`
      SELECT * FROM giveaway_entries WHERE giveaway_id = ${giveawayId} AND tickets <= 2
        AND (tickets < 2 OR (entered_at, wallet_id) > ('2026-01-01T00:00:00.000003Z'::timestamptz, 'w_'))
      ORDER BY tickets DESC, entered_at ASC, wallet_id ASC LIMIT 101`);
    expect(text).toContain('giveaway_entries_order');
    expect(text).not.toMatch(/Sort/u);
  });
});

describe("a queue's recently picked", () => {
  it('are read newest first from their own index, without sorting the history', async () => {
    const text = await plan(sql`
      SELECT * FROM queue_entries WHERE queue_id = 'q' AND status = 'picked' ORDER BY ended_at DESC LIMIT 20`);
    expect(text).toContain('queue_entries_picked');
    expect(text).not.toMatch(/Sort/u);
  });
});
