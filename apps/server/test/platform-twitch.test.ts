/**
 * Twitch end to end against the in-process emulator: the connect flow, live chat and events on the
 * bus, sending, moderation and stream info through the API, token refresh and revocation, EventSub
 * socket drops and session_reconnect with a counted message stream, the providers websocket, and the
 * authorization levels of every route.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { httpErrorOf } from './platform-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import { AccessLevel } from '@greenroom/contracts/access';
import type { ChannelProvider, ProviderUpdateMessage } from '@greenroom/contracts/api/channel-providers';
import type { ChannelStreamEvent } from '@greenroom/contracts/api/events';
import { activities, auditLog, channelProviders, channelUsers, statsMinutes } from '../src/db/schema';
import { StatsRollup } from '../src/modules/stats';
import { newId } from '../src/lib/ids';
import { realEndpoints } from '../src/platforms/endpoints';
import { chatEvent, type ChatMessagePayload } from '../src/platforms/twitch/payloads';
import { createTestApp, testApps, type TestApp, type TestUser } from './helper';

let e: Emulator;
let t: TestApp;
let owner: TestUser;
let channelId: string;
let cpId: string;
let streamerId: string;
let botId: string;
const received: ChannelStreamEvent[] = [];

const chatPayloadWithEmote: ChatMessagePayload = {
  broadcaster_user_id: '1',
  chatter_user_id: '2',
  chatter_user_login: 'viewer',
  chatter_user_name: 'Viewer',
  message_id: 'm1',
  message: {
    text: 'hi LUL',
    fragments: [
      { type: 'text', text: 'hi ' },
      { type: 'emote', text: 'LUL', emote: { id: 'emotesv2_abc' } },
    ],
  },
  color: null,
  badges: [],
  message_type: 'text',
  cheer: null,
  reply: null,
};

async function until<T>(fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e.origin}/_emulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}

interface Action {
  seq: number;
  type: string;
  actorId: string | null;
  channelId: string | null;
  data: Record<string, unknown>;
}
const actions = async (type: string): Promise<Action[]> =>
  (await control<{ data: Action[] }>('GET', `/actions?platform=twitch&type=${type}`)).data;

async function createChannel(user: TestUser, name: string): Promise<string> {
  const res = await t.inject(user, { method: 'POST', url: '/api/2/channels', payload: { display_name: name } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

/** Runs the whole connect flow: connect-chat-url → emulator authorize (non-interactive) → callback. */
async function connectTwitch(user: TestUser, channel: string, login: string, bot = false): Promise<string> {
  const urlRes = await t.inject(user, {
    method: 'GET',
    url: `/api/2/twitch/connect-chat-url?channel_id=${channel}&bot=${bot}&redirect_to=/channels/${channel}/providers`,
  });
  expect(urlRes.statusCode).toBe(200);
  const cookie = urlRes.cookies.find((c) => c.name === 'gr_oauth_state')!;
  const url = new URL(urlRes.json<{ url: string }>().url);
  const auth = await control<{ code: string; redirect_url: string }>('POST', '/oauth/authorize', {
    platform: 'twitch',
    client_id: url.searchParams.get('client_id'),
    redirect_uri: url.searchParams.get('redirect_uri'),
    scope: url.searchParams.get('scope'),
    state: url.searchParams.get('state'),
    account_login: login,
  });
  const back = new URL(auth.redirect_url);
  const res = await t.inject(null, {
    method: 'POST',
    url: '/api/2/auth/twitch/callback',
    headers: { cookie: `gr_oauth_state=${cookie.value}` },
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(res.statusCode).toBe(200);
  const redirect = res.json<{ redirect_to: string }>().redirect_to;
  expect(redirect).toMatch(new RegExp(`^/channels/${channel}/providers#channel_provider_id=`));
  return decodeURIComponent(redirect.split('#channel_provider_id=')[1]!);
}

async function providersOf(user: TestUser, channel: string): Promise<ChannelProvider[]> {
  const res = await t.inject(user, { method: 'GET', url: `/api/2/channels/${channel}/providers` });
  expect(res.statusCode).toBe(200);
  return res.json<ChannelProvider[]>();
}

/** The crowd's messages only: the chatbot answers commands the crowd types, and its replies come back as chat too. */
const crowdChatIds = () =>
  received.flatMap((m) => (m.type === 'chat.message' && !m.data.author.is_self ? [m.data.provider_message_id] : []));

beforeAll(async () => {
  e = await startEmulator({ port: 0, apps: testApps, crowd: false });
  process.env.TWURPLE_MOCK_API_PORT = String(e.port);
  t = await createTestApp({ emulatorOrigin: e.origin });
  streamerId = e.world.accountByLogin('twitch', 'greenroomdemo')!.id;
  botId = e.world.accountByLogin('twitch', 'greenroombot')!.id;
  owner = await t.createUser({ displayName: 'Owner' });
  channelId = await createChannel(owner, 'Demo');
  t.s.bus.subscribe(`channel:${channelId}`, (event) => {
    if (event.type === 'chat.message' || event.type === 'chat.moderation' || event.type === 'activity' || event.type === 'stream.status')
      received.push(event);
  });
  cpId = await connectTwitch(owner, channelId, 'greenroomdemo');
  await until(async () => (await providersOf(owner, channelId))[0]?.health?.state === 'connected');
});

afterAll(async () => {
  await t?.close();
  await e?.close();
  delete process.env.TWURPLE_MOCK_API_PORT;
});

describe('connecting Twitch', () => {
  it('lists the connection with its contract fields, live status, health and the dashboard link; tokens are encrypted at rest', async () => {
    const [p] = await providersOf(owner, channelId);
    expect(p).toMatchObject({
      id: cpId,
      provider: 'twitch',
      provider_channel_name: 'greenroomdemo',
      provider_channel_id: streamerId,
      scope_needed: false,
      bot_provider: null,
      dashboard_url: 'https://dashboard.twitch.tv/u/greenroomdemo/stream-manager',
    });
    expect(p!.health).toMatchObject({ state: 'connected', reconnects: 0 });
    await until(async () => (await providersOf(owner, channelId))[0]?.is_live === true);
    const [row] = await t.s.db.select().from(channelProviders).where(eq(channelProviders.id, cpId));
    expect(row!.accessTokenEnc).toMatch(/^v1\./);
    expect(row!.refreshTokenEnc).toMatch(/^v1\./);
    expect(e.world.tokens.has(t.s.cipher.decrypt(row!.accessTokenEnc!))).toBe(true);
    const subscribed = await actions('subscribe');
    expect(subscribed.map((a) => a.data.type)).toEqual(
      expect.arrayContaining(['channel.chat.message', 'channel.follow', 'channel.raid', 'stream.online', 'channel.chat.message_delete']),
    );
  });
});

describe('receiving chat and events', () => {
  it('publishes chat (badges, emotes, reply, mentions), follows and raids in order on the bus', async () => {
    received.length = 0;
    const parent = await control<{ id: string }>('POST', '/chat', {
      platform: 'twitch',
      channel: 'greenroomdemo',
      user: 'greenroombot',
      text: 'hello Kappa @greenroomdemo',
    });
    await control('POST', '/events', { platform: 'twitch', channel: 'greenroomdemo', type: 'follow', user: 'helperbot' });
    await control('POST', '/chat', { platform: 'twitch', channel: 'greenroomdemo', text: 'a reply', replyTo: parent.id });
    await control('POST', '/events', {
      platform: 'twitch',
      channel: 'greenroomdemo',
      type: 'raid',
      user: 'pixelpioneer',
      data: { viewers: 77 },
    });
    await until(() => received.filter((r) => r.type !== 'stream.status').length >= 4);
    const seen = received.filter((r) => r.type !== 'stream.status');
    expect(seen.map((r) => r.type)).toEqual(['chat.message', 'activity', 'chat.message', 'activity']);
    const first = seen[0]!;
    if (first.type !== 'chat.message') throw new Error('expected chat');
    expect(first.data).toMatchObject({
      id: `twitch:${parent.id}`,
      channel_id: channelId,
      channel_provider_id: cpId,
      provider: 'twitch',
      text: 'hello Kappa @greenroomdemo',
      mentions: ['greenroomdemo'],
    });
    expect(first.data.author).toMatchObject({ provider_user_id: botId, login: 'greenroombot', display_name: 'GreenroomBot' });
    expect(first.data.author.roles.moderator).toBe(true);
    expect(first.data.emotes[0]).toMatchObject({ start: 6, end: 11, name: 'Kappa', source: 'platform' });
    // Emote images come from the configured Twitch emote CDN: the emulator here (it serves an image there), Twitch's in real mode.
    expect(t.endpoints.twitch.emoteCdnUrl).toBe(`${e.origin}/twitch-cdn`);
    expect(first.data.emotes[0]!.url).toBe(`${e.origin}/twitch-cdn/emoticons/v2/25/default/dark/1.0`);
    const image = await fetch(first.data.emotes[0]!.url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    expect(realEndpoints(t.config).twitch.emoteCdnUrl).toBe('https://static-cdn.jtvnw.net');
    expect(chatEvent(chatPayloadWithEmote, first.data.sent_at, 'https://cdn.example')).toMatchObject({
      message: { emotes: [{ url: 'https://cdn.example/emoticons/v2/emotesv2_abc/default/dark/1.0' }] },
    });
    const reply = seen[2]!;
    expect(reply.type === 'chat.message' && reply.data.reply).toMatchObject({
      provider_message_id: parent.id,
      text: 'hello Kappa @greenroomdemo',
    });
    expect(seen[1]!.type === 'activity' && seen[1]!.data).toMatchObject({ type: 'follow', viewer: { login: 'helperbot' } });
    expect(seen[3]!.type === 'activity' && seen[3]!.data).toMatchObject({ type: 'raid', count: 77, viewer: { login: 'pixelpioneer' } });
  });
});

describe('gifted subs', () => {
  it('counts a community gift once: one gift with its total, each recipient a gift_received, not a sub of its own', async () => {
    const [gifter, ...recipients] = e.world.accountsOf('twitch', 'viewer');
    const named = recipients.slice(0, 3).map((a) => a.id);
    const from = received.length;
    await control('POST', '/events', {
      platform: 'twitch',
      channel: 'greenroomdemo',
      type: 'gift',
      user: gifter!.id,
      data: { count: 3, tier: 1, recipientIds: named },
    });
    // Twitch: one channel.subscription.gift (total 3) and one channel.subscribe with is_gift per recipient.
    const gifts = await until(() => {
      const list = received.slice(from).flatMap((r) => (r.type === 'activity' ? [r.data] : []));
      return list.length >= 4 ? list : null;
    });
    expect(gifts.map((a) => a.type)).toEqual(['gift', 'gift_received', 'gift_received', 'gift_received']);
    expect(gifts[0]).toMatchObject({ count: 3, tier: '1000', viewer: { provider_user_id: gifter!.id } });
    expect(gifts.slice(1).map((a) => a.viewer!.provider_user_id)).toEqual(named);
    // A sub bought by the viewer stays a sub.
    await control('POST', '/events', { platform: 'twitch', channel: 'greenroomdemo', type: 'sub', user: recipients[4]!.id });
    await until(() => received.slice(from).some((r) => r.type === 'activity' && r.data.type === 'sub'));
    // Stats count 4 new subs (the gift's 3 and the bought one), not 7.
    const stored = await t.s.db.select({ type: activities.type }).from(activities).where(eq(activities.channelId, channelId));
    expect(stored.filter((a) => a.type === 'gift_received')).toHaveLength(3);
    await new StatsRollup(t.s.db).rollup();
    const minutes = await t.s.db.select({ subs: statsMinutes.subs }).from(statsMinutes).where(eq(statsMinutes.channelId, channelId));
    expect(minutes.reduce((n, m) => n + m.subs, 0)).toBe(4);
  });
});

describe('sending', () => {
  it('sends and replies as the broadcaster, and as the channel bot once connected', async () => {
    const { actions: a } = await t.s.connections.actions(cpId);
    const sent = await a.chat!.sendMessage({ text: 'hello from Greenroom', as: 'broadcaster' });
    expect(sent.providerMessageId).toBeTruthy();
    const reply = await a.chat!.sendMessage({ text: 'replying', replyToProviderMessageId: sent.providerMessageId!, as: 'broadcaster' });
    await expect(a.chat!.sendMessage({ text: 'x', as: 'bot' })).rejects.toMatchObject({ status: 422 });

    const botCp = await connectTwitch(owner, channelId, 'greenroombot', true);
    expect(botCp).toBe(cpId);
    const [p] = await providersOf(owner, channelId);
    expect(p!.bot_provider).toMatchObject({ id: botId, display_name: 'GreenroomBot', scope_needed: false, system: false });
    await until(async () => (await providersOf(owner, channelId))[0]?.health?.state === 'connected');
    const { actions: withBot } = await t.s.connections.actions(cpId);
    const asBot = await withBot.chat!.sendMessage({ text: 'bot here', as: 'bot' });
    const sends = await actions('chat.send');
    const byId = (id: string | null) => sends.find((s) => s.data.messageId === id);
    expect(byId(sent.providerMessageId)).toMatchObject({ actorId: streamerId, data: { isSent: true, replyTo: null } });
    expect(byId(reply.providerMessageId)).toMatchObject({ actorId: streamerId, data: { replyTo: sent.providerMessageId } });
    expect(byId(asBot.providerMessageId)).toMatchObject({ actorId: botId });
  });

  it('turns a dropped message (is_sent false) into a clear 422 with the reason', async () => {
    const { actions: a } = await t.s.connections.actions(cpId);
    await a.moderation!.ban({ providerViewerId: botId, durationSeconds: 60 });
    expect(await httpErrorOf(a.chat!.sendMessage({ text: 'can I talk?', as: 'bot' }))).toMatchObject({
      status: 422,
      code: 'refused',
      message: expect.stringContaining('timed out'),
    });
    await a.moderation!.unban({ providerViewerId: botId });
    expect((await a.chat!.sendMessage({ text: 'back again', as: 'bot' })).providerMessageId).toBeTruthy();
  });
});

describe('moderation routes', () => {
  const base = () => `/api/2/channels/${channelId}/twitch/${cpId}`;

  it('times out, bans, unbans and deletes, calling Helix exactly and writing the audit log and bus events', async () => {
    const viewers = e.world.accountsOf('twitch', 'viewer').filter((v) => !e.world.channel('twitch', streamerId)!.moderators.has(v.id));
    const [v1, v2] = [viewers[20]!, viewers[21]!];
    received.length = 0;
    const timeout = await t.inject(owner, {
      method: 'POST',
      url: `${base()}/ban`,
      payload: { provider_viewer_id: v1.id, duration_seconds: 600, reason: 'calm down' },
    });
    expect(timeout.statusCode).toBe(204);
    const ban = await t.inject(owner, { method: 'POST', url: `${base()}/ban`, payload: { provider_viewer_id: v2.id } });
    expect(ban.statusCode).toBe(204);
    const unban = await t.inject(owner, { method: 'DELETE', url: `${base()}/ban?provider_viewer_id=${v2.id}` });
    expect(unban.statusCode).toBe(204);
    const msg = await control<{ id: string }>('POST', '/chat', {
      platform: 'twitch',
      channel: 'greenroomdemo',
      user: viewers[22]!.id,
      text: 'delete me',
    });
    const del = await t.inject(owner, { method: 'DELETE', url: `${base()}/chat-messages/${msg.id}` });
    expect(del.statusCode).toBe(204);

    expect((await actions('timeout')).at(-1)).toMatchObject({
      actorId: streamerId,
      channelId: streamerId,
      data: { userId: v1.id, duration: 600, reason: 'calm down' },
    });
    expect((await actions('ban')).at(-1)).toMatchObject({ data: { userId: v2.id, duration: null } });
    expect((await actions('unban')).at(-1)).toMatchObject({ data: { userId: v2.id } });
    expect((await actions('chat.delete')).at(-1)).toMatchObject({ data: { messageId: msg.id } });

    const audit = await t.s.db.select().from(auditLog).where(eq(auditLog.channelId, channelId));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['moderation.timeout', 'moderation.ban', 'moderation.unban', 'moderation.delete_message']),
    );
    expect(audit.find((a) => a.action === 'moderation.timeout')).toMatchObject({
      actorUserId: owner.id,
      data: { provider_viewer_id: v1.id, duration_seconds: 600 },
    });
    await until(() => received.filter((r) => r.type === 'chat.moderation' && r.data.source === 'greenroom').length >= 4);
    const mine = received.flatMap((r) => (r.type === 'chat.moderation' && r.data.source === 'greenroom' ? [r.data.kind] : []));
    expect(mine).toEqual(['timeout', 'ban', 'unban', 'delete']);
    // The platform's own events arrive too: the timeout/ban cleared the user's messages, the delete removed one.
    await until(() =>
      received.some(
        (r) =>
          r.type === 'chat.moderation' && r.data.source === 'platform' && r.data.kind === 'delete' && r.data.provider_message_id === msg.id,
      ),
    );
  });

  it('validates durations and reasons against the catalogue and refuses what a platform cannot do', async () => {
    const tooLong = await t.inject(owner, {
      method: 'POST',
      url: `${base()}/ban`,
      payload: { provider_viewer_id: '1', duration_seconds: 1_209_601 },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ message: 'Twitch timeouts last from 1 second to 14 days.' });
    const longReason = await t.inject(owner, {
      method: 'POST',
      url: `${base()}/ban`,
      payload: { provider_viewer_id: '1', reason: 'x'.repeat(501) },
    });
    expect(longReason.statusCode).toBe(400);
    // Other platforms: capability checks come before any platform call.
    const yt = newId();
    const tt = newId();
    await t.s.db.insert(channelProviders).values([
      { id: yt, channelId, provider: 'youtube', providerChannelId: 'UCx', providerChannelName: 'x' },
      { id: tt, channelId, provider: 'tiktok', providerChannelId: 'tt', providerChannelName: 'tt' },
    ]);
    const ytReason = await t.inject(owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/youtube/${yt}/ban`,
      payload: { provider_viewer_id: 'UCv', reason: 'spam' },
    });
    expect(ytReason.statusCode).toBe(422);
    expect(ytReason.json()).toMatchObject({ type: 'unsupported', message: expect.stringContaining('YouTube') });
    const tiktok = await t.inject(owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/tiktok/${tt}/ban`,
      payload: { provider_viewer_id: 'v' },
    });
    expect(tiktok.statusCode).toBe(422);
    const tiktokDelete = await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${channelId}/tiktok/${tt}/chat-messages/m1` });
    expect(tiktokDelete.statusCode).toBe(422);
    const wrongProvider = await t.inject(owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/kick/${cpId}/ban`,
      payload: { provider_viewer_id: '1' },
    });
    expect(wrongProvider.statusCode).toBe(404);
    await t.s.db.delete(channelProviders).where(eq(channelProviders.id, yt));
    await t.s.db.delete(channelProviders).where(eq(channelProviders.id, tt));
  });
});

