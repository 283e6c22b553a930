/**
 * Opening Greenroom on another host name than PUBLIC_URL's (127.0.0.1 for localhost): pages and sign-in starts are
 * sent to PUBLIC_URL with their path and query, so the state cookie is set on the host the platform returns to;
 * API calls, webhooks and health checks are answered where they arrive. The emulator's default apps register only
 * the product's public origin as redirect URI, like a real platform app would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import { createTestApp, type TestApp } from './helper';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

describe('requests on a host other than PUBLIC_URL', () => {
  it('redirects a page load to PUBLIC_URL, keeping the path and query', async () => {
    const res = await get('/channels/abc/chat?popout=1&x=%20y', { host: '127.0.0.1:3000' });
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe('http://localhost:3000/channels/abc/chat?popout=1&x=%20y');
    const head = await t.app.inject({ method: 'HEAD', url: '/', headers: { host: '[::1]:3000' } });
    expect(head.statusCode).toBe(307);
    expect(head.headers.location).toBe('http://localhost:3000/');
  });

  it('redirects a browser navigation that starts a sign-in, before it sets the state cookie', async () => {
    const res = await get('/api/2/auth/twitch/sign-in?next=%2Fchannels', { host: '127.0.0.1:3000', 'sec-fetch-mode': 'navigate' });
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe('http://localhost:3000/api/2/auth/twitch/sign-in?next=%2Fchannels');
    expect(res.cookies.find((c) => c.name === 'gr_oauth_state')).toBeUndefined();
  });

  it('answers API calls, health checks and state-changing requests where they arrive', async () => {
    expect((await get('/api/health', { host: '127.0.0.1:3000' })).statusCode).toBe(200);
    expect((await get('/api/2/user', { host: '10.0.0.5' })).statusCode).toBe(401);
    const post = await t.app.inject({ method: 'POST', url: '/channels', headers: { host: '127.0.0.1:3000' } });
    expect(post.statusCode).not.toBe(307);
  });

  it('leaves a proxied request alone unless the proxy names the browser host', async () => {
    const upstream = await get('/channels', { host: '127.0.0.1:3000', 'x-forwarded-for': '203.0.113.9' });
    expect(upstream.statusCode).not.toBe(307);
    const named = await get('/channels', { host: '127.0.0.1:3000', 'x-forwarded-for': '203.0.113.9', 'x-forwarded-host': 'old.example' });
    expect(named.statusCode).toBe(307);
    expect(named.headers.location).toBe('http://localhost:3000/channels');
  });

  it('serves PUBLIC_URL host names as they are (any port, any case)', async () => {
    expect((await get('/channels', { host: 'LOCALHOST:3000' })).statusCode).not.toBe(307);
    expect((await get('/channels', { host: 'localhost' })).statusCode).not.toBe(307);
  });
});

describe('the emulator registers only the product origin', () => {
  let e: Emulator;
  beforeAll(async () => {
    e = await startEmulator({ port: 0, crowd: false, productUrl: 'http://localhost:3270' });
  });
  afterAll(async () => {
    await e?.close();
  });

  it('one redirect URI per platform, on PUBLIC_URL; a 127.0.0.1 one is refused', async () => {
    expect(e.config.twitch.redirectUris).toEqual(['http://localhost:3270/oauth/twitch']);
    expect(e.config.kick.redirectUris).toEqual(['http://localhost:3270/oauth/kick']);
    const authorize = (redirectUri: string) => {
      const url = new URL(e.config.twitch.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: e.config.twitch.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'user:read:email',
        state: 's',
        emulator_account: 'greenroomdemo',
      }).toString();
      return fetch(url, { redirect: 'manual' });
    };
    expect((await authorize('http://localhost:3270/oauth/twitch')).status).toBe(302);
    const other = await authorize('http://127.0.0.1:3270/oauth/twitch');
    expect(other.status).not.toBe(302);
    expect(other.headers.get('location')).toBeNull();
  });
});
