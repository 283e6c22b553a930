import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { channelProviders, channelUsers, channels } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function createChannel(u: TestUser, name: string): Promise<{ id: string; display_name: string; access_level: number }> {
  const res = await t.inject(u, { method: 'POST', url: '/api/2/channels', payload: { display_name: name } });
  expect(res.statusCode).toBe(201);
  return res.json();
}

it('runs on the database the suite was started for', () => {
  expect(t.s.database.kind).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
});

describe('POST /api/2/channels', () => {
  it('creates a channel owned by the caller', async () => {
    const u = await t.createUser();
    const channel = await createChannel(u, '  My Stream  ');
    expect(channel).toMatchObject({ display_name: 'My Stream', access_level: 500, providers: [] });
  });

  it('rejects an empty or too long name with a clear message', async () => {
    const u = await t.createUser();
    const empty = await t.inject(u, { method: 'POST', url: '/api/2/channels', payload: { display_name: '   ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Enter a channel name');
    const long = await t.inject(u, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'x'.repeat(65) } });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('at most 64');
    const wrongType = await t.inject(u, { method: 'POST', url: '/api/2/channels', payload: { display_name: 5 } });
    expect(wrongType.statusCode).toBe(400);
  });

  it('needs a signed-in user', async () => {
    const res = await t.inject(null, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/2/channels', () => {
  it("lists only the caller's channels, by name, with cursor pagination and total", async () => {
    const u = await t.createUser();
    const stranger = await t.createUser();
    await createChannel(stranger, 'Hidden');
    for (const name of ['delta', 'Alpha', 'charlie', 'Bravo', 'echo']) await createChannel(u, name);
    const first = (await t.inject(u, { method: 'GET', url: '/api/2/channels?per_page=2' })).json<{
      records: { display_name: string }[];
      cursor: string | null;
      total: number;
    }>();
    expect(first.records.map((r) => r.display_name)).toEqual(['Alpha', 'Bravo']);
    expect(first.total).toBe(5);
    const names = [...first.records.map((r) => r.display_name)];
    let cursor = first.cursor;
    while (cursor) {
      const page = (await t.inject(u, { method: 'GET', url: `/api/2/channels?per_page=2&cursor=${cursor}` })).json<{
        records: { display_name: string }[];
        cursor: string | null;
      }>();
      names.push(...page.records.map((r) => r.display_name));
      cursor = page.cursor;
    }
    expect(names).toEqual(['Alpha', 'Bravo', 'charlie', 'delta', 'echo']);
  });

  it('filters by name, channel id and provider plus provider channel name', async () => {
    const u = await t.createUser();
    const a = await createChannel(u, 'Speedrun Central');
    await createChannel(u, 'Cooking Corner');
    await t.s.db
      .insert(channelProviders)
      .values({ id: newId(), channelId: a.id, provider: 'twitch', providerChannelId: '42', providerChannelName: 'SpeedRunner' });
    const byName = (await t.inject(u, { method: 'GET', url: '/api/2/channels?name=speed' })).json<{ records: { id: string }[] }>();
    expect(byName.records.map((r) => r.id)).toEqual([a.id]);
    const byId = (await t.inject(u, { method: 'GET', url: `/api/2/channels?channel_id=${a.id}` })).json<{ records: { id: string }[] }>();
    expect(byId.records.map((r) => r.id)).toEqual([a.id]);
    const byProvider = (
      await t.inject(u, { method: 'GET', url: '/api/2/channels?provider=twitch&provider_channel_name=speedrunner' })
    ).json<{ records: { id: string; providers: unknown[] }[] }>();
    expect(byProvider.records.map((r) => r.id)).toEqual([a.id]);
    expect(byProvider.records[0]!.providers).toEqual([{ provider: 'twitch', provider_channel_name: 'SpeedRunner' }]);
    const wildcard = (await t.inject(u, { method: 'GET', url: '/api/2/channels?name=%25' })).json<{ records: unknown[] }>();
    expect(wildcard.records).toEqual([]);
  });

  it('rejects a bad cursor and a bad provider with 400', async () => {
    const u = await t.createUser();
    expect((await t.inject(u, { method: 'GET', url: '/api/2/channels?cursor=garbage' })).statusCode).toBe(400);
    expect((await t.inject(u, { method: 'GET', url: '/api/2/channels?provider=myspace' })).statusCode).toBe(400);
  });
});

describe('channel identification', () => {
  it('finds one channel by id or by provider + name, and explains what is missing', async () => {
    const u = await t.createUser();
    const c = await createChannel(u, 'Lookup');
    const ok = await t.inject(u, { method: 'GET', url: `/api/2/channel?channel_id=${c.id}` });
    expect(ok.json()).toMatchObject({ id: c.id });
    const none = await t.inject(u, { method: 'GET', url: '/api/2/channel' });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('A channel id, or provider plus provider channel name, is required');
    const missing = await t.inject(u, { method: 'GET', url: `/api/2/channel?channel_id=${newId()}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Channel not found');
  });

  it("hides another user's channel behind 404", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const c = await createChannel(owner, 'Private');
    const res = await t.inject(stranger, { method: 'GET', url: `/api/2/channels/${c.id}` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ type: 'not_found', message: 'Channel not found' });
    const unknown = await t.inject(stranger, { method: 'GET', url: `/api/2/channels/${newId()}` });
    expect(unknown.json()).toEqual(res.json());
  });

  it("returns the caller's level for staff", async () => {
    const owner = await t.createUser();
    const mod = await t.createUser();
    const c = await createChannel(owner, 'Staffed');
    await t.s.db.insert(channelUsers).values({ channelId: c.id, userId: mod.id, level: 7, addedBy: owner.id });
    const res = await t.inject(mod, { method: 'GET', url: `/api/2/channels/${c.id}` });
    expect(res.json()).toMatchObject({ id: c.id, access_level: 7 });
    await t.s.db.delete(channelUsers).where(eq(channelUsers.userId, mod.id));
  });
});

describe('GET /api/2/admin/channels', () => {
  it('is refused to non-operators', async () => {
    const u = await t.createUser();
    const res = await t.inject(u, { method: 'GET', url: '/api/2/admin/channels' });
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe('forbidden');
    expect((await t.inject(null, { method: 'GET', url: '/api/2/admin/channels' })).statusCode).toBe(401);
  });

  it('lists every channel newest first with owner, 50 per page by default', async () => {
    const op = await t.createUser({ operator: true });
    const owner = await t.createUser({ displayName: 'Owner Person' });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await createChannel(owner, `Admin list ${i}`)).id);
    const res = await t.inject(op, { method: 'GET', url: '/api/2/admin/channels?name=admin%20list' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ records: { id: string; owner: { display_name: string } }[]; cursor: string | null; total: number }>();
    expect(body.records.map((r) => r.id)).toEqual([...made].reverse());
    expect(body.records[0]!.owner.display_name).toBe('Owner Person');
    expect(body.cursor).toBeNull();
    expect(body.total).toBe(3);
    const paged = (await t.inject(op, { method: 'GET', url: '/api/2/admin/channels?name=admin%20list&per_page=2' })).json<{
      records: unknown[];
      cursor: string;
    }>();
    expect(paged.records).toHaveLength(2);
    const rest = (
      await t.inject(op, { method: 'GET', url: `/api/2/admin/channels?name=admin%20list&per_page=2&cursor=${paged.cursor}` })
    ).json<{ records: { id: string }[]; cursor: null }>();
    expect(rest.records.map((r) => r.id)).toEqual([made[0]]);
    expect(rest.cursor).toBeNull();
  });

  it("shows each channel's Owner and platform connections, and a first page's total", async () => {
    const op = await t.createUser({ operator: true });
    const owner = await t.createUser({ displayName: 'Connected Owner' });
    const tag = `adm${newId().slice(-8)}`;
    const a = await createChannel(owner, `${tag} connected`);
    await t.s.db.insert(channelProviders).values({
      id: newId(),
      channelId: a.id,
      provider: 'twitch',
      providerChannelId: `${tag}-tw`,
      providerChannelName: 'TwitchName',
      scopeNeeded: true,
      createdAt: new Date('2025-01-01T00:00:00Z'),
    });
    await t.s.db.insert(channelProviders).values({
      id: newId(),
      channelId: a.id,
      provider: 'kick',
      providerChannelId: `${tag}-kk`,
      providerChannelName: 'KickName',
      isLive: true,
      createdAt: new Date('2025-01-02T00:00:00Z'),
    });
    // A channel without staff or connections (newer: ids sort by creation).
    const orphan = newId();
    await t.s.db.insert(channels).values({ id: orphan, displayName: `${tag} orphan` });
    const res = await t.inject(op, { method: 'GET', url: `/api/2/admin/channels?name=${tag}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      records: [
        { id: orphan, display_name: `${tag} orphan`, created_at: expect.any(String), owner: null, providers: [] },
        {
          id: a.id,
          display_name: `${tag} connected`,
          created_at: expect.any(String),
          owner: { id: owner.id, display_name: 'Connected Owner' },
          providers: [
            { provider: 'twitch', provider_channel_name: 'TwitchName', scope_needed: true, is_live: false },
            { provider: 'kick', provider_channel_name: 'KickName', scope_needed: false, is_live: true },
          ],
        },
      ],
      cursor: null,
      total: 2,
    });
    // Unfiltered, with a next page: the count of every channel (up to 1,000); none on a later page.
    const [{ n } = { n: 0 }] = await t.s.db.select({ n: sql<number>`count(*)::int` }).from(channels);
    const first = (await t.inject(op, { method: 'GET', url: '/api/2/admin/channels?per_page=1' })).json<{
      cursor: string;
      total?: number;
    }>();
    expect(first.total).toBe(n <= 1000 ? n : undefined);
    const second = (await t.inject(op, { method: 'GET', url: `/api/2/admin/channels?per_page=1&cursor=${first.cursor}` })).json<{
      total?: number;
    }>();
    expect(second.total).toBeUndefined();
  });

  it('treats users matching GREENROOM_ADMINS as operators', async () => {
    const t2 = await createTestApp({ env: { GREENROOM_ADMINS: 'kick:admin-77' } });
    try {
      const op = await t2.createUser({ provider: 'kick', providerUserId: 'admin-77' });
      const res = await t2.inject(op, { method: 'GET', url: '/api/2/admin/channels' });
      expect(res.statusCode).toBe(200);
      expect((await t2.inject(op, { method: 'GET', url: '/api/2/user' })).json().is_operator).toBe(true);
    } finally {
      await t2.close();
    }
  });
});
