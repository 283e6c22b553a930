import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import type { SystemBotProvider } from '@greenroom/contracts/api/system-bots';
import { systemBots } from '../src/db/schema';
import { emulatorEndpoints, type OAuthProvider } from '../src/platforms/endpoints';
import { createTestApp, testApps, type TestApp, type TestUser } from './helper';

let emulator: Emulator;
let t: TestApp;
beforeAll(async () => {
  emulator = await startEmulator({ apps: testApps });
  t = await createTestApp({ endpoints: emulatorEndpoints(emulator.origin, testApps), emulatorOrigin: emulator.origin });
});
afterAll(async () => {
  await t.close();
  await emulator.close();
});

/** Runs the connect popup flow for a system bot, approving as the emulator account `login`. */
async function connectSystemBot(operator: TestUser, provider: OAuthProvider, login: string): Promise<string> {
  const start = await t.inject(operator, {
    method: 'GET',
    url: `/api/2/${provider}/connect-chat-url?system_bot=true&redirect_to=/user-provider-connected`,
  });
  expect(start.statusCode).toBe(200);
  const stateCookie = start.cookies.find((c) => c.name === 'gr_oauth_state');
  expect(stateCookie).toBeDefined();
  const authorize = new URL(start.json<{ url: string }>().url);
  authorize.searchParams.set('emulator_account', login);
  const approved = await fetch(authorize, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  const back = new URL(approved.headers.get('location') ?? '');
  const callback = await t.inject(operator, {
    method: 'POST',
    url: `/api/2/auth/${provider}/callback`,
    headers: { cookie: `${operator.headers.cookie}; gr_oauth_state=${stateCookie!.value}` },
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(callback.statusCode).toBe(200);
  return callback.json<{ redirect_to: string }>().redirect_to;
}

describe('system bots', () => {
  it('are for operators only', async () => {
    const user = await t.createUser();
    expect((await t.inject(user, { method: 'GET', url: '/api/2/system-bot-providers' })).statusCode).toBe(403);
    expect((await t.inject(user, { method: 'DELETE', url: '/api/2/system-bot-providers/twitch' })).statusCode).toBe(403);
    expect((await t.inject(null, { method: 'GET', url: '/api/2/system-bot-providers' })).statusCode).toBe(401);
    const start = await t.inject(user, { method: 'GET', url: '/api/2/twitch/connect-chat-url?system_bot=true&redirect_to=/admin' });
    expect(start.statusCode).toBe(403);
  });

  it('connects through the OAuth flow with sealed tokens, lists, reconnects and disconnects', async () => {
    const operator = await t.createUser({ operator: true });
    expect((await t.inject(operator, { method: 'GET', url: '/api/2/system-bot-providers' })).json()).toEqual([]);

    const redirect = await connectSystemBot(operator, 'twitch', 'nightowlgg');
    expect(redirect).toBe('/user-provider-connected#system_bot_provider=twitch');
    const list = (await t.inject(operator, { method: 'GET', url: '/api/2/system-bot-providers' })).json<SystemBotProvider[]>();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ provider: 'twitch', display_name: 'NightOwlGG', scope_needed: false });
    const [row] = await t.s.db.select().from(systemBots).where(eq(systemBots.provider, 'twitch'));
    expect(row!.accessTokenEnc).toMatch(/^v1\./);
    expect(t.s.cipher.decrypt(row!.accessTokenEnc!)).not.toBe(row!.accessTokenEnc);

    // A bot flagged for reconnect is cleared by connecting again.
    await t.s.db.update(systemBots).set({ scopeNeeded: true }).where(eq(systemBots.provider, 'twitch'));
    expect(
      (await t.inject(operator, { method: 'GET', url: '/api/2/system-bot-providers' })).json<SystemBotProvider[]>()[0]!.scope_needed,
    ).toBe(true);
    await connectSystemBot(operator, 'twitch', 'pixelpioneer');
    const again = (await t.inject(operator, { method: 'GET', url: '/api/2/system-bot-providers' })).json<SystemBotProvider[]>();
    expect(again).toMatchObject([{ provider: 'twitch', display_name: 'PixelPioneer', scope_needed: false }]);

    expect((await t.inject(operator, { method: 'DELETE', url: '/api/2/system-bot-providers/twitch' })).statusCode).toBe(204);
    expect((await t.inject(operator, { method: 'GET', url: '/api/2/system-bot-providers' })).json()).toEqual([]);
    const missing = await t.inject(operator, { method: 'DELETE', url: '/api/2/system-bot-providers/twitch' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ message: string }>().message).toBe('No Twitch system bot is connected.');
  });

  it('refuses platforms without a system bot', async () => {
    const operator = await t.createUser({ operator: true });
    expect((await t.inject(operator, { method: 'DELETE', url: '/api/2/system-bot-providers/spotify' })).statusCode).toBe(400);
    expect(
      (await t.inject(operator, { method: 'GET', url: '/api/2/spotify/connect-chat-url?system_bot=true&redirect_to=/admin' })).statusCode,
    ).toBe(422);
  });
});
