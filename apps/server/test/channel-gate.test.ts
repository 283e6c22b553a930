/**
 * The gate reads a channel route's session and the caller's standing in the channel in one statement
 * (SessionService.lookup with a channel id): nothing of it is kept between requests, so every change
 * of session or role decides the very next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { AccessLevel } from '@greenroom/contracts/access';
import { channelUsers } from '../src/db/schema';
import { GATE_MESSAGES } from '../src/plugins/auth';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function channelOf(owner: TestUser, name = `Gate ${Math.random()}`): Promise<string> {
  const res = await t.inject(owner, { method: 'POST', url: '/api/2/channels', payload: { display_name: name } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

const get = (user: TestUser, url: string) => t.inject(user, { method: 'GET', url });

describe('channel routes: session and role read together, on every request', () => {
  it('refuses a member removed, or demoted below the level, on the very next request, and lets them back in when re-added', async () => {
    const owner = await t.createUser();
    const mod = await t.createUser();
    const channel = await channelOf(owner);
    const history = `/api/2/channels/${channel}/chat/messages`;
    expect((await get(mod, history)).statusCode).toBe(404);
    await t.s.db.insert(channelUsers).values({ channelId: channel, userId: mod.id, level: AccessLevel.ADMIN, addedBy: owner.id });
    expect((await get(mod, history)).statusCode).toBe(200);
    expect((await get(mod, `/api/2/channels/${channel}/audit-log`)).statusCode).toBe(200);
    await t.s.db
      .update(channelUsers)
      .set({ level: AccessLevel.MOD })
      .where(and(eq(channelUsers.channelId, channel), eq(channelUsers.userId, mod.id)));
    const below = await get(mod, `/api/2/channels/${channel}/audit-log`);
    expect(below.statusCode).toBe(403);
    expect(below.json<{ message: string }>().message).toBe(GATE_MESSAGES.belowLevel);
    expect((await get(mod, history)).statusCode).toBe(200);
    await t.s.db.delete(channelUsers).where(and(eq(channelUsers.channelId, channel), eq(channelUsers.userId, mod.id)));
    const gone = await get(mod, history);
    expect(gone.statusCode).toBe(404);
    expect(gone.json<{ message: string }>().message).toBe(GATE_MESSAGES.channelNotFound);
  });

  it('refuses a signed-out session on the very next request', async () => {
    const owner = await t.createUser();
    const channel = await channelOf(owner);
    expect((await get(owner, `/api/2/channels/${channel}/chat/messages`)).statusCode).toBe(200);
    await t.s.sessions.revoke(owner.sessionId);
    const res = await get(owner, `/api/2/channels/${channel}/chat/messages`);
    expect(res.statusCode).toBe(401);
    expect(res.json<{ type: string }>().type).toBe('unauthenticated');
  });

  it('gives an operator support access to a channel that exists, 404 for one that does not, and keeps a higher own level', async () => {
    const owner = await t.createUser();
    const operator = await t.createUser({ operator: true });
    const channel = await channelOf(owner);
    expect((await get(operator, `/api/2/channels/${channel}/audit-log`)).statusCode).toBe(200);
    expect((await get(operator, `/api/2/channels/ch-missing/audit-log`)).statusCode).toBe(404);
    expect((await get(operator, `/api/2/channels/${'x'.repeat(65)}/audit-log`)).statusCode).toBe(404);
    // Support access is Admin: an Owner-only action is refused in another's channel, allowed in the operator's own.
    const refused = await t.inject(operator, { method: 'DELETE', url: `/api/2/channels/${channel}?name=x` });
    expect(refused.statusCode).toBe(403);
    const own = await channelOf(operator, 'Operated');
    expect((await t.inject(operator, { method: 'DELETE', url: `/api/2/channels/${own}?name=Operated` })).statusCode).toBe(204);
    // A stranger gets 404 for a channel that exists, as for one that does not.
    const stranger = await t.createUser();
    expect((await get(stranger, `/api/2/channels/${channel}/audit-log`)).statusCode).toBe(404);
  });
});
