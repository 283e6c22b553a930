import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import { channelProviders, channelUsers, chatMessages, viewers } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import type { IngestSource } from '../src/pipeline/ingest';
import type { PlatformEvent } from '../src/platforms/port';
import { platformChat } from './chat-fixtures';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let owner: TestUser;
let mod: TestUser;
let sub: TestUser;
let publicMember: TestUser;
let stranger: TestUser;
let channelId: string;
const sources = {} as Record<'twitch' | 'kick' | 'youtube', IngestSource>;

async function ingest(provider: keyof typeof sources, event: PlatformEvent) {
  await t.s.ingest.submit(sources[provider], [event]);
}
async function persisted() {
  await t.s.ingest.flush();
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Owner' });
  mod = await t.createUser({ displayName: 'Moddy' });
  sub = await t.createUser({ displayName: 'Subby' });
  publicMember = await t.createUser({ displayName: 'Pubby' });
  stranger = await t.createUser({ displayName: 'Stranger' });
  channelId = (await t.s.channels.create(owner.id, 'Chat channel')).id;
  await t.s.db.insert(channelUsers).values([
    { channelId, userId: mod.id, level: AccessLevel.MOD },
    { channelId, userId: sub.id, level: AccessLevel.SUB },
    { channelId, userId: publicMember.id, level: AccessLevel.PUBLIC },
  ]);
  for (const provider of ['twitch', 'kick', 'youtube'] as const) {
    const id = newId();
    await t.s.db
      .insert(channelProviders)
      .values({ id, channelId, provider, providerChannelId: `${provider}-chan`, providerChannelName: `${provider}chan` });
    sources[provider] = { channelId, channelProviderId: id, provider, providerChannelId: `${provider}-chan` };
  }
  const alice = { id: 'a1', name: 'Alice' };
  const bob = { id: 'b1', name: 'Bob' };
  await ingest('twitch', platformChat('t1', 'hello from twitch', alice));
  await ingest('kick', platformChat('k1', 'hello from kick', bob));
  await ingest('youtube', platformChat('y1', '100% real_deal', { id: 'UCx', name: 'Yuki' }));
  await ingest('twitch', platformChat('t2', 'second from alice', alice));
  await ingest('twitch', platformChat('t2', 'second from alice (duplicate delivery)', alice));
  await ingest('twitch', platformChat('t3', 'spam spam', { id: 'sp', name: 'Spammer' }));
  await ingest('twitch', {
    kind: 'activity',
    activity: {
      provider_event_id: 'raid-1',
      type: 'raid',
      viewer: { provider_user_id: 'r1', login: 'raider', display_name: 'Raider' },
      tier: null,
      months: null,
      count: 42,
      amount: null,
      message: null,
      occurred_at: new Date().toISOString(),
    },
  });
  await ingest('kick', {
    kind: 'activity',
    activity: {
      provider_event_id: 'sub-1',
      type: 'sub',
      viewer: { provider_user_id: 'b1', login: 'bob', display_name: 'Bob' },
      tier: '1000',
      months: 1,
      count: null,
      amount: null,
      message: null,
      occurred_at: new Date().toISOString(),
    },
  });
  await persisted();
});
afterAll(async () => {
  await t?.close();
});