describe('stream info', () => {
  const url = () => `/api/2/channels/${channelId}/providers/${cpId}/stream-info`;

  it('reads and updates the title and category, enforcing the 140-character limit with a clear message', async () => {
    const before = await t.inject(owner, { method: 'GET', url: url() });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ is_live: true, category: { name: expect.any(String) } });
    const search = await t.inject(owner, {
      method: 'GET',
      url: `/api/2/channels/${channelId}/providers/${cpId}/categories?query=minecraft`,
    });
    expect(search.statusCode).toBe(200);
    const [game] = search.json<{ id: string; name: string }[]>();
    expect(game).toMatchObject({ name: 'Minecraft' });
    const tooLong = await t.inject(owner, { method: 'PATCH', url: url(), payload: { title: 'x'.repeat(141) } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ message: expect.stringContaining('140 characters') });
    const ok = await t.inject(owner, { method: 'PATCH', url: url(), payload: { title: 'Building a castle', category_id: game!.id } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ title: 'Building a castle', category: { id: game!.id, name: 'Minecraft' } });
    expect((await actions('title')).at(-1)).toMatchObject({ data: { to: 'Building a castle' } });
    expect((await actions('category')).length).toBeGreaterThan(0);
  });
});

describe('tokens', () => {
  it('refreshes an expired token after the 401 and persists the rotated refresh token encrypted', async () => {
    const [before] = await t.s.db.select().from(channelProviders).where(eq(channelProviders.id, cpId));
    const oldRefresh = t.s.cipher.decrypt(before!.refreshTokenEnc!);
    const expired = await control<{ expired: number }>('POST', '/tokens/expire', { platform: 'twitch', userId: streamerId });
    expect(expired.expired).toBeGreaterThan(0);
    const res = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/providers/${cpId}/stream-info` });
    expect(res.statusCode).toBe(200);
    const [after] = await t.s.db.select().from(channelProviders).where(eq(channelProviders.id, cpId));
    const newRefresh = t.s.cipher.decrypt(after!.refreshTokenEnc!);
    expect(after!.refreshTokenEnc).toMatch(/^v1\./);
    expect(newRefresh).not.toBe(oldRefresh);
    expect(e.world.refreshTokens.has(newRefresh)).toBe(true);
    expect(e.world.refreshTokens.has(oldRefresh)).toBe(false);
    expect(after!.scopeNeeded).toBe(false);
  });

  it('refreshes once for concurrent 401s (single flight)', async () => {
    await control('POST', '/tokens/expire', { platform: 'twitch', userId: streamerId });
    const before = (await control<{ data: Action[] }>('GET', '/actions?platform=twitch&type=token')).data.length;
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/providers/${cpId}/stream-info` })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const after = (await control<{ data: Action[] }>('GET', '/actions?platform=twitch&type=token')).data.filter(
      (a) => a.data.grant === 'refresh_token' && a.actorId === streamerId,
    );
    expect(after.length - before).toBeLessThanOrEqual(1);
  });
});

