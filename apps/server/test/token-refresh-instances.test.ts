/**
 * Two instances holding one credential whose refresh token rotates (Twitch and Kick rotate it; the emulator too):
 * when one refreshed, the other adopts the stored tokens instead of spending the old refresh token (which the
 * platform refuses) and marking the connection "reconnect needed"; with the instances' lock around a refresh, two
 * refreshing at once ask the platform once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import { openDatabase, type Database } from '../src/db/client';
import { channelProviders } from '../src/db/schema';
import { TokenCipher } from '../src/lib/crypto';
import { newId } from '../src/lib/ids';
import { ChannelService } from '../src/modules/channels';
import { UserService } from '../src/modules/user';
import { emulatorEndpoints } from '../src/platforms/endpoints';
import { scopesFor } from '../src/platforms/scopes';
import { CredentialRepository, TokenSources, type CredentialRef } from '../src/platforms/tokens';
import { testApps } from './helper';

let emulator: Emulator;
let database: Database;
const cipher = new TokenCipher('a'.repeat(64));
const quiet = { warn: () => undefined };

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
  database = await openDatabase({ url: process.env.TEST_DATABASE_URL });
}, 60_000);
afterAll(async () => {
  await database?.close();
  await emulator?.close();
});

/** A channel with Twitch connected (a refreshable token of the emulator's greenroomdemo). */
async function connected(): Promise<CredentialRef & { kind: 'broadcaster' }> {
  const user = await new UserService(database.db, cipher, { disconnectPlatforms: async () => {} }).signIn(
    'twitch',
    { providerUserId: newId(), login: 'owner', displayName: 'Owner', avatarUrl: null },
    { accessToken: 'a', refreshToken: 'r', expiresAt: null, scopes: [] },
  );
  const channelId = (
    await new ChannelService(database.db, { audit: { record: async () => {} }, disconnectPlatforms: async () => {} }).create(
      user.id,
      'Tokens',
    )
  ).id;
  const account = emulator.world.accountByLogin('twitch', 'greenroomdemo')!;
  const token = emulator.world.issueToken({
    platform: 'twitch',
    clientId: testApps.twitch.clientId,
    userId: account.id,
    scopes: scopesFor.twitch.channel,
    ttlSeconds: 3600,
    refreshable: true,
  });
  const id = newId();
  await database.db.insert(channelProviders).values({
    id,
    channelId,
    provider: 'twitch',
    providerChannelId: account.id,
    providerChannelName: account.login,
    accessTokenEnc: cipher.encrypt(token.accessToken),
    refreshTokenEnc: cipher.encrypt(token.refreshToken!),
    tokenExpiresAt: new Date(Date.now() + 3_600_000),
    scopes: scopesFor.twitch.channel,
  });
  return { kind: 'broadcaster', channelProviderId: id };
}

/** One instance's token sources. */
function instance(lock?: (key: string) => Promise<() => Promise<void>>) {
  const refused: string[] = [];
  const sources = new TokenSources({
    repository: new CredentialRepository(database.db, cipher),
    endpoints: emulatorEndpoints(emulator.origin, testApps),
    log: quiet,
    onReauthRequired: (_ref, detail) => refused.push(detail),
    ...(lock ? { lock } : {}),
  });
  return { sources, refused };
}

/** An in-process stand-in for the instances' Redis lock (tested on Redis in cluster-redis.test.ts). */
function sharedLock() {
  const tails = new Map<string, Promise<void>>();
  return async (key: string) => {
    const before = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    tails.set(
      key,
      before.then(() => mine),
    );
    await before;
    return async () => release();
  };
}

const refreshes = () => emulator.world.tokens.size;

describe('token refresh across instances', () => {
  it('the second instance adopts what the first stored instead of spending the rotated refresh token', async () => {
    const ref = await connected();
    const [a, b] = [instance(), instance()];
    const [sa, sb] = [(await a.sources.get(ref))!, (await b.sources.get(ref))!];
    const old = sa.current;
    expect(sb.current).toBe(old);
    const fresh = await sa.refreshAfterUnauthorized(old);
    expect(fresh).not.toBe(old);
    // B still holds the old tokens; the platform refused its access token.
    expect(await sb.refreshAfterUnauthorized(old)).toBe(fresh);
    expect(sb.reauthRequired).toBe(false);
    expect([...a.refused, ...b.refused]).toEqual([]);
    const [row] = await database.db.select().from(channelProviders).where(eq(channelProviders.id, ref.channelProviderId));
    expect(row!.scopeNeeded).toBe(false);
    expect(cipher.decrypt(row!.accessTokenEnc!)).toBe(fresh);
  });

  it('two instances refreshing at once under the lock ask the platform once and both end with the stored token', async () => {
    const ref = await connected();
    const lock = sharedLock();
    const [a, b] = [instance(lock), instance(lock)];
    const [sa, sb] = [(await a.sources.get(ref))!, (await b.sources.get(ref))!];
    const old = sa.current;
    const before = refreshes();
    const [ta, tb] = await Promise.all([sa.refreshAfterUnauthorized(old), sb.refreshAfterUnauthorized(old)]);
    expect(ta).toBe(tb);
    expect(refreshes() - before).toBe(1);
    expect([...a.refused, ...b.refused]).toEqual([]);
  });
});