describe('chat log through the ingest pipeline', () => {
  it('persists every message once, newest first, with a cursor for older pages', async () => {
    const res = await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?limit=2` });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.records.map((m: { id: string }) => m.id)).toEqual(['twitch:t3', 'twitch:t2']);
    expect(page.records[1].text).toBe('second from alice');
    const older = (
      await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?limit=10&before=${page.cursor}` })
    ).json();
    expect(older.records.map((m: { id: string }) => m.id)).toEqual(['youtube:y1', 'kick:k1', 'twitch:t1']);
    expect(older.cursor).toBeNull();
    expect(older.records[2]).toMatchObject({
      channel_id: channelId,
      provider: 'twitch',
      author: { display_name: 'Alice', color: '#ff0000', roles: { subscriber: true } },
      deleted: false,
    });
  });

  it('filters by platform and searches case-insensitively with % and _ taken literally', async () => {
    const kick = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?provider=kick` })).json();
    expect(kick.records.map((m: { id: string }) => m.id)).toEqual(['kick:k1']);
    const pct = (
      await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?q=${encodeURIComponent('0% REAL_')}` })
    ).json();
    expect(pct.records.map((m: { id: string }) => m.id)).toEqual(['youtube:y1']);
    const underscore = (
      await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?q=${encodeURIComponent('hello_')}` })
    ).json();
    expect(underscore.records).toEqual([]);
    const bad = await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?before=abc` });
    expect(bad.statusCode).toBe(400);
  });

  it('counts viewers atomically in batches (a duplicate delivery does not count)', async () => {
    const rows = await t.s.db.select().from(viewers);
    const alice = rows.find((r) => r.providerUserId === 'a1')!;
    expect(alice).toMatchObject({ provider: 'twitch', displayName: 'Alice', messageCount: 2 });
    await ingest('twitch', platformChat('t4', 'third', { id: 'a1', name: 'AliceRenamed' }));
    await persisted();
    const [after] = (await t.s.db.select().from(viewers)).filter((r) => r.providerUserId === 'a1');
    expect(after).toMatchObject({ messageCount: 3, displayName: 'AliceRenamed' });
    expect(after!.firstSeenAt.getTime()).toBe(alice.firstSeenAt.getTime());
  });

  it('marks a platform-side deletion and a ban (the target’s recent messages) as deleted', async () => {
    const at = new Date().toISOString();
    await ingest('kick', {
      kind: 'moderation',
      event: {
        kind: 'delete',
        target: null,
        provider_message_id: 'k1',
        duration_seconds: null,
        reason: null,
        moderator: null,
        source: 'platform',
        occurred_at: at,
      },
    });
    await ingest('twitch', {
      kind: 'moderation',
      event: {
        kind: 'ban',
        target: { provider_user_id: 'sp', display_name: 'Spammer' },
        provider_message_id: null,
        duration_seconds: null,
        reason: 'spam',
        moderator: { kind: 'platform', user_id: null, display_name: 'TwitchMod' },
        source: 'platform',
        occurred_at: at,
      },
    });
    await persisted();
    const all = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages` })).json();
    const deleted = all.records
      .filter((m: { deleted: boolean }) => m.deleted)
      .map((m: { id: string }) => m.id)
      .sort();
    expect(deleted).toEqual(['kick:k1', 'twitch:t3']);
  });

  it('serves a viewer card with counters, recent messages and moderation history', async () => {
    const res = await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/viewers/twitch/sp` });
    expect(res.statusCode).toBe(200);
    const card = res.json();
    expect(card).toMatchObject({
      provider: 'twitch',
      provider_user_id: 'sp',
      display_name: 'Spammer',
      message_count: 1,
      banned: true,
      timed_out_until: null,
      channel_provider_id: sources.twitch.channelProviderId,
    });
    expect(card.recent_messages.map((m: { id: string; deleted: boolean }) => [m.id, m.deleted])).toEqual([['twitch:t3', true]]);
    expect(card.moderation).toHaveLength(1);
    expect(card.moderation[0]).toMatchObject({ kind: 'ban', reason: 'spam', moderator: { display_name: 'TwitchMod' }, source: 'platform' });
    expect((await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/viewers/twitch/nobody` })).statusCode).toBe(404);
  });

  it('lists the activity feed newest first with filters, and replays an activity on the bus', async () => {
    const feed = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/activity` })).json();
    expect(feed.records.map((a: { type: string }) => a.type)).toEqual(['sub', 'raid']);
    const raids = (
      await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/activity?types=raid,follow&providers=twitch` })
    ).json();
    expect(raids.records).toHaveLength(1);
    expect(raids.records[0]).toMatchObject({ id: 'twitch:raid-1', count: 42, viewer: { display_name: 'Raider' } });
    expect((await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/activity?types=nope` })).statusCode).toBe(400);
    const page = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/activity?per_page=1` })).json();
    expect(page.cursor).not.toBeNull();
    const seen: unknown[] = [];
    const off = t.s.bus.subscribe(`channel:${channelId}`, (e) => seen.push(e));
    const replay = await t.inject(mod, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/activity/${encodeURIComponent('twitch:raid-1')}/replay`,
    });
    off();
    expect(replay.statusCode).toBe(200);
    // The replay is a new alert of its own (so an alert box that showed the original shows it again), made from the
    // stored activity.
    expect(seen).toEqual([
      { type: 'activity.replay', data: { ...raids.records[0], id: expect.stringMatching(/^twitch:raid-1:replay:/) as unknown } },
    ]);
    expect((await t.inject(mod, { method: 'POST', url: `/api/2/channels/${channelId}/activity/unknown/replay` })).statusCode).toBe(404);
  });

  it('purges messages older than the retention', async () => {
    const before = (await t.s.db.select().from(chatMessages)).length;
    expect(await t.s.chat.purge.purgeOlderThan(30)).toBe(0);
    const future = new Date(Date.now() + 31 * 24 * 3600 * 1000);
    expect(await t.s.chat.purge.purgeOlderThan(30, future, 2)).toBeGreaterThanOrEqual(before);
    expect(await t.s.db.select().from(chatMessages)).toHaveLength(0);
    // Put the log back for the remaining tests.
    await ingest('twitch', platformChat('t9', 'after purge', { id: 'a1', name: 'Alice' }));
    await persisted();
  });
});

