import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import { userProviders } from '../src/db/schema';
import { createTestApp, testApps, type TestApp } from './helper';

let emulator: Emulator;
let t: TestApp;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
  t = await createTestApp({ emulatorOrigin: emulator.origin });
});
afterAll(async () => {
  await t?.close();
  await emulator?.close();
});

/** Follows what a browser does: our redirect to the platform, consent as `login`, back to /oauth/{provider}. */
async function authorizeAt(
  platformUrl: string,
  login: string,
): Promise<{ code: string | null; state: string | null; error: string | null; redirect: URL }> {
  const url = new URL(platformUrl);
  url.searchParams.set('emulator_account', login);
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const redirect = new URL(res.headers.get('location')!);
  return {
    code: redirect.searchParams.get('code'),
    state: redirect.searchParams.get('state'),
    error: redirect.searchParams.get('error'),
    redirect,
  };
}

async function startSignIn(provider: string, next: string) {
  const res = await t.inject(null, { method: 'GET', url: `/api/2/auth/${provider}/sign-in?next=${encodeURIComponent(next)}` });
  expect(res.statusCode).toBe(302);
  const cookie = res.cookies.find((c) => c.name === 'gr_oauth_state');
  expect(cookie?.httpOnly).toBe(true);
  return { location: res.headers.location as string, cookie: `gr_oauth_state=${cookie!.value}` };
}

async function signIn(provider: 'twitch' | 'youtube' | 'kick', login: string, next = '/channels') {
  const start = await startSignIn(provider, next);
  const back = await authorizeAt(start.location, login);
  expect(back.redirect.origin + back.redirect.pathname).toBe(`http://localhost:3000/oauth/${provider}`);
  const res = await t.inject(null, {
    method: 'POST',
    url: `/api/2/auth/${provider}/callback`,
    headers: { cookie: start.cookie },
    payload: { code: back.code, state: back.state },
  });
  return { res, start, back };
}

