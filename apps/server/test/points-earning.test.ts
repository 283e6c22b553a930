/**
 * Set-based earning on a real database (PGlite here, PostgreSQL under
 * `npx tsx scripts/with-postgres.ts npx vitest run --project server test/points-earning.test.ts`):
 * `earnIn` inside a caller's transaction commits or rolls back with it, `earn` alone is one statement that makes the
 * identities and wallets it needs (the derived wallet id in SQL equals `walletIdFor`), a key earns once (also twice
 * in one batch, and across concurrent batches), banned viewers earn nothing, the per-minute message
 * cap holds across two instances, and — a property over any events, duplicates, banned viewers,
 * links and interleavings — every wallet's balance equals the sum of its ledger rows and every event
 * is counted exactly once.
 */
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import type { ChatMessage } from '@greenroom/contracts/api/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPointSettings } from '@greenroom/contracts/api/points';
import type { Database } from '../src/db/client';
import { rowsOf } from '../src/db/rows';
import { channelProviders, channels, pipelineEffects } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import {
  DbPointsRepository,
  EARN_EFFECT,
  MessageEarnings,
  createEarnHandler,
  earnEntryOf,
  identityKey,
  messageEarnKey,
  type EarnEntry,
  type IdentityInput,
  walletIdFor,
  walletIdSql,
} from '../src/modules/points';
import { ChatLogStore, type WriteBatch } from '../src/pipeline/chat-log-store';
import { activity, chatMessage } from './chat-fixtures';
import { freshDatabase } from './helper';

let database: Database;
let drop: () => Promise<void>;
let repo: DbPointsRepository;

const viewer = (provider: IdentityInput['provider'], id: string): IdentityInput => ({
  provider,
  providerUserId: id,
  login: id.toLowerCase(),
  displayName: id,
});

async function newChannel(): Promise<string> {
  const id = newId();
  await database.db.insert(channels).values({ id, displayName: 'Chan' });
  return id;
}

/** Wallets whose balance differs from the sum of their ledger rows (none, ever). */
async function inconsistentWallets(channelId: string): Promise<number> {
  const result = (await database.db.execute(sql`
    SELECT count(*)::int AS n FROM point_wallets w
    WHERE w.channel_id = ${channelId}
      AND w.balance <> (SELECT coalesce(sum(l.delta), 0) FROM point_ledger l WHERE l.wallet_id = w.id)`)) as { rows: { n: number }[] };
  return Number(result.rows[0]!.n);
}

async function ledgerKeys(channelId: string): Promise<string[]> {
  const result = (await database.db.execute(sql`
    SELECT l.idempotency_key AS key FROM point_ledger l JOIN point_wallets w ON w.id = l.wallet_id
    WHERE w.channel_id = ${channelId} AND l.kind <> 'link'`)) as { rows: { key: string }[] };
  return result.rows.map((r) => r.key);
}

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  repo = new DbPointsRepository(database.db);
});
afterAll(async () => {
  await database.close();
  await drop();
});

