/** The EventSub WebSocket protocol with a plain `ws` client: welcome, close codes, Helix subscription errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Emulator } from '../src/index';
import { emulator, postJson, twitchUserToken, until, type TwitchTokens } from './helpers';

let e: Emulator;
let streamer: TwitchTokens;

interface Frame {
  metadata: {
    message_id: string;
    message_type: string;
    message_timestamp: string;
    subscription_type?: string;
    subscription_version?: string;
  };
  payload: {
    session?: { id: string; keepalive_timeout_seconds: number | null; reconnect_url: string | null };
    subscription?: Record<string, unknown>;
    event?: Record<string, unknown>;
  };
}

function open(url: string, options: WebSocket.ClientOptions = {}): Promise<{ ws: WebSocket; frames: Frame[]; closed: Promise<number> }> {
  const ws = new WebSocket(url, options);
  const frames: Frame[] = [];
  ws.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8')) as Frame));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve({ ws, frames, closed }));
    ws.on('error', reject);
  });
}

async function subscribe(tokens: TwitchTokens, body: Record<string, unknown>): Promise<Response> {
  return fetch(e.config.twitch.eventSubSubscriptionsUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.accessToken}`, 'client-id': e.config.twitch.clientId, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  e = await emulator();
  streamer = await twitchUserToken(e, 'greenroomdemo', ['user:read:chat', 'channel:read:subscriptions']);
});

afterAll(async () => {
  await e.close();
});

describe('EventSub WebSocket protocol', () => {
  it('welcomes with the requested keepalive_timeout_seconds', async () => {
    const { ws, frames } = await open(`${e.config.twitch.eventSubWsUrl}?keepalive_timeout_seconds=42`);
    await until(() => frames.length > 0);
    expect(frames[0]!.metadata.message_type).toBe('session_welcome');
    expect(frames[0]!.payload.session?.keepalive_timeout_seconds).toBe(42);
    expect(frames[0]!.payload.session?.reconnect_url).toBeNull();
    ws.close();
  });

  it('clamps keepalive_timeout_seconds to 10-600 like Twitch', async () => {
    for (const [asked, given] of [
      ['5', 10],
      ['1000', 600],
      ['600', 600],
      ['abc', 10],
    ] as const) {
      const { ws, frames } = await open(`${e.config.twitch.eventSubWsUrl}?keepalive_timeout_seconds=${asked}`);
      await until(() => frames.length > 0);
      expect(frames[0]!.payload.session?.keepalive_timeout_seconds).toBe(given);
      ws.close();
    }
  });

  it('stamps frames in RFC 3339 with nanoseconds (up to nine digits, trailing zeros dropped, as Go prints them)', async () => {
    const stamps: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { ws, frames } = await open(e.config.twitch.eventSubWsUrl);
      await until(() => frames.length > 0);
      stamps.push(frames[0]!.metadata.message_timestamp, (frames[0]!.payload.session as { connected_at?: string }).connected_at ?? '');
      ws.close();
    }
    for (const stamp of stamps) {
      expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{0,8}[1-9])?Z$/);
      expect(Number.isNaN(Date.parse(stamp))).toBe(false);
    }
    expect(stamps.some((stamp) => (/\.(\d+)Z$/.exec(stamp)?.[1]?.length ?? 0) > 3)).toBe(true);
  });

  it('pings the socket and closes one that does not answer with 4002', async () => {
    await postJson(`${e.origin}/_emulator/twitch/eventsub/settings`, { pingIntervalMs: 100 }, 'PUT');
    try {
      const polite = await open(e.config.twitch.eventSubWsUrl);
      let pings = 0;
      polite.ws.on('ping', () => pings++);
      const mute = await open(e.config.twitch.eventSubWsUrl, { autoPong: false });
      expect(await mute.closed).toBe(4002);
      await until(() => pings >= 3);
      expect(polite.ws.readyState).toBe(WebSocket.OPEN);
      polite.ws.close();
    } finally {
      await postJson(`${e.origin}/_emulator/twitch/eventsub/settings`, { pingIntervalMs: 5000 }, 'PUT');
    }
  });

  it('refuses a 4th WebSocket connection with subscriptions for one user token with 429; the 3 others keep working', async () => {
    const sockets = await Promise.all([0, 1, 2, 3].map(() => open(e.config.twitch.eventSubWsUrl)));
    await until(() => sockets.every((x) => x.frames.length > 0));
    const onlineOn = (x: (typeof sockets)[number]) =>
      subscribe(streamer, {
        type: 'stream.online',
        version: '1',
        condition: { broadcaster_user_id: streamer.userId },
        transport: { method: 'websocket', session_id: x.frames[0]!.payload.session!.id },
      });
    for (const x of sockets.slice(0, 3)) expect((await onlineOn(x)).status).toBe(202);
    const fourth = await onlineOn(sockets[3]!);
    expect(fourth.status).toBe(429);
    expect(await fourth.json()).toEqual({
      error: 'Too Many Requests',
      status: 429,
      message: 'number of websocket transports limit exceeded',
    });
    // Another user is not affected; a freed slot can be used.
    sockets[0]!.ws.close();
    await sockets[0]!.closed;
    await until(async () => (await onlineOn(sockets[3]!)).status === 202);
    for (const x of sockets.slice(1)) x.ws.close();
  });

  it('gives a new session id after session_reconnect, keeping the subscriptions', async () => {
    const first = await open(e.config.twitch.eventSubWsUrl);
    await until(() => first.frames.length > 0);
    const oldId = first.frames[0]!.payload.session!.id;
    expect(
      (
        await subscribe(streamer, {
          type: 'stream.offline',
          version: '1',
          condition: { broadcaster_user_id: streamer.userId },
          transport: { method: 'websocket', session_id: oldId },
        })
      ).status,
    ).toBe(202);
    await postJson(`${e.origin}/_emulator/twitch/eventsub/reconnect`, { sessionId: oldId });
    await until(() => first.frames.some((f) => f.metadata.message_type === 'session_reconnect'));
    const reconnectUrl = first.frames.find((f) => f.metadata.message_type === 'session_reconnect')!.payload.session!.reconnect_url!;
    const second = await open(reconnectUrl);
    await until(() => second.frames.length > 0);
    const newId = second.frames[0]!.payload.session!.id;
    expect(newId).not.toBe(oldId);
    first.ws.close();
    const list = (await (
      await fetch(`${e.config.twitch.eventSubSubscriptionsUrl}?type=stream.offline`, {
        headers: { authorization: `Bearer ${streamer.accessToken}`, 'client-id': e.config.twitch.clientId },
      })
    ).json()) as { data: { status: string; transport: { session_id: string } }[] };
    expect(list.data.filter((s) => s.status === 'enabled').map((s) => s.transport.session_id)).toEqual([newId]);
    second.ws.close();
  });

  it('closes an unused connection with 4003 and inbound traffic with 4001', async () => {
    await postJson(`${e.origin}/_emulator/twitch/eventsub/settings`, { unusedTimeoutMs: 200 }, 'PUT');
    const unused = await open(e.config.twitch.eventSubWsUrl);
    expect(await unused.closed).toBe(4003);
    await postJson(`${e.origin}/_emulator/twitch/eventsub/settings`, { unusedTimeoutMs: 10_000 }, 'PUT');
    const chatty = await open(e.config.twitch.eventSubWsUrl);
    chatty.ws.send('hello?');
    expect(await chatty.closed).toBe(4001);
  });

  it('refuses an unknown reconnect URL with 4007', async () => {
    const bad = await open(`${e.config.twitch.eventSubWsUrl}?reconnect_id=nope`);
    expect(await bad.closed).toBe(4007);
  });

  it('validates subscriptions: session, version, scope, authorization, duplicates', async () => {
    const { ws, frames } = await open(e.config.twitch.eventSubWsUrl);
    await until(() => frames.length > 0);
    const sessionId = frames[0]!.payload.session!.id;
    const chatSub = {
      type: 'channel.chat.message',
      version: '1',
      condition: { broadcaster_user_id: streamer.userId, user_id: streamer.userId },
      transport: { method: 'websocket', session_id: sessionId },
    };
    expect((await subscribe(streamer, { ...chatSub, transport: { method: 'websocket', session_id: 'nope' } })).status).toBe(400);
    expect((await subscribe(streamer, { ...chatSub, version: '2' })).status).toBe(400);
    const followNoScope = await subscribe(streamer, {
      type: 'channel.follow',
      version: '2',
      condition: { broadcaster_user_id: streamer.userId, moderator_user_id: streamer.userId },
      transport: chatSub.transport,
    });
    expect(followNoScope.status).toBe(403);
    expect(await followNoScope.json()).toEqual({ error: 'Forbidden', status: 403, message: 'subscription missing proper authorization' });
    const otherUser = e.world.accountByLogin('twitch', 'pixelpioneer')!.id;
    expect((await subscribe(streamer, { ...chatSub, condition: { broadcaster_user_id: otherUser, user_id: otherUser } })).status).toBe(403);
    const ok = await subscribe(streamer, chatSub);
    expect(ok.status).toBe(202);
    const created = (await ok.json()) as {
      data: { id: string; status: string; transport: { session_id: string } }[];
      total: number;
      max_total_cost: number;
    };
    expect(created.data[0]).toMatchObject({ status: 'enabled', transport: { session_id: sessionId } });
    expect(created.max_total_cost).toBe(10);
    expect((await subscribe(streamer, chatSub)).status).toBe(409);

    await postJson(`${e.origin}/_emulator/chat`, {
      platform: 'twitch',
      channel: streamer.userId,
      user: 'greenroombot',
      text: 'hi @greenroomdemo Kappa',
    });
    await until(() => frames.some((f) => f.metadata.message_type === 'notification'));
    const note = frames.find((f) => f.metadata.message_type === 'notification')!;
    expect(note.metadata).toMatchObject({
      message_type: 'notification',
      subscription_type: 'channel.chat.message',
      subscription_version: '1',
    });
    expect(Object.keys(note.metadata).sort()).toEqual([
      'message_id',
      'message_timestamp',
      'message_type',
      'subscription_type',
      'subscription_version',
    ]);
    const event = note.payload.event as {
      message: { text: string; fragments: { type: string }[] };
      chatter_user_login: string;
      badges: { set_id: string }[];
    };
    expect(event.chatter_user_login).toBe('greenroombot');
    expect(event.message.fragments.map((f) => f.type)).toEqual(['text', 'mention', 'text', 'emote']);
    expect(event.badges.map((b) => b.set_id)).toContain('moderator');

    await postJson(`${e.origin}/_emulator/twitch/eventsub/duplicate`, { count: 1 });
    await postJson(`${e.origin}/_emulator/chat`, { platform: 'twitch', channel: streamer.userId, text: 'twice' });
    await until(
      () => frames.filter((f) => (f.payload.event as { message?: { text: string } } | undefined)?.message?.text === 'twice').length === 2,
    );
    const twice = frames.filter((f) => (f.payload.event as { message?: { text: string } } | undefined)?.message?.text === 'twice');
    expect(twice[0]!.metadata.message_id).toBe(twice[1]!.metadata.message_id);
    ws.close();
  });

  it('drops a socket on demand; its subscriptions become websocket_disconnected', async () => {
    const { frames, closed } = await open(e.config.twitch.eventSubWsUrl);
    await until(() => frames.length > 0);
    const sessionId = frames[0]!.payload.session!.id;
    await subscribe(streamer, {
      type: 'stream.online',
      version: '1',
      condition: { broadcaster_user_id: streamer.userId },
      transport: { method: 'websocket', session_id: sessionId },
    });
    await postJson(`${e.origin}/_emulator/twitch/eventsub/drop`, { sessionId, code: 4006 });
    expect(await closed).toBe(4006);
    const list = (await (
      await fetch(`${e.config.twitch.eventSubSubscriptionsUrl}?type=stream.online`, {
        headers: { authorization: `Bearer ${streamer.accessToken}`, 'client-id': e.config.twitch.clientId },
      })
    ).json()) as { data: { status: string }[] };
    expect(list.data.map((s) => s.status)).toContain('websocket_disconnected');
  });
});
