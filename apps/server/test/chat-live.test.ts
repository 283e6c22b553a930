/**
 * The unified chat end to end against the platform emulator: Twitch and Kick connected through the
 * real connection manager (EventSub WebSocket, signed Kick webhooks), YouTube through its adapter
 * emitting into the same ingest pipeline; a real `ws` client on the staff and public sockets.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startEmulator, type Account, type Emulator } from '@greenroom/platform-emulator';
import { AccessLevel } from '@greenroom/contracts/access';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { channelProviders, channelUsers } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { scopesFor } from '../src/platforms/scopes';
import type { LiveConnection } from '../src/platforms/port';
import { createYoutubeAdapter } from '../src/platforms/youtube/youtube-adapter';
import { createTestApp, testApps, type TestApp, type TestUser } from './helper';
import { actionsSince, control, lastActionSeq, MemoryBanStore } from './platform-fixtures';

type Frame = { type: string; data: Record<string, unknown> };
const platforms = ['twitch', 'kick', 'youtube'] as const;
type P = (typeof platforms)[number];

let emulator: Emulator;
let t: TestApp;
let base: string;
let owner: TestUser;
let mod: TestUser;
let sub: TestUser;
let channelId: string;
const cp = {} as Record<P, string>;
const streamer = {} as Record<P, Account>;
let youtubeConnection: LiveConnection | null = null;

/** A ws client that records frames and resolves waits on them. */
class Client {
  readonly frames: Frame[] = [];
  readonly ws: WebSocket;
  closed: { code: number } | null = null;
  constructor(url: string, token?: string) {
    this.ws = new WebSocket(url, token ? ['greenroom', token] : []);
    this.ws.on('message', (data: Buffer) => this.frames.push(JSON.parse(data.toString('utf8')) as Frame));
    this.ws.on('close', (code) => (this.closed = { code }));
  }
  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      this.ws.once('error', reject);
    });
  }
  async waitFor<T>(pick: (frames: Frame[]) => T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const v = pick(this.frames);
      if (v) return v;
      if (Date.now() > until) throw new Error(`timed out; frames: ${JSON.stringify(this.frames.map((f) => f.type))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  close() {
    this.ws.close();
  }
}

function rejectedStatus(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['greenroom', token]);
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('open', () => {
      ws.close();
      reject(new Error('opened'));
    });
    ws.once('error', () => {});
  });
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

let viewerCounter = 0;
const newViewer = (p: P, name: string) => control<{ id: string }>(emulator, 'POST', '/accounts', { platform: p, displayName: `${name}${++viewerCounter}`, kind: 'viewer' });
const chat = (p: P, text: string, user?: string) => control<{ id: string }>(emulator, 'POST', '/chat', { platform: p, channel: streamer[p].id, text, ...(user ? { user } : {}) });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
  emulator.ctx.youtube!.pollingIntervalMillis = 50;
  emulator.ctx.kick!.delivery.retryBaseMs = 50;
  process.env.TWURPLE_MOCK_API_PORT = String(emulator.port);
  t = await createTestApp({ emulatorOrigin: emulator.origin });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  base = `ws://127.0.0.1:${port}`;
  await control(emulator, 'PUT', '/apps/kick', { webhookUrl: `http://127.0.0.1:${port}/api/2/webhooks/kick` });

  owner = await t.createUser({ displayName: 'Owner' });
  mod = await t.createUser({ displayName: 'Moddy' });
  sub = await t.createUser({ displayName: 'Subby' });
  channelId = (await t.s.channels.create(owner.id, 'Live chat')).id;
  await t.s.db.insert(channelUsers).values([
    { channelId, userId: mod.id, level: AccessLevel.MOD },
    { channelId, userId: sub.id, level: AccessLevel.SUB },
  ]);
  for (const p of platforms) {
    streamer[p] = emulator.world.accountByLogin(p, 'greenroomdemo')!;
    const token = emulator.world.issueToken({ platform: p, clientId: testApps[p].clientId, userId: streamer[p].id, scopes: scopesFor[p].channel, ttlSeconds: 3600, refreshable: true });
    cp[p] = newId();
    await t.s.db.insert(channelProviders).values({
      id: cp[p],
      channelId,
      provider: p,
      providerChannelId: streamer[p].id,
      providerChannelName: streamer[p].login,
      accessTokenEnc: t.s.cipher.encrypt(token.accessToken),
      refreshTokenEnc: token.refreshToken ? t.s.cipher.encrypt(token.refreshToken) : null,
      tokenExpiresAt: new Date(Date.now() + 3600_000),
      scopes: scopesFor[p].channel,
    });
  }
  for (const p of ['twitch', 'kick'] as const) {
    await t.s.connections.restart(cp[p]);
  }
  if (t.s.connections.hasAdapter('youtube')) await t.s.connections.restart(cp.youtube);
  else {
    // The YouTube adapter is not in the server's registry yet: run it here, emitting into the app's ingest pipeline.
    const adapter = createYoutubeAdapter({ endpoints: t.endpoints.youtube, offlinePoll: { baseMs: 50, maxMs: 100 }, backoff: { baseMs: 50, maxMs: 100 } });
    const broadcaster = (await t.s.tokens.get({ kind: 'broadcaster', channelProviderId: cp.youtube }))!;
    const source = { channelId, channelProviderId: cp.youtube, provider: 'youtube' as ChannelProviderId, providerChannelId: streamer.youtube.id };
    const abort = new AbortController();
    const state: Record<string, unknown> = {};
    youtubeConnection = adapter.connect({
      ...source,
      providerChannelName: streamer.youtube.login,
      broadcaster,
      bot: null,
      state,
      saveState: async (patch) => void Object.assign(state, patch),
      bans: new MemoryBanStore(),
      emit: (e) => void t.s.ingest.ingest(source, e),
      setHealth: () => {},
      signal: abort.signal,
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
  }
  await waitUntil(() => ['twitch', 'kick'].every((p) => t.s.connections.health(cp[p as P])?.state === 'connected'));
}, 60_000);

afterAll(async () => {
  await youtubeConnection?.close();
  await t?.close();
  await t?.s.chat.close();
  await emulator?.close();
});

describe('staff chat websocket', () => {
  it('delivers messages from Twitch, Kick and YouTube in order, answers ping, and the same lands in history', async () => {
    const client = new Client(`${base}/api/2/channels/${channelId}/chat-ws`, mod.token);
    await client.opened();
    // The YouTube poller must have found the live chat before we chat there.
    const probe = await chat('youtube', 'probe');
    await client.waitFor((f) => f.some((x) => x.type === 'chat.message' && x.data.provider_message_id === probe.id), 15_000);
    const sent: { p: P; id: string; text: string }[] = [];
    for (let i = 0; i < 3; i++) {
      for (const p of platforms) {
        const text = `${p} message ${i}`;
        const { id } = await chat(p, text);
        sent.push({ p, id, text });
        // Wait for each to arrive before the next: arrival order across platforms is the send order.
        await client.waitFor((f) => f.some((x) => x.type === 'chat.message' && x.data.provider_message_id === id));
      }
    }
    const got = client.frames.filter((f) => f.type === 'chat.message' && f.data.provider_message_id !== probe.id);
    expect(got.map((f) => [f.data.provider, f.data.text])).toEqual(sent.map((s) => [s.p, s.text]));
    expect(got.every((f) => f.data.channel_id === channelId)).toBe(true);

    client.ws.send(JSON.stringify({ type: 'ping' }));
    await client.waitFor((f) => f.some((x) => x.type === 'pong'));
    client.close();

    await t.s.ingest.flush();
    await t.s.chat.writer.flush();
    const history = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?limit=9` })).json();
    expect(history.records.map((m: { text: string }) => m.text).reverse()).toEqual(sent.map((s) => s.text));
  });

  it('refuses a Sub member (403) and a non-member (404) at the upgrade', async () => {
    expect(await rejectedStatus(`${base}/api/2/channels/${channelId}/chat-ws`, sub.token)).toBe(403);
    const stranger = await t.createUser();
    expect(await rejectedStatus(`${base}/api/2/channels/${channelId}/chat-ws`, stranger.token)).toBe(404);
  });
});

describe('moderation', () => {
  it('a deletion done on the platform shows as chat.moderation and as deleted in history', async () => {
    const client = new Client(`${base}/api/2/channels/${channelId}/chat-ws`, mod.token);
    await client.opened();
    const viewer = emulator.world.accountsOf('twitch', 'viewer')[0]!;
    const { id } = await chat('twitch', 'delete me on twitch', viewer.id);
    await client.waitFor((f) => f.some((x) => x.type === 'chat.message' && x.data.provider_message_id === id));
    // A platform moderator removes it in Twitch's own chat (the emulator's world; no control route for this yet).
    expect(emulator.world.deleteChat(id)?.deleted).toBe(true);
    const mod1 = await client.waitFor((f) => f.find((x) => x.type === 'chat.moderation' && x.data.provider_message_id === id));
    expect(mod1.data).toMatchObject({ kind: 'delete', source: 'platform', provider: 'twitch' });
    client.close();
    await t.s.ingest.flush();
    await t.s.chat.writer.flush();
    const history = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?provider=twitch` })).json();
    expect(history.records.find((m: { provider_message_id: string }) => m.provider_message_id === id)).toMatchObject({ deleted: true });
  });

  it('a Mod times out, bans and deletes from Greenroom: the right call per platform reaches the emulator', async () => {
    const client = new Client(`${base}/api/2/channels/${channelId}/chat-ws`, mod.token);
    await client.opened();
    const since = await lastActionSeq(emulator);
    const results: Record<string, string[]> = {};
    const trolls = {} as Record<P, string>;
    // YouTube moderation needs the YouTube adapter in the server's registry (platform layer, in progress).
    const moderatable = platforms.filter((p) => t.s.connections.hasAdapter(p));
    expect(moderatable).toEqual(expect.arrayContaining(['twitch', 'kick']));
    for (const p of moderatable) {
      const viewer = await newViewer(p, 'Troll');
      trolls[p] = viewer.id;
      const { id } = await chat(p, `bad words on ${p}`, viewer.id);
      await client.waitFor((f) => f.some((x) => x.type === 'chat.message' && x.data.provider_message_id === id));
      const url = `/api/2/channels/${channelId}/${p}/${cp[p]}`;
      const timeout = await t.inject(mod, { method: 'POST', url: `${url}/ban`, payload: { provider_viewer_id: viewer.id, duration_seconds: 600 } });
      expect(timeout.statusCode, timeout.body).toBe(204);
      const del = await t.inject(mod, { method: 'DELETE', url: `${url}/chat-messages/${encodeURIComponent(id)}` });
      expect(del.statusCode, del.body).toBe(204);
      const unban = await t.inject(mod, { method: 'DELETE', url: `${url}/ban?provider_viewer_id=${encodeURIComponent(viewer.id)}` });
      expect(unban.statusCode, unban.body).toBe(204);
      results[p] = (await actionsSince(emulator, p, since)).filter((a) => JSON.stringify(a.data).includes(viewer.id)).map((a) => a.type);
      const frame = await client.waitFor((f) => f.find((x) => x.type === 'chat.moderation' && x.data.kind === 'timeout' && x.data.provider === p));
      expect(frame.data).toMatchObject({ source: 'greenroom', duration_seconds: 600, moderator: { user_id: mod.id } });
    }
    for (const p of moderatable) expect(results[p]).toEqual(['timeout', 'chat.delete', 'unban']);
    client.close();
    await t.s.ingest.flush();
    await t.s.chat.writer.flush();
    const card = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/viewers/kick/${trolls.kick}` })).json();
    expect(card.moderation.map((m: { kind: string }) => m.kind)).toEqual(expect.arrayContaining(['timeout', 'delete', 'unban']));
    expect(card.moderation.find((m: { kind: string; source: string }) => m.kind === 'timeout' && m.source === 'greenroom').moderator).toEqual({ user_id: mod.id, display_name: 'Moddy' });
    expect(card.banned).toBe(false);
  });
});

describe('sending from the composer', () => {
  it('sends to every connected platform with chat write and answers per platform', async () => {
    const since = await lastActionSeq(emulator);
    const res = await t.inject(mod, { method: 'POST', url: `/api/2/channels/${channelId}/chat/messages`, payload: { text: 'hello everyone' } });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().results as { provider: string; ok: boolean; error: string | null; provider_message_id: string | null }[];
    expect(results.map((r) => r.provider).sort()).toEqual(['kick', 'twitch', 'youtube']);
    for (const p of ['twitch', 'kick'] as const) {
      const r = results.find((x) => x.provider === p)!;
      expect(r).toMatchObject({ ok: true, error: null });
      expect((await actionsSince(emulator, p, since)).some((a) => a.type === 'chat.send' && a.data.text === 'hello everyone')).toBe(true);
    }
    const yt = results.find((x) => x.provider === 'youtube')!;
    if (t.s.connections.hasAdapter('youtube')) expect(yt).toMatchObject({ ok: true, error: null });
    else expect(yt).toMatchObject({ ok: false, error: 'YouTube is not available on this server.' });
  });

  it('replies only where the platform supports it; the others get a clear error', async () => {
    const { id } = await chat('twitch', 'reply to me');
    const res = await t.inject(mod, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/chat/messages`,
      payload: { text: 'a reply', channel_provider_ids: [cp.twitch, cp.kick], reply_to: { channel_provider_id: cp.twitch, provider_message_id: id } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().results as { provider: string; ok: boolean; error: string | null }[];
    expect(results.find((r) => r.provider === 'twitch')).toMatchObject({ ok: true });
    expect(results.find((r) => r.provider === 'kick')).toMatchObject({ ok: false, error: 'Twitch is the only platform that supports replies' });
    const unknown = await t.inject(mod, { method: 'POST', url: `/api/2/channels/${channelId}/chat/messages`, payload: { text: 'x', channel_provider_ids: ['nope'] } });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('public popout websocket', () => {
  it('sends public fields only and chat.removed when a message is deleted; no moderation details', async () => {
    const client = new Client(`${base}/api/2/public/channels/${channelId}/chat-ws?providers=twitch,kick`);
    await client.opened();
    const viewer = await newViewer('kick', 'Fan');
    const { id } = await chat('kick', 'public hello', viewer.id);
    const yt = await chat('youtube', 'filtered out');
    const msg = await client.waitFor((f) => f.find((x) => x.type === 'chat.message' && x.data.id === `kick:${id}`));
    expect(Object.keys(msg.data).sort()).toEqual(['author', 'emotes', 'highlight', 'id', 'provider', 'reply', 'sent_at', 'text']);
    const del = await t.inject(mod, { method: 'DELETE', url: `/api/2/channels/${channelId}/kick/${cp.kick}/chat-messages/${encodeURIComponent(id)}` });
    expect(del.statusCode).toBe(204);
    const removed = await client.waitFor((f) => f.find((x) => x.type === 'chat.removed'));
    expect(removed).toEqual({ type: 'chat.removed', data: { ids: [`kick:${id}`] } });
    expect(client.frames.every((f) => f.type === 'chat.message' || f.type === 'chat.removed')).toBe(true);
    expect(client.frames.some((f) => f.data.id === `youtube:${yt.id}`)).toBe(false);
    expect(JSON.stringify(client.frames)).not.toMatch(/"reason"|"source"|duration_seconds|channel_provider_id|Moddy/);
    client.close();
  });

  it('404s an unknown channel at the upgrade', async () => {
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${base}/api/2/public/channels/${newId()}/chat-ws`);
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', () => {});
    });
    expect(status).toBe(404);
  });
});
