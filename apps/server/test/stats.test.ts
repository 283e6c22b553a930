/**
 * Stats: rollups from the chat log (each row counted once, across runs), viewer samples and streams, and the
 * stats API reading only the rollups.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import { activities, channelProviders, channelUsers, chatCommands, chatMessages, moderationEvents } from '../src/db/schema';
import { walletIdFor } from '../src/modules/points';
import { newId } from '../src/lib/ids';
import { bucketSeconds, StatsRollup } from '../src/modules/stats';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let owner: TestUser;
let editor: TestUser;
let mod: TestUser;
let channelId: string;
let rollup: StatsRollup;
const cp = {} as Record<'twitch' | 'kick', string>;
const base = new Date('2026-03-02T20:00:00Z');
const at = (minutes: number, seconds = 0) => new Date(base.getTime() + minutes * 60_000 + seconds * 1000);
let n = 0;

async function chat(provider: 'twitch' | 'kick', author: string, when: Date) {
  n += 1;
  await t.s.db.insert(chatMessages).values({
    id: `${provider}:m${n}`,
    channelId,
    channelProviderId: cp[provider],
    provider,
    providerMessageId: `m${n}`,
    authorId: author.toLowerCase(),
    authorLogin: author.toLowerCase(),
    authorName: author,
    authorBadges: [],
    authorRoles: { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false },
    text: 'hi',
    emotes: [],
    mentions: [],
    sentAt: when,
    receivedAt: when,
  });
}

async function activity(provider: 'twitch' | 'kick', type: string, when: Date, count: number | null = null) {
  n += 1;
  await t.s.db.insert(activities).values({
    id: `${provider}:a${n}`,
    channelId,
    channelProviderId: cp[provider],
    provider,
    providerEventId: `a${n}`,
    type,
    count,
    occurredAt: when,
  });
}

async function moderation(kind: 'ban' | 'timeout' | 'clear', when: Date) {
  n += 1;
  await t.s.db.insert(moderationEvents).values({
    id: `mod${n}`,
    channelId,
    channelProviderId: cp.twitch,
    provider: 'twitch',
    kind,
    source: 'platform',
    occurredAt: when,
  });
}

async function setLive(provider: 'twitch' | 'kick', isLive: boolean, viewerCount: number | null) {
  await t.s.db.update(channelProviders).set({ isLive, viewerCount }).where(eq(channelProviders.id, cp[provider]));
}

const rowsOf = <T = unknown>(result: unknown): T[] => (result as { rows: T[] }).rows;

const statsUrl = (from: Date, to: Date) =>
  `/api/2/channels/${channelId}/stats?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;

beforeAll(async () => {
  t = await createTestApp();
  rollup = new StatsRollup(t.s.db);
  owner = await t.createUser({ displayName: 'Owner' });
  editor = await t.createUser({ displayName: 'Eddie' });
  mod = await t.createUser({ displayName: 'Moddy' });
  channelId = (await t.s.channels.create(owner.id, 'Stats channel')).id;
  await t.s.db.insert(channelUsers).values([
    { channelId, userId: editor.id, level: AccessLevel.EDITOR },
    { channelId, userId: mod.id, level: AccessLevel.MOD },
  ]);
  for (const provider of ['twitch', 'kick'] as const) {
    cp[provider] = newId();
    await t.s.db
      .insert(channelProviders)
      .values({ id: cp[provider], channelId, provider, providerChannelId: `${provider}-1`, providerChannelName: `${provider}chan` });
  }
});
afterAll(async () => {
  await t?.close();
});

describe('stats rollups', () => {
  it('counts chat, follows, subs and moderation per connection and minute, each row once across runs', async () => {
    await chat('twitch', 'Alice', at(0, 5));
    await chat('twitch', 'Alice', at(0, 50));
    await chat('twitch', 'Bob', at(1, 10));
    await chat('kick', 'Carol', at(1, 20));
    await activity('twitch', 'follow', at(0, 30));
    await activity('twitch', 'gift', at(1, 0), 5);
    await activity('kick', 'sub', at(1, 0));
    await activity('kick', 'raid', at(1, 0), 42);
    await moderation('ban', at(1, 30));
    await moderation('clear', at(1, 30));
    expect(await rollup.rollup()).toBe(10);
    expect(await rollup.rollup()).toBe(0);
    // Rows arriving later are added to the same minutes.
    await chat('twitch', 'Alice', at(1, 40));
    expect(await rollup.rollup()).toBe(1);

    await setLive('twitch', true, 100);
    await rollup.sample(at(0, 1));
    await setLive('twitch', true, 140);
    await setLive('kick', true, 20);
    await rollup.sample(at(1, 1));

    const res = await t.inject(editor, { method: 'GET', url: statsUrl(at(0), at(60)) });
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats.bucket_seconds).toBe(60);
    expect(stats.totals).toEqual({
      messages: 5,
      follows: 1,
      subs: 6,
      moderation: 1,
      commands: 0,
      peak_viewers: 160,
      average_viewers: 130,
      minutes_live: 2,
      unique_chatters: 3,
    });
    const twitchMinute1 = stats.series.find(
      (p: { channel_provider_id: string; at: string }) => p.channel_provider_id === cp.twitch && p.at === at(1).toISOString(),
    );
    expect(twitchMinute1).toEqual({
      at: at(1).toISOString(),
      channel_provider_id: cp.twitch,
      provider: 'twitch',
      viewers: 140,
      messages: 2,
      follows: 0,
      subs: 5,
      moderation: 1,
      commands: 0,
    });
    expect(stats.top_chatters.map((c: { display_name: string; messages: number }) => [c.display_name, c.messages])).toEqual([
      ['Alice', 3],
      ['Bob', 1],
      ['Carol', 1],
    ]);
    expect(stats.platforms.find((p: { provider: string }) => p.provider === 'kick')).toMatchObject({
      messages: 1,
      subs: 1,
      peak_viewers: 20,
    });
    expect(stats.streams).toHaveLength(2);
    expect(stats.streams.find((s: { provider: string }) => s.provider === 'twitch')).toMatchObject({
      started_at: at(0, 1).toISOString(),
      ended_at: null,
      peak_viewers: 140,
    });
  });

  it('closes a stream when its connection is seen offline, and the dashboard shows the ones in progress', async () => {
    await setLive('kick', false, null);
    await rollup.sample(at(5));
    const live = await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/stats/live` });
    expect(live.statusCode).toBe(200);
    const body = live.json();
    expect(body.streams.map((s: { provider: string }) => s.provider)).toEqual(['twitch']);
    expect(body.messages_per_minute).toHaveLength(30);
    const stats = (await t.inject(editor, { method: 'GET', url: statsUrl(at(0), at(60)) })).json();
    expect(stats.streams.find((s: { provider: string }) => s.provider === 'kick')).toMatchObject({ ended_at: at(5).toISOString() });
    // Going live again starts a new stream.
    await setLive('kick', true, 5);
    await rollup.sample(at(10));
    const again = (await t.inject(editor, { method: 'GET', url: statsUrl(at(0), at(60)) })).json();
    expect(again.streams.filter((s: { provider: string }) => s.provider === 'kick')).toHaveLength(2);
  });

  it('answers the live figures per minute with zeros filled in', async () => {
    const now = new Date();
    await chat('kick', 'Dana', new Date(now.getTime() - 60_000));
    await rollup.rollup();
    const live = await t.s.stats.queries.live(channelId, now);
    expect(live.messages_per_minute.at(-2)?.messages).toBe(1);
    expect(live.messages_per_minute.at(-1)?.messages).toBe(0);
  });

  it('counts commands used per connection and minute, a retried reply once, the most used first', async () => {
    const [ping] = await t.s.db
      .insert(chatCommands)
      .values({ id: newId(), channelId, name: 'ping', responses: ['pong'] })
      .returning();
    const [dice] = await t.s.db
      .insert(chatCommands)
      .values({ id: newId(), channelId, name: 'dice', responses: ['4'] })
      .returning();
    const use = (effectId: string, commandId: string, provider: 'twitch' | 'kick', when: Date) =>
      rollup.commandUsed({ effectId, channelId, channelProviderId: cp[provider], provider, commandId, at: when });
    use('e1', ping!.id, 'twitch', at(2, 1));
    use('e1', ping!.id, 'twitch', at(2, 1)); // the same reply retried
    use('e2', ping!.id, 'twitch', at(2, 30));
    use('e3', dice!.id, 'kick', at(2, 40));
    use('e4', ping!.id, 'kick', at(3, 0));
    expect(rollup.pendingUses).toBe(4);
    await rollup.rollup();
    expect(rollup.pendingUses).toBe(0);
    await rollup.rollup();
    const stats = (await t.inject(editor, { method: 'GET', url: statsUrl(at(0), at(60)) })).json();
    expect(stats.totals.commands).toBe(4);
    const twitch2 = stats.series.find(
      (p: { channel_provider_id: string; at: string }) => p.channel_provider_id === cp.twitch && p.at === at(2).toISOString(),
    );
    expect(twitch2.commands).toBe(2);
    expect(stats.platforms.find((p: { provider: string }) => p.provider === 'kick').commands).toBe(2);
    expect(stats.top_commands).toEqual([
      { command_id: ping!.id, name: 'ping', uses: 3 },
      { command_id: dice!.id, name: 'dice', uses: 1 },
    ]);
  });

  it('rolls the points economy up from the ledger, once per committed change and never a rolled-back one', async () => {
    const repo = t.s.points.repo;
    const identity = (name: string) => ({ provider: 'twitch' as const, providerUserId: name, login: name, displayName: name });
    expect(
      await repo.earn([
        { channelId, identity: identity('alice'), amount: 100, kind: 'watch', key: 'w1' },
        { channelId, identity: identity('bob'), amount: 50, kind: 'chat', key: 'c1' },
        { channelId, identity: identity('alice'), amount: 100, kind: 'watch', key: 'w1' }, // delivered twice
      ]),
    ).toBe(2);
    const alice = walletIdFor(channelId, 'twitch', 'alice');
    const bob = walletIdFor(channelId, 'twitch', 'bob');
    await repo.give({ channelId, from: alice, to: bob, amount: 30, key: 'g1', noteOut: 'to bob', noteIn: 'from alice' });
    await repo.change({ channelId, walletId: bob, delta: -20, kind: 'command', key: 'cmd1' });
    await repo.change({ channelId, walletId: bob, delta: 5, kind: 'adjust', key: 'adj1' });
    await repo.play({ channelId, walletId: alice, stake: 10, payout: 0, kind: 'slots', key: 's1', note: 'lost', data: {}, lossCap: null });
    await repo.play({
      channelId,
      walletId: alice,
      stake: 10,
      payout: 25,
      kind: 'roulette',
      key: 'r1',
      note: 'won',
      data: {},
      lossCap: null,
    });
    // A change recorded and then rolled back is never counted.
    await expect(
      t.s.db.transaction(async (tx) => {
        await repo.ledgerOps.record(tx, { channelId, walletId: bob, delta: 1_000, kind: 'watch', key: 'rolled-back' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await rollup.rollup();
    await rollup.rollup();
    const now = new Date();
    const from = new Date(now.getTime() - 3_600_000);
    const stats = (await t.inject(editor, { method: 'GET', url: statsUrl(from, new Date(now.getTime() + 120_000)) })).json();
    expect(stats.points_totals).toEqual({ earned: 150, spent: 20, won: 15, lost: 10, given: 30, adjusted: 5 });
    expect(stats.points_series.reduce((a: number, p: { earned: number }) => a + p.earned, 0)).toBe(150);
  });

  it('is for Editors; a bad range is refused with the field at fault', async () => {
    expect((await t.inject(mod, { method: 'GET', url: statsUrl(at(0), at(60)) })).statusCode).toBe(403);
    const backwards = await t.inject(editor, { method: 'GET', url: statsUrl(at(60), at(0)) });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fields).toEqual({ to: 'The range must end after it starts' });
    const tooLong = await t.inject(editor, { method: 'GET', url: statsUrl(at(0), at(60 * 24 * 100)) });
    expect(tooLong.statusCode).toBe(400);
    const garbage = await t.inject(editor, { method: 'GET', url: `/api/2/channels/${channelId}/stats?from=yesterday&to=now` });
    expect(garbage.statusCode).toBe(400);
  });

  it('picks the narrowest bucket that keeps a series within 300 points', () => {
    expect(bucketSeconds(at(0), at(60))).toBe(60);
    expect(bucketSeconds(at(0), at(60 * 24))).toBe(300);
    expect(bucketSeconds(at(0), at(60 * 24 * 7))).toBe(3600);
    expect(bucketSeconds(at(0), at(60 * 24 * 30))).toBe(3 * 3600);
    expect(bucketSeconds(at(0), at(60 * 24 * 90))).toBe(86_400);
  });

  it('with several instances, samples viewers only for the channels this instance holds', async () => {
    const other = (await t.s.channels.create(owner.id, 'Held elsewhere')).id;
    const otherCp = newId();
    await t.s.db.insert(channelProviders).values({
      id: otherCp,
      channelId: other,
      provider: 'twitch',
      providerChannelId: 'twitch-2',
      providerChannelName: 'otherchan',
      isLive: true,
      viewerCount: 77,
    });
    await setLive('twitch', true, 55);
    const rowsAt = async (minute: Date) =>
      rowsOf<{ channel_id: string; viewers: number }>(
        await t.s.db.execute(
          sql`SELECT channel_id, viewers FROM stats_minutes
              WHERE minute = ${minute.toISOString()} AND channel_provider_id IN (${cp.twitch}, ${otherCp}) AND viewers IS NOT NULL`,
        ),
      );
    const openStream = async (id: string) =>
      rowsOf(await t.s.db.execute(sql`SELECT 1 FROM stats_streams WHERE channel_provider_id = ${id} AND ended_at IS NULL`)).length;
    await rollup.sample(at(200, 1), new Set([channelId]));
    expect(await rowsAt(at(200))).toEqual([{ channel_id: channelId, viewers: 55 }]);
    expect(await openStream(otherCp)).toBe(0);
    // The other instance samples its own; going offline here is seen only by this channel's holder.
    await rollup.sample(at(201, 1), new Set([other]));
    expect(await rowsAt(at(201))).toEqual([{ channel_id: other, viewers: 77 }]);
    await setLive('twitch', false, null);
    await rollup.sample(at(202, 1), new Set([other]));
    expect(await openStream(cp.twitch)).toBe(1);
    await rollup.sample(at(202, 2), new Set([channelId]));
    expect(await openStream(cp.twitch)).toBe(0);
    expect(await openStream(otherCp)).toBe(1);
  });
});
