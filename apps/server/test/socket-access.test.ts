/**
 * Open sockets follow access: the staff chat and providers sockets close when the member is removed,
 * leaves, signs out, deletes their account, or the channel is deleted — with the close code the web
 * app explains — and a periodic re-check closes them when no event said so.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import { LiveCloseCode } from '@greenroom/contracts/api/live';
import { channelUsers, sessions } from '../src/db/schema';
import { LocalEventBus } from '../src/lib/event-bus';
import { followAccess } from '../src/plugins/socket-access';
import { SocketClient } from './chat-world';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let base: string;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  owner = await t.createUser({ displayName: 'Owner' });
});
afterAll(async () => {
  await t?.close();
});

async function channelWith(level: number) {
  const channelId = (await t.s.channels.create(owner.id, `Channel ${Math.random()}`)).id;
  const member = await t.createUser({ displayName: 'Member' });
  await t.s.db.insert(channelUsers).values({ channelId, userId: member.id, level });
  return { channelId, member };
}

async function sockets(channelId: string, user: TestUser): Promise<SocketClient[]> {
  const list = [
    new SocketClient(`${base}/api/2/channels/${channelId}/chat-ws`, user.token),
    new SocketClient(`${base}/api/2/channels/${channelId}/providers-ws`, user.token),
  ];
  await Promise.all(list.map((s) => s.opened()));
  return list;
}

async function closedWith(list: SocketClient[], code: number) {
  for (const s of list) await s.waitFor(() => s.closed, 5000);
  expect(list.map((s) => s.closed?.code)).toEqual(list.map(() => code));
}

describe('sockets follow access', () => {
  it('close when the member is removed', async () => {
    const { channelId, member } = await channelWith(AccessLevel.MOD);
    const open = await sockets(channelId, member);
    const res = await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${channelId}/users/${member.id}` });
    expect(res.statusCode).toBe(204);
    await closedWith(open, LiveCloseCode.ACCESS_LOST);
  });

  it('close when the member leaves; a demotion that keeps the level the socket needs does not close it', async () => {
    const { channelId, member } = await channelWith(AccessLevel.ADMIN);
    const open = await sockets(channelId, member);
    const demote = await t.inject(owner, {
      method: 'PATCH',
      url: `/api/2/channels/${channelId}/users/${member.id}`,
      payload: { level: AccessLevel.MOD },
    });
    expect(demote.statusCode).toBe(200);
    // Still open: a ping is answered after the change.
    open[0]!.ws.send(JSON.stringify({ type: 'ping' }));
    await open[0]!.waitFor((f) => f.some((x) => x.type === 'pong'));
    expect(open.every((s) => s.closed === null)).toBe(true);
    expect((await t.inject(member, { method: 'POST', url: `/api/2/channels/${channelId}/leave` })).statusCode).toBe(204);
    await closedWith(open, LiveCloseCode.ACCESS_LOST);
  });

  it('close when the session ends (sign-out); the same user’s other session stays open', async () => {
    const { channelId, member } = await channelWith(AccessLevel.MOD);
    const other = await t.s.sessions.create(member.id);
    const open = await sockets(channelId, member);
    const elsewhere = new SocketClient(`${base}/api/2/channels/${channelId}/chat-ws`, other.token);
    await elsewhere.opened();
    expect((await t.inject(member, { method: 'POST', url: '/api/2/auth/sign-out' })).statusCode).toBeLessThan(300);
    await closedWith(open, LiveCloseCode.SESSION_ENDED);
    elsewhere.ws.send(JSON.stringify({ type: 'ping' }));
    await elsewhere.waitFor((f) => f.some((x) => x.type === 'pong'));
    expect(elsewhere.closed).toBeNull();
    elsewhere.close();
  });

  it('close when the account is deleted', async () => {
    const { channelId, member } = await channelWith(AccessLevel.MOD);
    const open = await sockets(channelId, member);
    const res = await t.inject(member, { method: 'DELETE', url: `/api/2/user?username=${encodeURIComponent(member.displayName)}` });
    expect(res.statusCode).toBe(204);
    await closedWith(open, LiveCloseCode.SESSION_ENDED);
  });

  it('close when the channel is deleted (the public popout too)', async () => {
    const { channelId, member } = await channelWith(AccessLevel.MOD);
    const open = await sockets(channelId, member);
    const popout = new SocketClient(`${base}/api/2/public/channels/${channelId}/chat-ws`);
    await popout.opened();
    const name = await t.s.channels.displayName(channelId);
    const res = await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${channelId}?name=${encodeURIComponent(name)}` });
    expect(res.statusCode).toBe(204);
    await closedWith([...open, popout], LiveCloseCode.CHANNEL_DELETED);
  });

  it('the periodic re-check closes a socket whose access ended without an event', async () => {
    const { channelId, member } = await channelWith(AccessLevel.MOD);
    const user = { id: member.id, displayName: member.displayName, avatarUrl: null, isOperator: false };
    const closes: number[] = [];
    const socket = { close: (code?: number) => void closes.push(code ?? 0) };
    const deps = { db: t.s.db, bus: new LocalEventBus(), sessions: t.s.sessions, recheckMs: 20 };
    const stop = followAccess(deps, socket, { channelId, user, sessionId: member.sessionId, minLevel: AccessLevel.MOD });
    await new Promise((r) => setTimeout(r, 80));
    expect(closes).toEqual([]);
    await t.s.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, member.sessionId));
    for (let i = 0; i < 200 && closes.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(closes).toEqual([LiveCloseCode.SESSION_ENDED]);
    stop();

    // Lowered below a route's level by another instance (no event here): closed by the re-check too.
    const second = await channelWith(AccessLevel.EDITOR);
    const user2 = { id: second.member.id, displayName: 'M', avatarUrl: null, isOperator: false };
    const stop2 = followAccess(deps, socket, {
      channelId: second.channelId,
      user: user2,
      sessionId: second.member.sessionId,
      minLevel: AccessLevel.EDITOR,
    });
    await t.s.db.update(channelUsers).set({ level: AccessLevel.MOD }).where(eq(channelUsers.userId, second.member.id));
    for (let i = 0; i < 200 && closes.length === 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect(closes).toEqual([LiveCloseCode.SESSION_ENDED, LiveCloseCode.ACCESS_LOST]);
    stop2();
  });

  it('an access event lowering the level below what the socket needs closes it', () => {
    const bus = new LocalEventBus();
    const closes: number[] = [];
    const user = { id: 'u1', displayName: 'U', avatarUrl: null, isOperator: false };
    const stop = followAccess(
      { db: t.s.db, bus, sessions: t.s.sessions },
      { close: (c?: number) => void closes.push(c ?? 0) },
      {
        channelId: 'c1',
        user,
        sessionId: 's1',
        minLevel: AccessLevel.EDITOR,
      },
    );
    bus.publish('channel:c1', { type: 'access.changed', data: { channel_id: 'c1', user_id: 'someone-else', level: null } });
    bus.publish('channel:c1', { type: 'access.changed', data: { channel_id: 'c1', user_id: 'u1', level: AccessLevel.ADMIN } });
    expect(closes).toEqual([]);
    bus.publish('channel:c1', { type: 'access.changed', data: { channel_id: 'c1', user_id: 'u1', level: AccessLevel.MOD } });
    expect(closes).toEqual([LiveCloseCode.ACCESS_LOST]);
    stop();
  });
});
