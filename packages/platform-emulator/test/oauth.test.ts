/** OAuth for every platform: authorize checks, PKCE, single-use codes, refresh rotation, error shapes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index';
import { authorizeCode, emulator, pkcePair, postJson } from './helpers';

let e: Emulator;

beforeAll(async () => {
  e = await emulator();
});

afterAll(async () => {
  await e.close();
});

function form(params: Record<string, string>): RequestInit {
  return { method: 'POST', body: new URLSearchParams(params) };
}

describe('authorize page', () => {
  it('shows the accounts and scopes, and an error page (no redirect) for a wrong redirect_uri', async () => {
    const c = e.config.kick;
    const { challenge } = pkcePair();
    const okUrl = `${c.authorizeUrl}?response_type=code&client_id=${c.clientId}&redirect_uri=${encodeURIComponent(c.redirectUris[0]!)}&scope=user:read%20chat:write&state=s1&code_challenge=${challenge}&code_challenge_method=S256`;
    const page = await fetch(okUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('chat:write');
    expect(html).toContain('greenroomdemo');
    const bad = await fetch(okUrl.replace(encodeURIComponent(c.redirectUris[0]!), encodeURIComponent('https://evil.example/cb')), {
      redirect: 'manual',
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('location')).toBeNull();
  });

  it('offers every streamer and bot account however many streamers there are', async () => {
    const c = e.config.twitch;
    for (let i = 0; i < 60; i += 1)
      await postJson(`${e.origin}/_emulator/accounts`, { platform: 'twitch', kind: 'streamer', displayName: `Many${i}` });
    const url = `${c.authorizeUrl}?response_type=code&client_id=${c.clientId}&redirect_uri=${encodeURIComponent(c.redirectUris[0]!)}&scope=user:bot&state=s2`;
    const html = await (await fetch(url)).text();
    expect(html).toContain('@many59 · streamer');
    const bots = e.world.accountsOf('twitch').filter((a) => a.kind === 'bot');
    expect(bots.length).toBeGreaterThan(0);
    for (const bot of bots) expect(html).toContain(`@${bot.login} · bot`);
  });

  it('auto-approves with emulator_account and passes state through; Cancel redirects with access_denied', async () => {
    const c = e.config.twitch;
    const url = `${c.authorizeUrl}?response_type=code&client_id=${c.clientId}&redirect_uri=${encodeURIComponent(c.redirectUris[0]!)}&scope=user:read:chat&state=abc&emulator_account=greenroomdemo`;
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('abc');
    expect(location.searchParams.get('code')).toBeTruthy();
    const denied = await postJson(`${e.origin}/_emulator/oauth/authorize`, { platform: 'twitch', state: 'zz', deny: true });
    const deniedUrl = new URL(((await denied.json()) as { redirect_url: string }).redirect_url);
    expect(deniedUrl.searchParams.get('error')).toBe('access_denied');
    expect(deniedUrl.searchParams.get('state')).toBe('zz');
  });

  it('creates a new account from the consent form', async () => {
    const c = e.config.discord;
    const res = await postJson(`${e.origin}/_emulator/oauth/authorize`, {
      platform: 'discord',
      display_name: 'Fresh Streamer',
      scope: 'identify',
    });
    const body = (await res.json()) as { redirect_url: string; account: { id: string; login: string } };
    const redirectUrl = new URL(body.redirect_url);
    const accountId = body.account.id;
    expect(body.account.login).toBe('freshstreamer');
    expect(redirectUrl.origin + redirectUrl.pathname).toBe(c.redirectUris[0]);
    expect(e.world.account('discord', accountId)).toBeDefined();
  });
});

describe('Kick (PKCE required, form-encoded, client_secret required)', () => {
  const c = () => e.config.kick;

  it('redirects with invalid_request when code_challenge is missing', async () => {
    const res = await fetch(
      `${c().authorizeUrl}?response_type=code&client_id=${c().clientId}&redirect_uri=${encodeURIComponent(c().redirectUris[0]!)}&state=q&emulator_account=greenroomdemo`,
      { redirect: 'manual' },
    );
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('exchanges a code with the right verifier, once', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeCode(e, 'kick', { scope: 'user:read chat:write', codeChallenge: challenge });
    const params = {
      grant_type: 'authorization_code',
      code,
      client_id: c().clientId,
      client_secret: c().clientSecret,
      redirect_uri: c().redirectUris[0]!,
      code_verifier: verifier,
    };
    const ok = await fetch(c().tokenUrl, form(params));
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'user:read chat:write', expires_in: 3600 });
    const reused = await fetch(c().tokenUrl, form(params));
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('rejects a wrong verifier, a wrong redirect_uri, a bad secret and a JSON body', async () => {
    const attempt = async (mutate: (p: Record<string, string>) => Record<string, string>, json = false) => {
      const { verifier, challenge } = pkcePair();
      const { code } = await authorizeCode(e, 'kick', { codeChallenge: challenge });
      const params = mutate({
        grant_type: 'authorization_code',
        code,
        client_id: c().clientId,
        client_secret: c().clientSecret,
        redirect_uri: c().redirectUris[0]!,
        code_verifier: verifier,
      });
      const res = json ? await postJson(c().tokenUrl, params) : await fetch(c().tokenUrl, form(params));
      return { status: res.status, body: (await res.json()) as { error: string } };
    };
    expect(await attempt((p) => ({ ...p, code_verifier: pkcePair().verifier }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await attempt((p) => ({ ...p, redirect_uri: 'http://localhost:3000/other' }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await attempt((p) => ({ ...p, client_secret: 'wrong' }))).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await attempt((p) => ({ ...p, client_secret: '' }))).toMatchObject({ status: 401 });
    expect(await attempt((p) => p, true)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('rotates refresh tokens', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeCode(e, 'kick', { codeChallenge: challenge });
    const first = (await (
      await fetch(
        c().tokenUrl,
        form({
          grant_type: 'authorization_code',
          code,
          client_id: c().clientId,
          client_secret: c().clientSecret,
          redirect_uri: c().redirectUris[0]!,
          code_verifier: verifier,
        }),
      )
    ).json()) as { refresh_token: string };
    const refresh = (rt: string) =>
      fetch(
        c().tokenUrl,
        form({ grant_type: 'refresh_token', refresh_token: rt, client_id: c().clientId, client_secret: c().clientSecret }),
      );
    const second = (await (await refresh(first.refresh_token)).json()) as { refresh_token: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await refresh(first.refresh_token)).status).toBe(400);
  });
});

describe('Google (YouTube)', () => {
  it('returns a space-separated scope and keeps the refresh token on refresh', async () => {
    const c = e.config.youtube;
    const { code } = await authorizeCode(e, 'youtube', {
      scope: 'https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
    });
    const tokens = (await (
      await fetch(
        c.tokenUrl,
        form({
          grant_type: 'authorization_code',
          code,
          client_id: c.clientId,
          client_secret: c.clientSecret,
          redirect_uri: c.redirectUris[0]!,
        }),
      )
    ).json()) as Record<string, unknown>;
    expect(tokens.scope).toBe('https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl');
    expect(tokens.token_type).toBe('Bearer');
    const refreshed = (await (
      await fetch(
        c.tokenUrl,
        form({
          grant_type: 'refresh_token',
          refresh_token: String(tokens.refresh_token),
          client_id: c.clientId,
          client_secret: c.clientSecret,
        }),
      )
    ).json()) as Record<string, unknown>;
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).toBeUndefined();
    const bad = await fetch(
      c.tokenUrl,
      form({ grant_type: 'refresh_token', refresh_token: 'nope', client_id: c.clientId, client_secret: c.clientSecret }),
    );
    expect(await bad.json()).toEqual({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
  });
});

describe('Spotify, Discord, TikTok', () => {
  it('Spotify: Basic client auth, or PKCE without a secret', async () => {
    const c = e.config.spotify;
    const { code } = await authorizeCode(e, 'spotify', { scope: 'user-read-currently-playing user-modify-playback-state' });
    const basic = Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64');
    const res = await fetch(c.tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: c.redirectUris[0]! }),
    });
    expect(((await res.json()) as { scope: string }).scope).toBe('user-read-currently-playing user-modify-playback-state');
    const { verifier, challenge } = pkcePair();
    const pkce = await authorizeCode(e, 'spotify', { codeChallenge: challenge });
    const publicClient = await fetch(
      c.tokenUrl,
      form({
        grant_type: 'authorization_code',
        code: pkce.code,
        redirect_uri: c.redirectUris[0]!,
        client_id: c.clientId,
        code_verifier: verifier,
      }),
    );
    expect(publicClient.status).toBe(200);
  });

  it('Discord: webhook.incoming returns a webhook object', async () => {
    const c = e.config.discord;
    const { code } = await authorizeCode(e, 'discord', { scope: 'identify webhook.incoming' });
    const body = (await (
      await fetch(
        c.tokenUrl,
        form({
          grant_type: 'authorization_code',
          code,
          redirect_uri: c.redirectUris[0]!,
          client_id: c.clientId,
          client_secret: c.clientSecret,
        }),
      )
    ).json()) as { webhook: { id: string; token: string; url: string } };
    expect(body.webhook.url).toBe(`${e.origin}/discord/api/webhooks/${body.webhook.id}/${body.webhook.token}`);
    expect(e.world.discordWebhooks.get(body.webhook.id)).toBeDefined();
  });

  it('TikTok: client_key, comma-separated scopes, open_id', async () => {
    const c = e.config.tiktok;
    const { code, accountId } = await authorizeCode(e, 'tiktok', { scope: 'user.info.basic,user.info.profile' });
    const body = (await (
      await fetch(
        c.tokenUrl,
        form({
          grant_type: 'authorization_code',
          code,
          redirect_uri: c.redirectUris[0]!,
          client_key: c.clientId,
          client_secret: c.clientSecret,
        }),
      )
    ).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ open_id: accountId, scope: 'user.info.basic,user.info.profile', token_type: 'Bearer' });
    expect(typeof body.refresh_expires_in).toBe('number');
  });
});

describe('token revocation', () => {
  function issue(platform: 'discord' | 'tiktok' | 'twitch' | 'youtube' | 'kick'): string {
    return e.world.issueToken({
      platform,
      clientId: e.config[platform].clientId,
      userId: e.world.accountsOf(platform)[0]!.id,
      scopes: [],
      ttlSeconds: 3600,
      refreshable: true,
    }).accessToken;
  }

  it('Discord: refuses revocation without client authentication; accepts Basic or body credentials', async () => {
    const c = e.config.discord;
    const token = issue('discord');
    const bare = await fetch(c.revokeUrl!, form({ token }));
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ error: 'invalid_client' });
    const wrong = await fetch(c.revokeUrl!, form({ token, client_id: c.clientId, client_secret: 'nope' }));
    expect(wrong.status).toBe(401);
    expect(e.world.checkToken('discord', token).ok).toBe(true);
    const basic = Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64');
    const ok = await fetch(c.revokeUrl!, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
      body: new URLSearchParams({ token }),
    });
    expect(ok.status).toBe(200);
    expect(e.world.checkToken('discord', token).ok).toBe(false);
    const second = issue('discord');
    expect((await fetch(c.revokeUrl!, form({ token: second, client_id: c.clientId, client_secret: c.clientSecret }))).status).toBe(200);
    expect(e.world.checkToken('discord', second).ok).toBe(false);
  });

  it('TikTok: requires client_key, client_secret and token', async () => {
    const c = e.config.tiktok;
    const token = issue('tiktok');
    const noSecret = await fetch(c.revokeUrl!, form({ token, client_key: c.clientId }));
    expect(noSecret.status).toBe(401);
    expect(await noSecret.json()).toMatchObject({ error: 'invalid_client', log_id: expect.any(String) });
    const noToken = await fetch(c.revokeUrl!, form({ client_key: c.clientId, client_secret: c.clientSecret }));
    expect(noToken.status).toBe(400);
    expect(e.world.checkToken('tiktok', token).ok).toBe(true);
    const ok = await fetch(c.revokeUrl!, form({ token, client_key: c.clientId, client_secret: c.clientSecret }));
    expect(ok.status).toBe(200);
    expect(e.world.checkToken('tiktok', token).ok).toBe(false);
  });

  it('Twitch needs the client id; Google and Kick only the token', async () => {
    const twitch = issue('twitch');
    expect((await fetch(e.config.twitch.revokeUrl!, form({ token: twitch }))).status).toBe(404);
    expect((await fetch(e.config.twitch.revokeUrl!, form({ token: twitch, client_id: e.config.twitch.clientId }))).status).toBe(200);
    const google = issue('youtube');
    expect((await fetch(e.config.youtube.revokeUrl!, form({ token: google }))).status).toBe(200);
    expect(e.world.checkToken('youtube', google).ok).toBe(false);
    const kick = issue('kick');
    expect((await fetch(`${e.config.kick.revokeUrl!}?token=${kick}`, { method: 'POST' })).status).toBe(200);
    expect(e.world.checkToken('kick', kick).ok).toBe(false);
  });
});

describe('faults on OAuth-protected APIs', () => {
  it('serves 5xx in the platform shape and clears on DELETE', async () => {
    await postJson(`${e.origin}/_emulator/faults`, { platform: 'twitch', match: '/auth/validate', kind: 'status', status: 503 });
    const res = await fetch(e.config.twitch.validateUrl, { headers: { authorization: 'OAuth x' } });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'Service Unavailable', status: 503, message: 'Service Unavailable' });
    await fetch(`${e.origin}/_emulator/faults`, { method: 'DELETE' });
    expect((await fetch(e.config.twitch.validateUrl, { headers: { authorization: 'OAuth x' } })).status).toBe(401);
  });
});
