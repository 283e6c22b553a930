/**
 * The unified chat end to end against the platform emulator: Twitch, Kick and YouTube connected through the real
 * connection manager (EventSub WebSocket, signed Kick webhooks, YouTube polling); a real `ws` client on the staff
 * and public sockets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Emulator } from '@greenroom/platform-emulator';
import { AccessLevel } from '@greenroom/contracts/access';
import type { TestApp, TestUser } from './helper';
import { newId } from '../src/lib/ids';
import { chatPlatforms as platforms, SocketClient as Client, startChatWorld, type ChatPlatform as P, type ChatWorld } from './chat-world';
import { actionsSince, lastActionSeq } from './platform-fixtures';

let world: ChatWorld;
let emulator: Emulator;
let t: TestApp;
let base: string;
let mod: TestUser;
let sub: TestUser;
let channelId: string;
let cp: Record<P, string>;

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

const newViewer = (p: P, name: string) => world.newViewer(p, name);
const chat = (p: P, text: string, user?: string) => world.chat(p, text, user);

beforeAll(async () => {
  world = await startChatWorld('Live chat');
  ({ emulator, t, base, channelId, cp } = world);
  mod = await world.member('Moddy', AccessLevel.MOD);
  sub = await world.member('Subby', AccessLevel.SUB);
}, 60_000);

afterAll(async () => {
  await world?.close();
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
      const timeout = await t.inject(mod, {
        method: 'POST',
        url: `${url}/ban`,
        payload: { provider_viewer_id: viewer.id, duration_seconds: 600 },
      });
      expect(timeout.statusCode, timeout.body).toBe(204);
      const del = await t.inject(mod, { method: 'DELETE', url: `${url}/chat-messages/${encodeURIComponent(id)}` });
      expect(del.statusCode, del.body).toBe(204);
      const unban = await t.inject(mod, { method: 'DELETE', url: `${url}/ban?provider_viewer_id=${encodeURIComponent(viewer.id)}` });
      expect(unban.statusCode, unban.body).toBe(204);
      results[p] = (await actionsSince(emulator, p, since)).filter((a) => JSON.stringify(a.data).includes(viewer.id)).map((a) => a.type);
      const frame = await client.waitFor((f) =>
        f.find((x) => x.type === 'chat.moderation' && x.data.kind === 'timeout' && x.data.provider === p),
      );
      expect(frame.data).toMatchObject({ source: 'greenroom', duration_seconds: 600, moderator: { user_id: mod.id } });
    }
    for (const p of moderatable) expect(results[p]).toEqual(['timeout', 'chat.delete', 'unban']);
    client.close();
    await t.s.ingest.flush();
    const card = (await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/viewers/kick/${trolls.kick}` })).json();
    expect(card.moderation.map((m: { kind: string }) => m.kind)).toEqual(expect.arrayContaining(['timeout', 'delete', 'unban']));
    expect(
      card.moderation.find((m: { kind: string; source: string }) => m.kind === 'timeout' && m.source === 'greenroom').moderator,
    ).toEqual({ kind: 'user', user_id: mod.id, display_name: 'Moddy' });
    expect(card.banned).toBe(false);
  });
});

describe('sending from the composer', () => {
  // As the Owner, who posts as the streamer (Mods send as the bot: chat-send-policy.test.ts).
  it('sends to every connected platform with chat write and answers per platform', async () => {
    const since = await lastActionSeq(emulator);
    const res = await t.inject(world.owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/chat/messages`,
      payload: { text: 'hello everyone' },
    });
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
    const res = await t.inject(world.owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/chat/messages`,
      payload: {
        text: 'a reply',
        channel_provider_ids: [cp.twitch, cp.kick],
        reply_to: { channel_provider_id: cp.twitch, provider_message_id: id },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().results as { provider: string; ok: boolean; error: string | null }[];
    expect(results.find((r) => r.provider === 'twitch')).toMatchObject({ ok: true });
    expect(results.find((r) => r.provider === 'kick')).toMatchObject({
      ok: false,
      error: 'Twitch is the only platform that supports replies',
    });
    const unknown = await t.inject(world.owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/chat/messages`,
      payload: { text: 'x', channel_provider_ids: ['nope'] },
    });
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
    const del = await t.inject(mod, {
      method: 'DELETE',
      url: `/api/2/channels/${channelId}/kick/${cp.kick}/chat-messages/${encodeURIComponent(id)}`,
    });
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
