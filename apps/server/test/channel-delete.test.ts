/**
 * Renaming (Admin) and deleting (Owner, typed name) a channel. Deleting disconnects its platforms first — the live
 * connection closes and the tokens are revoked at the platform — also when the channel goes with its Owner's account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import { AccessLevel } from '@greenroom/contracts/access';
import { channelProviders, channels, channelUsers } from '../src/db/schema';
import { createTestApp, testApps, type TestApp, type TestUser } from './helper';
import { connectChannelProvider, createChannel, until } from './platform-fixtures';

let emulator: Emulator;
let t: TestApp;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
  process.env.TWURPLE_MOCK_API_PORT = String(emulator.port);
  t = await createTestApp({ emulatorOrigin: emulator.origin });
}, 30_000);

afterAll(async () => {
  await t?.close();
  await emulator?.close();
});

async function member(channelId: string, level: number): Promise<TestUser> {
  const user = await t.createUser();
  await t.s.db.insert(channelUsers).values({ channelId, userId: user.id, level });
  return user;
}

/** A channel with the seeded Twitch streamer connected and its live connection up. */
async function channelWithTwitch(
  owner: TestUser,
  login: string,
): Promise<{ channelId: string; channelProviderId: string; twitchUserId: string }> {
  const channelId = await createChannel(t, owner, `Doomed ${login}`);
  const channelProviderId = await connectChannelProvider(t, emulator, owner, channelId, 'twitch', login);
  await until(() => t.s.connections.health(channelProviderId)?.state === 'connected');
  const twitchUserId = emulator.world.accountByLogin('twitch', login)!.id;
  expect(emulator.world.tokensOf('twitch', twitchUserId).length).toBeGreaterThan(0);
  return { channelId, channelProviderId, twitchUserId };
}

describe('PATCH /api/2/channels/{id}', () => {
  it('renames for Admins, refuses Editors and bad names', async () => {
    const owner = await t.createUser();
    const channelId = await createChannel(t, owner, 'Old name');
    const editor = await member(channelId, AccessLevel.EDITOR);
    const admin = await member(channelId, AccessLevel.ADMIN);
    expect(
      (await t.inject(editor, { method: 'PATCH', url: `/api/2/channels/${channelId}`, payload: { display_name: 'Nope' } })).statusCode,
    ).toBe(403);
    const bad = await t.inject(admin, { method: 'PATCH', url: `/api/2/channels/${channelId}`, payload: { display_name: ' ' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'validation_error' });
    const ok = await t.inject(admin, { method: 'PATCH', url: `/api/2/channels/${channelId}`, payload: { display_name: '  New name ' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ id: channelId, display_name: 'New name', access_level: AccessLevel.ADMIN });
  });
});

describe('DELETE /api/2/channels/{id}', () => {
  it('is for the Owner only and needs the exact channel name', async () => {
    const owner = await t.createUser();
    const channelId = await createChannel(t, owner, 'Keep me');
    const admin = await member(channelId, AccessLevel.ADMIN);
    expect((await t.inject(admin, { method: 'DELETE', url: `/api/2/channels/${channelId}?name=Keep%20me` })).statusCode).toBe(403);
    const wrong = await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${channelId}?name=keep%20me` });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Type the channel name "Keep me" exactly to confirm.');
    expect(await t.s.db.select().from(channels).where(eq(channels.id, channelId))).toHaveLength(1);
  });

  it('disconnects every platform (connection closed, tokens revoked) and deletes the channel with its staff', async () => {
    const owner = await t.createUser();
    const { channelId, channelProviderId, twitchUserId } = await channelWithTwitch(owner, 'pixelpioneer');
    await member(channelId, AccessLevel.MOD);
    const res = await t.inject(owner, {
      method: 'DELETE',
      url: `/api/2/channels/${channelId}?name=${encodeURIComponent('Doomed pixelpioneer')}`,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(t.s.connections.health(channelProviderId)).toBeNull();
    expect(emulator.world.tokensOf('twitch', twitchUserId)).toEqual([]);
    expect(await t.s.db.select().from(channels).where(eq(channels.id, channelId))).toEqual([]);
    expect(await t.s.db.select().from(channelProviders).where(eq(channelProviders.channelId, channelId))).toEqual([]);
    expect(await t.s.db.select().from(channelUsers).where(eq(channelUsers.channelId, channelId))).toEqual([]);
    expect((await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}` })).statusCode).toBe(404);
  });

  it('happens through account deletion too, for channels the user solely owns', async () => {
    const owner = await t.createUser({ displayName: 'Leaving Larry' });
    const { channelId, channelProviderId, twitchUserId } = await channelWithTwitch(owner, 'nightowlgg');
    const res = await t.inject(owner, { method: 'DELETE', url: '/api/2/user?username=Leaving%20Larry' });
    expect(res.statusCode, res.body).toBe(204);
    expect(t.s.connections.health(channelProviderId)).toBeNull();
    expect(emulator.world.tokensOf('twitch', twitchUserId)).toEqual([]);
    expect(await t.s.db.select().from(channels).where(eq(channels.id, channelId))).toEqual([]);
  });
});