describe('EventSub reconnects with a counted message stream', () => {
  it('loses and duplicates nothing across session_reconnect (500 messages) and delivered duplicates', async () => {
    received.length = 0;
    const channel = e.world.channel('twitch', streamerId)!;
    const ids: string[] = [];
    // The crowd's lines only: the chatbot answers the crowd's commands (!uptime, !commands), and its replies
    // (sent by Greenroom, stored marked as its own) are not part of the count.
    const off = (m: { id: string; channelId: string; platform: string; origin: string }) => {
      if (m.platform === 'twitch' && m.channelId === streamerId && m.origin === 'crowd') ids.push(m.id);
    };
    const crowdIds = () =>
      received.flatMap((m) => (m.type === 'chat.message' && !m.data.author.is_self ? [m.data.provider_message_id] : []));
    e.world.on('chat', off);
    e.crowd.burst(200, channel);
    await control('POST', '/twitch/eventsub/duplicate', { count: 50 });
    e.crowd.burst(50, channel);
    const reconnecting = await control<{ reconnecting: number }>('POST', '/twitch/eventsub/reconnect', {});
    expect(reconnecting.reconnecting).toBeGreaterThan(0);
    for (let i = 0; i < 10; i++) {
      e.crowd.burst(25, channel);
      await new Promise((r) => setTimeout(r, 5));
    }
    await until(() => crowdIds().length >= 500);
    await new Promise((r) => setTimeout(r, 200));
    e.world.off('chat', off);
    expect(ids).toHaveLength(500);
    expect(crowdIds()).toEqual(ids);
    expect(new Set(crowdIds()).size).toBe(500);
    const [p] = await providersOf(owner, channelId);
    expect(p!.health).toMatchObject({ state: 'connected', reconnects: 0 });
  });

  it('reconnects after the socket drops, subscribes again, and loses nothing sent once connected', async () => {
    received.length = 0;
    const channel = e.world.channel('twitch', streamerId)!;
    e.crowd.burst(250, channel);
    await until(() => crowdChatIds().length >= 250);
    const subscribesBefore = (await actions('subscribe')).length;
    await control('POST', '/twitch/eventsub/drop', {});
    await until(async () => {
      const [p] = await providersOf(owner, channelId);
      return p?.health?.state === 'connected' && p.health.reconnects === 1;
    });
    expect((await actions('subscribe')).length).toBeGreaterThan(subscribesBefore);
    e.crowd.burst(250, channel);
    await until(() => crowdChatIds().length >= 500);
    expect(new Set(crowdChatIds()).size).toBe(500);
    expect(crowdChatIds()).toHaveLength(500);
  });
});

