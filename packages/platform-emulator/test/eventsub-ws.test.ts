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

function open(url: string): Promise<{ ws: WebSocket; frames: Frame[]; closed: Promise<number> }> {
  const ws = new WebSocket(url);
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
