/**
 * Token revocation on disconnect, against the emulator, which refuses what each platform refuses:
 * Discord needs client authentication, TikTok `client_key` + `client_secret` + `token`, Twitch the
 * client id; Google and Kick take the token alone. Every platform's token ends up revoked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import { emulatorEndpoints, type OAuthProvider, type PlatformEndpoints } from '../src/platforms/endpoints';
import { createTokenRevoker, revokeToken } from '../src/platforms/oauth-client';
import { testApps } from './helper';

let e: Emulator;
let endpoints: PlatformEndpoints;

beforeAll(async () => {
  e = await startEmulator({ seed: 7, apps: testApps });
  endpoints = emulatorEndpoints(e.origin, testApps);
});

afterAll(async () => {
  await e.close();
});

function issue(provider: OAuthProvider): string {
  const account = e.world.accountsOf(provider)[0]!;
  return e.world.issueToken({
    platform: provider,
    clientId: testApps[provider].clientId,
    userId: account.id,
    scopes: [],
    ttlSeconds: 3600,
    refreshable: true,
  }).accessToken;
}

describe('revokeToken', () => {
  it.each(['twitch', 'youtube', 'kick', 'tiktok', 'discord'] as const)(
    '%s: sends what the platform requires and the token dies',
    async (p) => {
      const token = issue(p);
      expect(e.world.checkToken(p, token).ok).toBe(true);
      const result = await revokeToken(p, endpoints[p], token);
      expect(result).toMatchObject({ ok: true, status: 200 });
      expect(e.world.checkToken(p, token).ok).toBe(false);
    },
  );

  it('reports a refusal (wrong client secret) without throwing, and the revoker logs it', async () => {
    for (const p of ['discord', 'tiktok'] as const) {
      const token = issue(p);
      const result = await revokeToken(p, { ...endpoints[p], clientSecret: 'wrong' }, token);
      expect(result).toMatchObject({ ok: false, status: 401 });
      expect(e.world.checkToken(p, token).ok).toBe(true);
    }
    const warnings: object[] = [];
    const revoke = createTokenRevoker(
      { ...endpoints, tiktok: { ...endpoints.tiktok, clientSecret: 'wrong' } },
      { warn: (obj) => void warnings.push(obj) },
    );
    await revoke('tiktok', [issue('tiktok')]);
    expect(warnings).toEqual([expect.objectContaining({ provider: 'tiktok', status: 401 })]);
  });

  it('Spotify has no revocation endpoint: nothing is sent', async () => {
    expect(await revokeToken('spotify', endpoints.spotify, 'anything')).toEqual({ ok: true });
  });
});