describe('providers websocket', () => {
  it('sends new, updated (revocation → scope_needed) and deleted, and answers pings', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const second = await createChannel(owner, 'Second');
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/2/channels/${second}/providers-ws`, ['greenroom', owner.token]);
    const messages: (ProviderUpdateMessage | { type: string })[] = [];
    ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as ProviderUpdateMessage));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'ping' }));
    await until(() => messages.some((m) => 'type' in m && m.type === 'pong'));

    const pixelId = e.world.accountByLogin('twitch', 'pixelpioneer')!.id;
    const id = await connectTwitch(owner, second, 'pixelpioneer');
    const updates = () => messages.filter((m): m is ProviderUpdateMessage => 'action' in m);
    await until(() => updates().some((m) => m.action === 'new' && m.data.id === id));
    await until(() => updates().some((m) => m.action === 'updated' && m.data.health?.state === 'connected'));

    await control('POST', '/tokens/revoke', { platform: 'twitch', userId: pixelId });
    const revoked = await until(() => updates().find((m) => m.action === 'updated' && m.data.scope_needed));
    expect(revoked.data).toMatchObject({ id, scope_needed: true });
    const [row] = await t.s.db.select().from(channelProviders).where(eq(channelProviders.id, id));
    expect(row!.scopeNeeded).toBe(true);
    // Other platforms and channels keep working.
    expect((await providersOf(owner, channelId))[0]!.health?.state).toBe('connected');

    const del = await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${second}/providers/${id}` });
    expect(del.statusCode).toBe(204);
    await until(() => updates().some((m) => m.action === 'deleted' && m.data.id === id));
    expect(await providersOf(owner, second)).toEqual([]);
    ws.close();
  });
});

