/**
 * An action never escapes the audit log: input a platform or the database cannot take is refused before
 * anything is done (nothing at the platform, nothing in the database), and what was done is recorded even
 * when answering fails afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccessLevel } from '@greenroom/contracts/access';
import type { AuditLogEntry } from '@greenroom/contracts/api/staff';
import { auditLog, channels } from '../src/db/schema';
import type { TestUser } from './helper';
import { startChatWorld, type ChatWorld } from './chat-world';
import { actionsSince, control, lastActionSeq } from './platform-fixtures';

let world: ChatWorld;
let admin: TestUser;

beforeAll(async () => {
  world = await startChatWorld('Validated');
  admin = await world.member('Ada', AccessLevel.ADMIN);
}, 60_000);
afterAll(async () => world?.close());

const auditCount = async () => (await world.t.s.db.select().from(auditLog).where(eq(auditLog.channelId, world.channelId))).length;

describe('validate before acting', () => {
  it('a ban, a title change or a rename with NUL or an unpaired surrogate is refused and nothing happens', async () => {
    const { t, channelId, cp } = world;
    const viewer = await world.newViewer('twitch', 'Target');
    const since = await lastActionSeq(world.emulator);
    const before = await auditCount();
    const attempts = [
      t.inject(admin, {
        method: 'POST',
        url: `/api/2/channels/${channelId}/twitch/${cp.twitch}/ban`,
        payload: { provider_viewer_id: viewer.id, reason: 'spam\u0000' },
      }),
      t.inject(admin, {
        method: 'PATCH',
        url: `/api/2/channels/${channelId}/providers/${cp.twitch}/stream-info`,
        headers: { 'content-type': 'application/json' },
        payload: '{"title":"New \\ud800 title"}',
      }),
      t.inject(admin, { method: 'PATCH', url: `/api/2/channels/${channelId}`, payload: { display_name: 'Renamed\u0000' } }),
      t.inject(admin, {
        method: 'PATCH',
        url: `/api/2/channels/${channelId}`,
        headers: { 'content-type': 'application/json' },
        payload: '{"display_name":"Renamed \\udc00"}',
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().type).toBe('bad_request');
    }
    expect(await actionsSince(world.emulator, 'twitch', since)).toEqual([]);
    const [row] = await t.s.db.select().from(channels).where(eq(channels.id, channelId));
    expect(row!.displayName).toBe('Validated');
    expect(await auditCount()).toBe(before);
  });

  it('a title change the platform made is in the audit log even when reading it back fails', async () => {
    const { t, channelId, cp } = world;
    // Twitch takes the change (PATCH /channels), then reading the stream back (GET /streams) fails.
    await control(world.emulator, 'POST', '/faults', { platform: 'twitch', match: '/mock/streams', kind: 'status', status: 503, count: 5 });
    const res = await t.inject(admin, {
      method: 'PATCH',
      url: `/api/2/channels/${channelId}/providers/${cp.twitch}/stream-info`,
      payload: { title: 'Changed while reads fail' },
    });
    await control(world.emulator, 'DELETE', '/faults');
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    const log = await t.inject(admin, { method: 'GET', url: `/api/2/channels/${channelId}/audit-log?action=stream.updated` });
    expect(log.json<{ records: AuditLogEntry[] }>().records[0]).toMatchObject({
      actor: { id: admin.id },
      data: { provider: 'twitch', title: 'Changed while reads fail' },
    });
  });
});
