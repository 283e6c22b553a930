/**
 * The system bot's lifecycle through the live connection path: a Twitch channel connected (EventSub live)
 * before any system bot exists; the operator connects the bot, replaces it with another account, and
 * disconnects it. Each change applies at once to "As bot" sends and the live connection; tokens no
 * longer stored are revoked at the platform, and an old credential can never write over the new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startEmulator, type Account, type Emulator } from '@greenroom/platform-emulator';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { systemBots } from '../src/db/schema';
import { CredentialRepository } from '../src/platforms/tokens';
import { createTestApp, testApps, type TestApp, type TestUser } from './helper';
import { actionsSince, connectChannelProvider, lastActionSeq, providersOf, until } from './platform-fixtures';

let emulator: Emulator;
let t: TestApp;
let owner: TestUser;
let operator: TestUser;
let channelId: string;
let cp: string;
let greenroomBot: Account;
let helperBot: Account;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
  process.env.TWURPLE_MOCK_API_PORT = String(emulator.port);
  t = await createTestApp({ emulatorOrigin: emulator.origin });
  owner = await t.createUser({ displayName: 'Streamer' });
  operator = await t.createUser({ displayName: 'Operator', operator: true });
  channelId = (await t.s.channels.create(owner.id, 'Bot lifecycle')).id;
  [greenroomBot, helperBot] = emulator.world.accountsOf('twitch', 'bot') as [Account, Account];
  cp = await connectChannelProvider(t, emulator, owner, channelId, 'twitch', 'greenroomdemo');
  await until(() => t.s.connections.health(cp)?.state === 'connected');
}, 60_000);

afterAll(async () => {
  await t.close();
  await emulator.close();
});

/** The operator's connect flow for the Twitch system bot, approved as `account`. */
async function connectSystemBot(account: Account): Promise<void> {
  const start = await t.inject(operator, {
    method: 'GET',
    url: '/api/2/twitch/connect-chat-url?system_bot=true&redirect_to=/user-provider-connected',
  });
  expect(start.statusCode).toBe(200);
  const stateCookie = start.cookies.find((c) => c.name === 'gr_oauth_state')!;
  const authorize = new URL(start.json<{ url: string }>().url);
  authorize.searchParams.set('emulator_account', account.login);
  const back = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location') ?? '');
  const callback = await t.inject(operator, {
    method: 'POST',
    url: '/api/2/auth/twitch/callback',
    headers: { cookie: `${operator.headers.cookie}; gr_oauth_state=${stateCookie.value}` },
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(callback.statusCode, callback.body).toBe(200);
}

/** "As bot" from the composer; returns the Twitch result. */
async function sendAsBot(text: string) {
  const res = await t.inject(owner, {
    method: 'POST',
    url: `/api/2/channels/${channelId}/chat/messages`,
    payload: { text, as: 'bot', channel_provider_ids: [cp] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ results: { ok: boolean; error: string | null }[] }>().results[0]!;
}

/** Who the emulator saw send `text`. */
async function senderOf(text: string, since: number): Promise<string | null> {
  const sends = (await actionsSince(emulator, 'twitch', since)).filter((a) => a.type === 'chat.send' && a.data.text === text);
  return sends[0]?.actorId ?? null;
}

const revokedFor = async (accountId: string, since: number) =>
  (await actionsSince(emulator, 'twitch', since)).filter((a) => a.type === 'revoke' && a.actorId === accountId).length;

/** The live connection was reopened after `since` and is connected again. */
async function reopenedAfter(since: string): Promise<void> {
  await until(() => {
    const health = t.s.connections.health(cp);
    return health !== null && health.since > since && health.state === 'connected';
  });
}

describe('the system bot lifecycle', () => {
  it('a channel connected before the system bot existed sends as it once it is connected', async () => {
    const before = await sendAsBot('no bot yet');
    expect(before).toMatchObject({ ok: false, error: 'No bot account is connected for this Twitch channel.' });

    const since = t.s.connections.health(cp)!.since;
    const seq = await lastActionSeq(emulator);
    await connectSystemBot(greenroomBot);
    await reopenedAfter(since);
    expect((await sendAsBot('hello from the system bot')).ok).toBe(true);
    expect(await senderOf('hello from the system bot', seq)).toBe(greenroomBot.id);
    const [listed] = await providersOf(t, owner, channelId);
    expect(listed!.bot_provider).toMatchObject({ id: greenroomBot.id, display_name: 'GreenroomBot', system: true });
  });

  it('reconnecting as another account sends as the new one at once; the old tokens are revoked and cannot write over the new ones', async () => {
    const oldSource = (await t.s.tokens.get({ kind: 'system_bot', provider: 'twitch' }))!;
    expect(oldSource.providerUserId).toBe(greenroomBot.id);
    const since = t.s.connections.health(cp)!.since;
    const seq = await lastActionSeq(emulator);

    await connectSystemBot(helperBot);
    await reopenedAfter(since);
    expect((await sendAsBot('now the helper bot')).ok).toBe(true);
    expect(await senderOf('now the helper bot', seq)).toBe(helperBot.id);
    expect(await revokedFor(greenroomBot.id, seq)).toBeGreaterThan(0);

    // The old account's credential, still held by whatever used it before, refreshes or gets refused:
    // neither may touch the new account's row.
    const [row] = await t.s.db.select().from(systemBots).where(eq(systemBots.provider, 'twitch'));
    await expect(oldSource.refreshAfterUnauthorized(oldSource.current)).rejects.toThrow();
    await new CredentialRepository(t.s.db, t.s.cipher).saveRefreshed(
      { kind: 'system_bot', provider: 'twitch' },
      greenroomBot.id,
      { accessToken: 'old-account-token', refreshToken: 'old-refresh', expiresAt: null, scopes: [] },
      'old-refresh',
    );
    const [after] = await t.s.db.select().from(systemBots).where(eq(systemBots.provider, 'twitch'));
    expect(after).toEqual(row);
    expect(after!.scopeNeeded).toBe(false);
    expect((await sendAsBot('still the helper bot')).ok).toBe(true);
  });

  it('disconnecting stops "As bot" at once and revokes its tokens at the platform', async () => {
    const source = (await t.s.tokens.get({ kind: 'system_bot', provider: 'twitch' }))!;
    const token = source.current;
    const since = t.s.connections.health(cp)!.since;
    const seq = await lastActionSeq(emulator);

    expect((await t.inject(operator, { method: 'DELETE', url: '/api/2/system-bot-providers/twitch' })).statusCode).toBe(204);
    await reopenedAfter(since);
    expect(await sendAsBot('bot is gone')).toMatchObject({ ok: false, error: 'No bot account is connected for this Twitch channel.' });
    expect(await senderOf('bot is gone', seq)).toBeNull();
    expect(await revokedFor(helperBot.id, seq)).toBeGreaterThan(0);
    const validate = await fetch(t.endpoints.twitch.validateUrl, { headers: { authorization: `OAuth ${token}` } });
    expect(validate.status).toBe(401);
    const [listed] = await providersOf(t, owner, channelId);
    expect((listed as ChannelProvider).bot_provider).toBeNull();
  });
});