describe('authorization', () => {
  it('Mod reads and moderates, Editor edits the stream, Admin manages platforms, strangers get 404', async () => {
    const [mod, editor, admin, stranger] = await Promise.all([t.createUser(), t.createUser(), t.createUser(), t.createUser()]);
    await t.s.db.insert(channelUsers).values([
      { channelId, userId: mod.id, level: AccessLevel.MOD },
      { channelId, userId: editor.id, level: AccessLevel.EDITOR },
      { channelId, userId: admin.id, level: AccessLevel.ADMIN },
    ]);
    const list = `/api/2/channels/${channelId}/providers`;
    const info = `/api/2/channels/${channelId}/providers/${cpId}/stream-info`;
    const remove = `/api/2/channels/${channelId}/providers/${cpId}`;
    const unbanUrl = `/api/2/channels/${channelId}/twitch/${cpId}/ban?provider_viewer_id=nobody`;
    const status = async (u: TestUser, method: 'GET' | 'DELETE' | 'PATCH', url: string, payload?: unknown) =>
      (await t.inject(u, { method, url, ...(payload ? { payload } : {}) })).statusCode;

    expect(await status(stranger, 'GET', list)).toBe(404);
    expect(await status(stranger, 'DELETE', unbanUrl)).toBe(404);
    expect(await status(mod, 'GET', list)).toBe(200);
    expect(await status(mod, 'GET', info)).toBe(403);
    expect(await status(mod, 'DELETE', remove)).toBe(403);
    expect(await status(editor, 'GET', info)).toBe(200);
    expect(await status(editor, 'PATCH', info, { title: 'x' })).not.toBe(403);
    expect(await status(editor, 'DELETE', remove)).toBe(403);
    expect(await status(editor, 'DELETE', `${remove}/bot`)).toBe(403);
    // Mod may moderate: the gate lets it through and Twitch answers (the user is not banned → 422).
    expect(await status(mod, 'DELETE', unbanUrl)).toBe(422);
    expect(await status(admin, 'DELETE', `${remove}/bot`)).toBe(200);
    expect(await status(admin, 'DELETE', remove)).toBe(204);
  });
});