describe('sign-in through each platform', () => {
  it.each([
    ['twitch', 'greenroomdemo', 'GreenroomDemo'],
    ['youtube', 'greenroomdemo', 'Greenroom Demo'],
    ['kick', 'greenroomdemo', 'greenroomdemo'],
  ] as const)('%s: lands on next with a session for the platform account', async (provider, login, displayName) => {
    const { res } = await signIn(provider, login, '/channels?x=1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.redirect_to).toBe('/sign-in/success?next=%2Fchannels%3Fx%3D1');
    expect(body.access_token).toMatch(/^[\w-]{43}$/);
    const xsrf = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(xsrf?.sameSite).toBe('Strict');
    const me = await t.app.inject({ method: 'GET', url: '/api/2/user', headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().display_name).toBe(displayName);
  });

  it('maps the same platform account to the same user, and stores its tokens encrypted', async () => {
    const first = (await signIn('twitch', 'pixelpioneer')).res.json();
    const second = (await signIn('twitch', 'pixelpioneer')).res.json();
    const a = await t.app.inject({ method: 'GET', url: '/api/2/user', headers: { authorization: `Bearer ${first.access_token}` } });
    const b = await t.app.inject({ method: 'GET', url: '/api/2/user', headers: { authorization: `Bearer ${second.access_token}` } });
    expect(a.json().id).toBe(b.json().id);
    expect(first.access_token).not.toBe(second.access_token);
    const rows = await t.s.db.select().from(userProviders);
    for (const row of rows.filter((r) => r.accessTokenEnc)) {
      expect(row.accessTokenEnc!.startsWith('v1.')).toBe(true);
      expect(emulator.world.tokens.has(row.accessTokenEnc!)).toBe(false);
      expect(emulator.world.tokens.has(t.s.cipher.decrypt(row.accessTokenEnc!))).toBe(true);
    }
  });

  it('uses PKCE with Kick and never with Twitch, and sends exact redirect URIs', async () => {
    const kick = new URL((await startSignIn('kick', '/')).location);
    expect(kick.searchParams.get('code_challenge_method')).toBe('S256');
    expect(kick.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(kick.searchParams.get('redirect_uri')).toBe('http://localhost:3000/oauth/kick');
    const twitch = new URL((await startSignIn('twitch', '/')).location);
    expect(twitch.searchParams.has('code_challenge')).toBe(false);
    expect(twitch.searchParams.get('redirect_uri')).toBe('http://localhost:3000/oauth/twitch');
  });

  it('never redirects off-site after sign-in', async () => {
    const { res } = await signIn('twitch', 'greenroomdemo', 'https://evil.example/steal');
    expect(res.json().redirect_to).toBe('/sign-in/success?next=%2F');
  });
});

describe('refusals', () => {
  it('refuses a callback from another browser (no or wrong state cookie)', async () => {
    const start = await startSignIn('twitch', '/');
    const back = await authorizeAt(start.location, 'greenroomdemo');
    const none = await t.inject(null, {
      method: 'POST',
      url: '/api/2/auth/twitch/callback',
      payload: { code: back.code, state: back.state },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/started in another browser/);
    const other = await startSignIn('twitch', '/');
    const wrong = await t.inject(null, {
      method: 'POST',
      url: '/api/2/auth/twitch/callback',
      headers: { cookie: other.cookie },
      payload: { code: back.code, state: back.state },
    });
    expect(wrong.statusCode).toBe(400);
  });

  it('uses a state once', async () => {
    const { res, start, back } = await signIn('twitch', 'greenroomdemo');
    expect(res.statusCode).toBe(200);
    const again = await t.inject(null, {
      method: 'POST',
      url: '/api/2/auth/twitch/callback',
      headers: { cookie: start.cookie },
      payload: { code: back.code, state: back.state },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/expired or was already used/);
  });

  it('explains a cancelled consent', async () => {
    const start = await startSignIn('kick', '/');
    const state = new URL(start.location).searchParams.get('state')!;
    const res = await t.inject(null, {
      method: 'POST',
      url: '/api/2/auth/kick/callback',
      headers: { cookie: start.cookie },
      payload: { state, error: 'access_denied' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Kick did not connect: you cancelled it.');
  });

  it('rejects a forged code at the platform', async () => {
    const start = await startSignIn('kick', '/');
    const state = new URL(start.location).searchParams.get('state')!;
    const res = await t.inject(null, {
      method: 'POST',
      url: '/api/2/auth/kick/callback',
      headers: { cookie: start.cookie },
      payload: { state, code: 'forged' },
    });
    // The platform refused the code: a 422 `provider_refused`, never a 401 (which would read as "your session ended").
    expect(res.statusCode).toBe(422);
    expect(res.json().type).toBe('provider_refused');
  });
});

describe('linking a second sign-in platform', () => {
  it('adds the connection to the signed-in user and returns user_provider_id in the hash', async () => {
    const { res } = await signIn('twitch', 'nightowlgg');
    const token = res.json().access_token as string;
    const me = (await t.app.inject({ method: 'GET', url: '/api/2/user', headers: { authorization: `Bearer ${token}` } })).json();
    const session = await t.s.sessions.lookup(token);
    const headers = t.headersFor(token, session.ok ? session.sessionId : '');
    const urlRes = await t.app.inject({ method: 'GET', url: '/api/2/kick/connect-chat-url?redirect_to=/user-provider-connected', headers });
    expect(urlRes.statusCode).toBe(200);
    const cookie = urlRes.cookies.find((c) => c.name === 'gr_oauth_state')!;
    const back = await authorizeAt(urlRes.json().url, 'latenightlarry');
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/2/auth/kick/callback',
      headers: { cookie: `gr_oauth_state=${cookie.value}` },
      payload: { code: back.code, state: back.state },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().access_token).toBeUndefined();
    const match = /^\/user-provider-connected#user_provider_id=(.+)$/.exec(done.json().redirect_to);
    expect(match).not.toBeNull();
    const list = (await t.app.inject({ method: 'GET', url: '/api/2/user/providers', headers })).json();
    expect(list.map((p: { provider: string }) => p.provider).sort()).toEqual(['kick', 'twitch']);
    expect(list.find((p: { provider: string }) => p.provider === 'kick').id).toBe(decodeURIComponent(match![1]!));
    expect(me.display_name).toBe('NightOwlGG');
    // Signing in with the linked Kick account now reaches the same user.
    const viaKick = (await signIn('kick', 'latenightlarry')).res.json();
    const me2 = (
      await t.app.inject({ method: 'GET', url: '/api/2/user', headers: { authorization: `Bearer ${viaKick.access_token}` } })
    ).json();
    expect(me2.id).toBe(me.id);
  });

  it('a cancelled connect consent goes back to the landing page with the reason, for the window that opened it', async () => {
    const u = await t.createUser();
    const urlRes = await t.inject(u, { method: 'GET', url: '/api/2/kick/connect-chat-url?redirect_to=/user-provider-connected' });
    const cookie = urlRes.cookies.find((c) => c.name === 'gr_oauth_state')!;
    const state = new URL(urlRes.json().url).searchParams.get('state')!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/2/auth/kick/callback',
      headers: { cookie: `gr_oauth_state=${cookie.value}` },
      payload: { state, error: 'access_denied' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      redirect_to: `/user-provider-connected#connect_error=${encodeURIComponent('Kick did not connect: you cancelled it.')}`,
    });
    expect((await t.inject(u, { method: 'GET', url: '/api/2/user/providers' })).json()).toHaveLength(1);
  });

  it('accepts only same-site redirect_to paths', async () => {
    const u = await t.createUser();
    for (const bad of ['https://evil.example/', '//evil.example/x']) {
      const res = await t.inject(u, { method: 'GET', url: `/api/2/kick/connect-chat-url?redirect_to=${encodeURIComponent(bad)}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/redirect_to/);
    }
  });
});
