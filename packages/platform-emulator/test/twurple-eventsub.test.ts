/** @twurple/eventsub-ws, unmodified, against the emulator's EventSub WebSocket (TWURPLE_MOCK_API_PORT layout). */
import { ApiClient } from '@twurple/api';
import { RefreshingAuthProvider } from '@twurple/auth';
import { EventSubWsListener } from '@twurple/eventsub-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index';
import { emulator, postJson, twitchUserToken, until, type TwitchTokens } from './helpers';

let e: Emulator;
let streamer: TwitchTokens;
let listener: EventSubWsListener;
const chat: { id: string; text: string; chatter: string; parentId: string | null }[] = [];
const follows: string[] = [];
const raids: { from: string; viewers: number }[] = [];
const revoked: string[] = [];
let created = 0;
let disconnects = 0;

beforeAll(async () => {
  e = await emulator();
  process.env.TWURPLE_MOCK_API_PORT = String(e.port);
  // Short keepalive so the keepalive path is exercised within the test.
  await postJson(`${e.origin}/_emulator/twitch/eventsub/settings`, { keepaliveSeconds: 1 }, 'PUT');
  streamer = await twitchUserToken(e, 'greenroomdemo', ['user:read:chat', 'moderator:read:followers']);
  const auth = new RefreshingAuthProvider({ clientId: e.config.twitch.clientId, clientSecret: e.config.twitch.clientSecret });
  auth.addUser(streamer.userId, {
    accessToken: streamer.accessToken,
    refreshToken: streamer.refreshToken,
    expiresIn: streamer.expiresIn,
    obtainmentTimestamp: Date.now(),
    scope: streamer.scope,
  });
  listener = new EventSubWsListener({ apiClient: new ApiClient({ authProvider: auth }) });
  listener.onSubscriptionCreateSuccess(() => created++);
  listener.onUserSocketDisconnect(() => disconnects++);
  listener.onRevoke((sub) => revoked.push(sub.id));
  listener.onChannelChatMessage(streamer.userId, streamer.userId, (m) =>
    chat.push({ id: m.messageId, text: m.messageText, chatter: m.chatterName, parentId: m.parentMessageId }),
  );
  listener.onChannelFollow(streamer.userId, streamer.userId, (f) => follows.push(f.userName));
  listener.onChannelRaidTo(streamer.userId, (r) => raids.push({ from: r.raidingBroadcasterName, viewers: r.viewers }));
  listener.start();
  await until(() => created === 3);
});

afterAll(async () => {
  listener.stop();
  delete process.env.TWURPLE_MOCK_API_PORT;
  await e.close();
});

async function inject(text: string, user?: string, replyTo?: string): Promise<string> {
  const res = await postJson(`${e.origin}/_emulator/chat`, {
    platform: 'twitch',
    channel: 'greenroomdemo',
    text,
    ...(user ? { user } : {}),
    ...(replyTo ? { replyTo } : {}),
  });
  return ((await res.json()) as { id: string }).id;
}

describe('EventSub WebSocket through @twurple/eventsub-ws', () => {
  it('welcomes, accepts the subscriptions on the session, and lists them', async () => {
    const state = (await (await fetch(`${e.origin}/_emulator/twitch/eventsub`)).json()) as {
      sessions: { userId: string; subscriptions: string[] }[];
    };
    expect(state.sessions).toHaveLength(1);
    expect(state.sessions[0]!.userId).toBe(streamer.userId);
    expect(state.sessions[0]!.subscriptions).toHaveLength(3);
  });

  it('delivers chat messages (with reply threading) injected as a viewer', async () => {
    const parent = await inject('first message Kappa', 'greenroombot');
    await inject('replying', undefined, parent);
    await until(() => chat.length >= 2);
    expect(chat[0]).toMatchObject({ id: parent, text: 'first message Kappa', chatter: 'greenroombot' });
    expect(chat[1]!.parentId).toBe(parent);
  });

  it('delivers follows and raids', async () => {
    await postJson(`${e.origin}/_emulator/events`, { platform: 'twitch', channel: 'greenroomdemo', type: 'follow', user: 'helperbot' });
    await postJson(`${e.origin}/_emulator/events`, {
      platform: 'twitch',
      channel: 'greenroomdemo',
      type: 'raid',
      user: 'pixelpioneer',
      data: { viewers: 77 },
    });
    await until(() => follows.length === 1 && raids.length === 1);
    expect(follows).toEqual(['helperbot']);
    expect(raids).toEqual([{ from: 'pixelpioneer', viewers: 77 }]);
  });

  it('keeps the idle socket alive with session_keepalive', async () => {
    const before = e.world.listenerCount('chat');
    await until(
      async () =>
        ((await (await fetch(`${e.origin}/_emulator/twitch/eventsub`)).json()) as { stats: { keepalives: number } }).stats.keepalives >= 3,
    );
    expect(disconnects).toBe(0);
    expect(e.world.listenerCount('chat')).toBe(before);
  });

  it('moves the session on session_reconnect without losing deliveries', async () => {
    chat.length = 0;
    const before = (await stateOf()).sessions;
    const res = await postJson(`${e.origin}/_emulator/twitch/eventsub/reconnect`, {});
    expect(((await res.json()) as { reconnecting: number }).reconnecting).toBe(1);
    const sent: string[] = [];
    for (let i = 0; i < 50; i++) sent.push(await inject(`during reconnect ${i}`));
    await until(() => chat.length >= 50);
    expect(chat.map((m) => m.id)).toEqual(sent);
    // The new connection is a new session (twitch-cli's behaviour) holding the same subscriptions.
    const after = (await stateOf()).sessions;
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before[0]!.id);
    expect([...after[0]!.subscriptions].sort()).toEqual([...before[0]!.subscriptions].sort());
    expect(e.ctx.world.listenerCount('chat')).toBeGreaterThan(0);
    expect(
      ((await (await fetch(`${e.origin}/_emulator/twitch/eventsub`)).json()) as { stats: { reconnects: number } }).stats.reconnects,
    ).toBe(1);
    expect(created).toBe(3); // twurple did not need to subscribe again
    expect(disconnects).toBe(0);
  });

  it('sends revocation when the user revokes the app', async () => {
    await postJson(`${e.origin}/_emulator/tokens/revoke`, { platform: 'twitch', userId: streamer.userId });
    await until(() => revoked.length === 3);
    expect((await stateOf()).sessions[0]?.subscriptions ?? []).toHaveLength(0);
  });
});

async function stateOf(): Promise<{ sessions: { id: string; subscriptions: string[] }[] }> {
  return (await (await fetch(`${e.origin}/_emulator/twitch/eventsub`)).json()) as { sessions: { id: string; subscriptions: string[] }[] };
}
