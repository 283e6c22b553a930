/**
 * Several Greenroom channels backed by one Twitch account. Twitch lets one user token hold at most 3 EventSub
 * WebSocket connections with subscriptions (the emulator refuses the 4th with 429, as Twitch does), so the
 * product keeps one connection per account, shared by all its Greenroom channels: five channels here all
 * receive chat and stay connected through a session_reconnect and through disconnecting the channel whose
 * token the subscriptions were made with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import type { ChannelStreamEvent } from '@greenroom/contracts/api/events';
import { createTestApp, testApps, type TestApp, type TestUser } from './helper';
import { connectChannelProvider, control, createChannel, providersOf, until } from './platform-fixtures';

let e: Emulator;
let t: TestApp;
let owner: TestUser;
const channels: { id: string; cp: string; chat: string[] }[] = [];

interface EventSubState {
  sessions: { id: string; userId: string | null; subscriptions: string[] }[];
  stats: { reconnects: number };
}

const eventSub = () => control<EventSubState>(e, 'GET', '/twitch/eventsub');

beforeAll(async () => {
  e = await startEmulator({ port: 0, apps: testApps, crowd: false });
  process.env.TWURPLE_MOCK_API_PORT = String(e.port);
  t = await createTestApp({ emulatorOrigin: e.origin });
  owner = await t.createUser({ displayName: 'Network owner' });
  for (let i = 0; i < 5; i++) {
    const id = await createChannel(t, owner, `Show ${i + 1}`);
    const chat: string[] = [];
    t.s.bus.subscribe(`channel:${id}`, (event) => {
      const ev = event as ChannelStreamEvent;
      if (ev.type === 'chat.message') chat.push(ev.data.provider_message_id);
    });
    const cp = await connectChannelProvider(t, e, owner, id, 'twitch', 'greenroomdemo');
    channels.push({ id, cp, chat });
  }
});

afterAll(async () => {
  await t?.close();
  await e?.close();
  delete process.env.TWURPLE_MOCK_API_PORT;
});

async function allConnected(list = channels): Promise<boolean> {
  for (const c of list) {
    const p = (await providersOf(t, owner, c.id)).find((x) => x.id === c.cp);
    if (p?.health?.state !== 'connected') return false;
  }
  return true;
}

async function everyoneGets(text: string, list = channels): Promise<void> {
  const { id } = await control<{ id: string }>(e, 'POST', '/chat', { platform: 'twitch', channel: 'greenroomdemo', text });
  await until(() => list.every((c) => c.chat.includes(id)));
  for (const c of list) expect(c.chat.filter((m) => m === id)).toHaveLength(1);
}

describe('five Greenroom channels on one Twitch account', () => {
  it('share one EventSub connection: all connected, each gets every message once', async () => {
    await until(() => allConnected(), 20_000);
    const state = await eventSub();
    const streamer = e.world.accountByLogin('twitch', 'greenroomdemo')!.id;
    expect(state.sessions.filter((s) => s.userId === streamer)).toHaveLength(1);
    await everyoneGets('hello all five');
  });

  it('stays one connection through session_reconnect (new session id), without losing a message', async () => {
    const [before] = (await eventSub()).sessions;
    await control(e, 'POST', '/twitch/eventsub/reconnect', { sessionId: before!.id });
    await until(async () => (await eventSub()).stats.reconnects >= 1);
    const after = (await eventSub()).sessions;
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before!.id);
    await everyoneGets('after the reconnect');
  });

  it('continues for the others when the channel whose token made the subscriptions disconnects', async () => {
    const first = channels.shift()!;
    const del = await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${first.id}/providers/${first.cp}` });
    expect(del.statusCode).toBe(204);
    await until(() => allConnected(), 20_000);
    await until(async () => (await eventSub()).sessions.filter((s) => s.subscriptions.length > 0).length === 1);
    await everyoneGets('four left');
    expect(first.chat).not.toContain(channels[0]!.chat.at(-1));
  });
});