describe('access', () => {
  const urls = () => [
    { method: 'GET' as const, url: `/api/2/channels/${channelId}/chat/messages` },
    { method: 'POST' as const, url: `/api/2/channels/${channelId}/chat/messages`, payload: { text: 'hi' } },
    { method: 'GET' as const, url: `/api/2/channels/${channelId}/activity` },
    { method: 'POST' as const, url: `/api/2/channels/${channelId}/activity/x/replay` },
    { method: 'GET' as const, url: `/api/2/channels/${channelId}/viewers/twitch/a1` },
  ];
  it('a user without a role gets 404, Public and Sub members 403, a Mod gets through', async () => {
    for (const req of urls()) {
      expect((await t.inject(stranger, req)).statusCode).toBe(404);
      expect((await t.inject(publicMember, req)).statusCode).toBe(403);
      expect((await t.inject(sub, req)).statusCode).toBe(403);
      expect([200, 404, 422]).toContain((await t.inject(mod, req)).statusCode);
    }
  });
});

describe('public popout history', () => {
  it('serves the last messages with public fields only, oldest first, without deleted ones', async () => {
    const res = await t.inject(null, { method: 'GET', url: `/api/2/public/channels/${channelId}/chat/messages` });
    expect(res.statusCode).toBe(200);
    const { records } = res.json();
    expect(records.length).toBeGreaterThan(0);
    for (const m of records) {
      expect(Object.keys(m).sort()).toEqual(['author', 'emotes', 'highlight', 'id', 'provider', 'reply', 'sent_at', 'text']);
      expect(Object.keys(m.author).sort()).toEqual([
        'avatar_url',
        'badges',
        'color',
        'display_name',
        'is_self',
        'login',
        'provider_user_id',
        'roles',
      ]);
    }
    const body = JSON.stringify(records);
    expect(body).not.toContain('channel_provider_id');
    expect(body).not.toContain('deleted');
    expect(records.map((m: { id: string }) => m.id)).toEqual(['twitch:t9']);
  });

  it('filters platforms, rejects unknown ones, and 404s an unknown channel', async () => {
    await ingest('kick', platformChat('k2', 'kick again', { id: 'b1', name: 'Bob' }));
    await persisted();
    const kick = (await t.inject(null, { method: 'GET', url: `/api/2/public/channels/${channelId}/chat/messages?providers=kick` })).json();
    expect(kick.records.map((m: { id: string }) => m.id)).toEqual(['kick:k2']);
    expect(
      (await t.inject(null, { method: 'GET', url: `/api/2/public/channels/${channelId}/chat/messages?providers=myspace` })).statusCode,
    ).toBe(400);
    expect((await t.inject(null, { method: 'GET', url: `/api/2/public/channels/${newId()}/chat/messages` })).statusCode).toBe(404);
  });
});