describe('earning in a caller transaction (earnIn)', () => {
  it('commits with the transaction and leaves nothing when it rolls back; the identity made in the rolled-back one is made again', async () => {
    const channelId = await newChannel();
    const ann = viewer('twitch', 'Ann');
    const entries: EarnEntry[] = [
      { channelId, identity: ann, amount: 3, kind: 'chat', key: 'm1' },
      { channelId, identity: ann, amount: 4, kind: 'chat', key: 'm2' },
    ];
    await expect(
      database.db.transaction(async (tx) => {
        expect(await repo.earnIn(tx, entries)).toBe(2);
        throw new Error('the ingest failed');
      }),
    ).rejects.toThrow('the ingest failed');
    expect(await repo.findWallet(channelId, ann)).toBeNull();
    expect(await ledgerKeys(channelId)).toEqual([]);

    // The repository remembered Ann's identity from the rolled-back transaction: the retry still creates it.
    await database.db.transaction(async (tx) => {
      expect(await repo.earnIn(tx, entries)).toBe(2);
    });
    const w = await repo.wallet(channelId, ann);
    expect(w.balance).toBe(7);
    expect(await inconsistentWallets(channelId)).toBe(0);
  });

  it('earn on its own: one statement makes the identities and wallets it needs, keeps names current, counts every entry once', async () => {
    const channelId = await newChannel();
    const ann = viewer('twitch', 'Ann');
    const bob = viewer('kick', 'Bob');
    expect(await repo.earn([{ channelId, identity: bob, amount: 1, kind: 'chat', key: 'b0' }])).toBe(1);
    // Bob renamed on his platform: the batch's latest names are stored.
    const renamed = { ...bob, login: 'bobby', displayName: 'Bobby' };
    const batch: EarnEntry[] = [
      { channelId, identity: bob, amount: 2, kind: 'chat', key: 'b1' },
      { channelId, identity: ann, amount: 3, kind: 'chat', key: 'a1' },
      { channelId, identity: renamed, amount: 1, kind: 'chat', key: 'b2' },
      { channelId, identity: ann, amount: 4, kind: 'chat', key: 'a2' },
    ];
    expect(await repo.earn(batch)).toBe(4);
    expect(await repo.earn(batch)).toBe(0);
    const stored = await repo.identity(channelId, 'kick', 'Bob');
    expect([stored?.login, stored?.displayName]).toEqual(['bobby', 'Bobby']);
    expect((await repo.wallet(channelId, ann)).balance).toBe(7);
    expect((await repo.wallet(channelId, renamed)).balance).toBe(4);
    // A new identity's wallet is the derived one, made in the same statement with the name it came with.
    const annWallet = await repo.wallet(channelId, ann);
    expect(annWallet.id).toBe(walletIdFor(channelId, 'twitch', 'Ann'));
    expect(annWallet.displayName).toBe('Ann');
    expect((await ledgerKeys(channelId)).sort()).toEqual(['a1', 'a2', 'b0', 'b1', 'b2']);
    expect(await inconsistentWallets(channelId)).toBe(0);
  });

  it('derives the wallet of a new identity in SQL exactly as walletIdFor does (any text)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string({ minLength: 1 }), fc.string(), async (c, p, u) => {
        // The database's text holds no NUL (the platforms' ids never do); anything else goes.
        const [channelId, provider, userId] = [c, p, u].map((x) => x.split('\u0000').join('') || 'x');
        const result = (await database.db.execute(
          sql`SELECT ${sql.raw(walletIdSql('t'))} AS id FROM (SELECT ${channelId}::text AS channel_id, ${provider}::text AS provider, ${userId}::text AS provider_user_id) t`,
        )) as { rows: { id: string }[] };
        expect(result.rows[0]!.id).toBe(walletIdFor(channelId!, provider!, userId!));
      }),
      { numRuns: 50 },
    );
  });

  it('counts a key once: twice in one batch, again in a later batch, in concurrent batches; ignores amounts of 0 or less', async () => {
    const channelId = await newChannel();
    const bob = viewer('kick', 'Bob');
    const e = (key: string, amount = 5): EarnEntry => ({ channelId, identity: bob, amount, kind: 'watch', key });
    expect(await repo.earn([e('t1'), e('t1'), e('t2'), e('z', 0), e('neg', -9)])).toBe(2);
    expect(await repo.earn([e('t1'), e('t2')])).toBe(0);
    const applied = await Promise.all([repo.earn([e('t3'), e('t4')]), repo.earn([e('t4'), e('t3')]), repo.earn([e('t3')])]);
    expect(applied.reduce((a, b) => a + b, 0)).toBe(2);
    expect((await repo.wallet(channelId, bob)).balance).toBe(20);
    expect((await ledgerKeys(channelId)).sort()).toEqual(['t1', 't2', 't3', 't4']);
    expect(await inconsistentWallets(channelId)).toBe(0);
  });

  // PostgreSQL only (PGlite runs one statement at a time): two batches carrying the same redelivered
  // events in opposite orders take their keys in one order, so neither waits on the other in a circle.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('two batches with the same keys in opposite orders do not deadlock', async () => {
    const channelId = await newChannel();
    const bob = viewer('kick', 'Bob');
    const e = (key: string): EarnEntry => ({ channelId, identity: bob, amount: 5, kind: 'chat', key });
    await repo.wallet(channelId, bob);
    let second: Promise<number> | undefined;
    await database.db.transaction(async (tx) => {
      // This transaction finds a deadlock at once (the other waits the default second), so it is the one refused.
      await tx.execute(sql`SET LOCAL deadlock_timeout = '10ms'`);
      await repo.earnIn(tx, [e('k1')]);
      second = repo.earn([e('k2'), e('k1')]);
      // Wait until the second batch waits on this transaction's k1.
      for (let i = 0; ; i++) {
        const [waiting] = rowsOf<{ n: number }>(
          await database.db.execute(
            sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          ),
        );
        if (Number(waiting!.n) > 0) break;
        if (i > 500) throw new Error('the second batch never waited');
        await new Promise((r) => setTimeout(r, 10));
      }
      await repo.earnIn(tx, [e('k2')]);
    });
    expect(await second).toBe(0);
    expect((await ledgerKeys(channelId)).sort()).toEqual(['k1', 'k2']);
    expect((await repo.wallet(channelId, bob)).balance).toBe(10);
  });

  it('the per-minute message cap holds across two instances (or a restart): the cap slot is in the key', async () => {
    const channelId = await newChannel();
    const settings = { ...defaultPointSettings, message_points: 2, message_points_cap_per_minute: 5 };
    const cid = viewer('youtube', 'Cid');
    const key = identityKey(cid.provider, cid.providerUserId);
    const instances = [new MessageEarnings(), new MessageEarnings()];
    const minute = 29_000_000 * 60_000;
    const entries: EarnEntry[] = [];
    // Ten messages in one minute, alternating between the two instances; then one in the next minute.
    for (let i = 0; i < 10; i++) {
      const earned = instances[i % 2]!.earn(key, minute + i * 1000, settings);
      if (earned.amount > 0)
        entries.push({
          channelId,
          identity: cid,
          amount: earned.amount,
          kind: 'chat',
          key: messageEarnKey(key, earned.minute, earned.slot),
        });
    }
    const next = instances[0]!.earn(key, minute + 60_000, settings);
    entries.push({ channelId, identity: cid, amount: next.amount, kind: 'chat', key: messageEarnKey(key, next.minute, next.slot) });
    await Promise.all([repo.earn(entries.slice(0, 3)), repo.earn(entries.slice(3))]);
    // Slots 0, 1, 2 of the first minute (2 + 2 + 1 = the cap of 5), and 2 in the next.
    expect((await repo.wallet(channelId, cid)).balance).toBe(7);
    expect(await inconsistentWallets(channelId)).toBe(0);
  });

  it("turns a points.earn effect into the entry the batcher or an ingest transaction applies (the message's key, else the effect id)", () => {
    const payload = { provider: 'twitch', provider_user_id: '7', login: 'dee', display_name: 'Dee', amount: 3, kind: 'chat', key: 'msg:k' };
    const entry = earnEntryOf({ id: 'eff-1', kind: 'points.earn', channelId: 'c1', payload });
    expect(entry).toEqual({
      channelId: 'c1',
      identity: { provider: 'twitch', providerUserId: '7', login: 'dee', displayName: 'Dee' },
      amount: 3,
      kind: 'chat',
      key: 'msg:k',
    });
    expect(
      earnEntryOf({ id: 'eff-2', kind: 'points.earn', channelId: 'c1', payload: { ...payload, key: undefined, kind: 'follow' } }).key,
    ).toBe('eff-2');
  });
});

