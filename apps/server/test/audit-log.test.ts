/**
 * The audit log API: filters by action (one action, or a whole area) and by person, the people to filter by,
 * and rows that are always written (text PostgreSQL cannot store is made storable, never dropped).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import type { AuditLogEntry, UserRef } from '@greenroom/contracts/api/staff';
import { channelUsers } from '../src/db/schema';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let owner: TestUser;
let mod: TestUser;
let channelId: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Olive' });
  mod = await t.createUser({ displayName: 'Mona' });
  channelId = (await t.s.channels.create(owner.id, 'Audited')).id;
  await t.s.db.insert(channelUsers).values({ channelId, userId: mod.id, level: AccessLevel.MOD });
  const rows: [TestUser, string, Record<string, unknown>][] = [
    [mod, 'moderation.timeout', { provider: 'twitch', viewer_display_name: 'Troll', duration_seconds: 600 }],
    [mod, 'moderation.ban', { provider: 'kick', viewer_display_name: 'Spammer' }],
    [owner, 'moderation_extra.ban', {}],
    [owner, 'channel.renamed', { from: 'Old', to: 'Audited' }],
    [mod, 'chat.sent', { provider: 'twitch', as: 'bot', account: 'GreenroomBot', text: 'hi' }],
  ];
  for (const [user, action, data] of rows) await t.s.audit.record({ channelId, actorUserId: user.id, action, data });
});
afterAll(async () => t.close());

async function list(query: string): Promise<AuditLogEntry[]> {
  const res = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/audit-log${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ records: AuditLogEntry[] }>().records;
}

describe('audit log filters', () => {
  it('by area, by action and by person, combined', async () => {
    expect((await list('?action=moderation')).map((e) => e.action)).toEqual(['moderation.ban', 'moderation.timeout']);
    expect((await list('?action=moderation.ban')).map((e) => e.action)).toEqual(['moderation.ban']);
    expect((await list(`?actor_user_id=${owner.id}`)).map((e) => e.action)).toEqual(['channel.renamed', 'moderation_extra.ban']);
    expect((await list(`?action=chat&actor_user_id=${mod.id}`)).map((e) => e.data.account)).toEqual(['GreenroomBot']);
    expect(await list('?action=nothing')).toEqual([]);
    const bad = await t.inject(owner, {
      method: 'GET',
      url: `/api/2/channels/${channelId}/audit-log?action=${encodeURIComponent("x' or 1=1")}`,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('lists the people who appear in the log, by name, for Admins only', async () => {
    const res = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/audit-log/actors` });
    expect(res.json<UserRef[]>()).toEqual([
      { id: mod.id, display_name: 'Mona' },
      { id: owner.id, display_name: 'Olive' },
    ]);
    expect((await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/audit-log/actors` })).statusCode).toBe(403);
  });

  it('writes a row whose details hold NUL or an unpaired surrogate (made storable, not lost)', async () => {
    await t.s.audit.record({ channelId, actorUserId: owner.id, action: 'test.hostile', data: { name: 'a\u0000b', other: 'x\ud800y' } });
    const [row] = await list('?action=test.hostile');
    expect(row!.data).toEqual({ name: 'a\uFFFDb', other: 'x\uFFFDy' });
  });
});