describe('credited in the statement that stores the chat (ChatLogStore + the earn handler)', () => {
  it('credits messages and activities stored now, once: a redelivered batch earns nothing; a batch written row by row sends its credits to the outbox', async () => {
    const channelId = await newChannel();
    const cp = newId();
    await database.db
      .insert(channelProviders)
      .values({ id: cp, channelId, provider: 'twitch', providerChannelId: `tw-${cp}`, providerChannelName: 'tw' });
    const store = new ChatLogStore(database.db);
    const batched: EarnEntry[] = [];
    store.applyInStatement(createEarnHandler({ add: async (e) => void batched.push(e) }));
    const dee = viewer('twitch', 'Dee');
    const earn = (sourceId: string, amount: number, key?: string) => ({
      sourceId,
      effect: {
        kind: EARN_EFFECT,
        channelId,
        payload: {
          provider: dee.provider,
          provider_user_id: dee.providerUserId,
          login: dee.login,
          display_name: dee.displayName,
          amount,
          kind: key ? 'chat' : 'follow',
          ...(key ? { key } : {}),
        },
      },
    });
    const author = { ...chatMessage(0).author, provider_user_id: dee.providerUserId, login: dee.login, display_name: dee.displayName };
    const message = (i: number) =>
      chatMessage(i, {
        id: `twitch:e${cp}${i}`,
        provider_message_id: `e${cp}${i}`,
        channel_id: channelId,
        channel_provider_id: cp,
        author,
      });
    const follow = activity(0, {
      id: `twitch:f${cp}`,
      channel_id: channelId,
      channel_provider_id: cp,
      provider_event_id: `f${cp}`,
      viewer: { provider_user_id: dee.providerUserId, login: dee.login, display_name: dee.displayName },
    });
    const batch = (...ms: ChatMessage[]): WriteBatch => ({
      messages: ms,
      moderation: [],
      activities: [follow],
      gaps: [],
      states: [],
      effects: [...ms.map((m) => earn(m.id, 2, `k-${m.id}`)), earn(follow.id, 50)],
    });
    const first = await store.write(batch(message(1), message(2)));
    expect(first.messages.size).toBe(2);
    expect((await repo.wallet(channelId, dee)).balance).toBe(54);
    // Redelivered (with one new message): only the new message earns.
    await store.write(batch(message(1), message(2), message(3)));
    expect((await repo.wallet(channelId, dee)).balance).toBe(56);
    expect(await ledgerKeys(channelId)).toHaveLength(4);
    // Chat alone: one statement without a transaction around it; twice, credited once.
    const chatOnly: WriteBatch = { ...batch(message(5)), activities: [], effects: [earn(message(5).id, 2, 'k-5')] };
    await store.write(chatOnly);
    await store.write(chatOnly);
    expect((await repo.wallet(channelId, dee)).balance).toBe(58);
    // Row by row (after a batch failed on its data): the credits go to the outbox, nothing is applied in the statement.
    const isolated = await store.write(batch(message(4)), { isolate: true });
    expect(isolated.effects).toBe(1);
    expect((await repo.wallet(channelId, dee)).balance).toBe(58);
    const stored = await database.db.select().from(pipelineEffects).where(eq(pipelineEffects.channelId, channelId));
    expect(stored.map((e) => e.kind)).toEqual([EARN_EFFECT]);
    expect(await inconsistentWallets(channelId)).toBe(0);
  });
});

describe('property: any events, duplicates, banned viewers, links and interleavings', () => {
  const providers = ['twitch', 'youtube', 'kick'] as const;
  /** An event is fixed by its key (a redelivery is the same event), so which copy wins never matters. */
  const eventArb = fc.record({
    key: fc.integer({ min: 0, max: 59 }),
    viewer: fc.integer({ min: 0, max: 5 }),
    provider: fc.integer({ min: 0, max: 2 }),
    amount: fc.integer({ min: -2, max: 50 }),
  });
  const runArb = fc.record({
    events: fc.array(eventArb, { minLength: 1, maxLength: 80 }),
    // Each event is delivered 1–3 times, in any order, in batches of any size, batches at once.
    copies: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 80, maxLength: 80 }),
    order: fc.array(fc.nat(), { minLength: 240, maxLength: 240 }),
    cuts: fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 20 }),
    banned: fc.subarray([0, 1, 2, 3, 4, 5], { maxLength: 2 }),
    link: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
  });

  it('balances equal the sum of ledger rows, and each event counts exactly once (banned viewers never)', async () => {
    await fc.assert(
      fc.asyncProperty(runArb, async (run) => {
        const channelId = await newChannel();
        const identityOf = (v: number, p: number) => viewer(providers[p]!, `v${v}-${providers[p]}`);
        // Canonical events: the first occurrence of a key decides its content.
        const byKey = new Map<number, (typeof run.events)[number]>();
        for (const e of run.events) if (!byKey.has(e.key)) byKey.set(e.key, e);
        const deliveries: EarnEntry[] = [];
        run.events.forEach((e, i) => {
          const c = byKey.get(e.key)!;
          for (let k = 0; k < run.copies[i]!; k++)
            deliveries.push({ channelId, identity: identityOf(c.viewer, c.provider), amount: c.amount, kind: 'chat', key: `e${e.key}` });
        });
        // Shuffle by the drawn order.
        const shuffled = deliveries
          .map((d, i) => ({ d, o: run.order[i % run.order.length]! * 1000 + i }))
          .sort((a, b) => a.o - b.o)
          .map((x) => x.d);
        const batches: EarnEntry[][] = [];
        for (let at = 0, c = 0; at < shuffled.length; c++) {
          const size = run.cuts[c % run.cuts.length]!;
          batches.push(shuffled.slice(at, at + size));
          at += size;
        }
        for (const b of run.banned) for (let p = 0; p < 3; p++) await repo.setBanned(channelId, identityOf(b, p), true);
        // A link joining a viewer's Twitch and YouTube identities while the batches run.
        const linking = async () => {
          if (run.link === null) return;
          const owner = identityOf(run.link, 0);
          const other = identityOf(run.link, 1);
          await repo.wallet(channelId, owner);
          await repo.wallet(channelId, other);
          const code = `L${run.link}${Math.random().toString(36).slice(2, 8)}`.toUpperCase();
          await repo.createLinkCode(channelId, owner, code, new Date(Date.now() + 600_000));
          await repo.useLinkCode(channelId, code, other, new Date());
          await repo.join(channelId, code, owner, other);
        };
        await Promise.all([...batches.map((b) => repo.earn(b)), linking()]);

        expect(await inconsistentWallets(channelId)).toBe(0);
        const keys = await ledgerKeys(channelId);
        expect(new Set(keys).size).toBe(keys.length);
        const expected = [...byKey.entries()]
          .filter(([, e]) => e.amount > 0 && !run.banned.includes(e.viewer))
          .map(([k]) => `e${k}`)
          .sort();
        expect(keys.filter((k) => k.startsWith('e')).sort()).toEqual(expected);
        // Each viewer's identities together hold exactly their events' points.
        for (let v = 0; v < 6; v++) {
          const want = [...byKey.values()]
            .filter((e) => e.viewer === v && e.amount > 0 && !run.banned.includes(v))
            .reduce((s, e) => s + e.amount, 0);
          const wallets = new Map<string, number>();
          for (let p = 0; p < 3; p++) {
            const w = await repo.findWallet(channelId, identityOf(v, p));
            if (w) wallets.set(w.id, w.balance);
          }
          expect([...wallets.values()].reduce((s, b) => s + b, 0)).toBe(want);
        }
      }),
      { numRuns: 25 },
    );
  });
});
