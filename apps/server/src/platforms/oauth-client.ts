import { z } from 'zod';
import { assertUnreachable, isOAuthProviderId, providers } from '@greenroom/contracts/providers';
import { AppError } from '../lib/errors';
import { pkceChallenge, randomToken } from '../lib/crypto';
import type { OAuthEndpoints, OAuthProvider, PlatformEndpoints } from './endpoints';
import { readJsonBody } from './authorized-call';
import { PlatformError, reconnectNeeded, unreachable, unreadable } from './platform-error';

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string[];
}

/** The platform account behind a token. */
export interface Identity {
  providerUserId: string;
  login: string;
  displayName: string;
  avatarUrl: string | null;
}

const tokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string().optional().nullable(),
  expires_in: z.coerce.number().optional().nullable(),
  scope: z
    .union([z.array(z.string()), z.string()])
    .optional()
    .nullable(),
});

function splitScopes(scope: string[] | string | null | undefined, fallback: string[]): string[] {
  if (scope == null) return fallback;
  if (Array.isArray(scope)) return scope;
  return scope.split(/[ ,]+/).filter(Boolean);
}

export function newPkceVerifier(): string {
  return randomToken(48);
}

export function authorizeUrl(
  endpoints: OAuthEndpoints,
  input: { redirectUri: string; scopes: string[]; state: string; codeVerifier: string | null; forceVerify?: boolean },
): string {
  const url = new URL(endpoints.authorizeUrl);
  url.searchParams.set(endpoints.clientIdParam, endpoints.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', input.scopes.join(endpoints.scopeSeparator));
  url.searchParams.set('state', input.state);
  if (input.codeVerifier) {
    url.searchParams.set('code_challenge', pkceChallenge(input.codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
  }
  for (const [k, v] of Object.entries(endpoints.extraAuthorizeParams)) url.searchParams.set(k, v);
  if (input.forceVerify) url.searchParams.set('force_verify', 'true');
  return url.toString();
}

/**
 * A token endpoint call. A refused refresh (400/401: invalid_grant, revoked) means the stored grant is gone for
 * good (`auth_revoked`); a refused code exchange is the platform refusing that sign-in or connection (`refused`).
 */
async function tokenRequest(
  provider: OAuthProvider,
  endpoints: OAuthEndpoints,
  grant: 'exchange' | 'refresh',
  params: Record<string, string>,
  requestedScopes: string[],
): Promise<TokenSet> {
  const body = new URLSearchParams({ [endpoints.clientIdParam]: endpoints.clientId, client_secret: endpoints.clientSecret, ...params });
  let response: Response;
  try {
    response = await fetch(endpoints.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(15_000),
    });
  } catch (cause) {
    throw unreachable(provider, grant === 'refresh' ? 'refresh the token' : 'complete the connection', cause);
  }
  const json = await readJsonBody(response);
  if (!response.ok) {
    const detail = describeOAuthError(json) ?? `HTTP ${response.status}`;
    const name = providers[provider].name;
    if (response.status === 400 || response.status === 401) {
      if (grant === 'refresh') throw reconnectNeeded(provider, detail);
      throw new PlatformError('refused', provider, `${name} refused the connection: ${detail}`, { reason: describeOAuthCode(json) });
    }
    throw new PlatformError('temporary', provider, `${name} failed to complete the request (${detail}), try again.`);
  }
  const parsed = tokenResponse.safeParse(json);
  if (!parsed.success) throw unreadable(provider, grant === 'refresh' ? 'refresh the token' : 'complete the connection');
  const t = parsed.data;
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token ?? null,
    expiresAt: t.expires_in ? new Date(Date.now() + t.expires_in * 1000) : null,
    scopes: splitScopes(t.scope, requestedScopes),
  };
}

/** The OAuth error code (`invalid_grant` …), when the body has one. */
function describeOAuthCode(json: unknown): string | null {
  if (json && typeof json === 'object' && 'error' in json && typeof json.error === 'string') return json.error;
  return null;
}

function describeOAuthError(json: unknown): string | null {
  if (json && typeof json === 'object') {
    const o = json as Record<string, unknown>;
    const parts = [o.error_description, o.message, o.error].filter((v): v is string => typeof v === 'string');
    if (parts[0]) return parts[0];
  }
  return null;
}

export function exchangeCode(
  provider: OAuthProvider,
  endpoints: OAuthEndpoints,
  input: { code: string; redirectUri: string; codeVerifier: string | null; scopes: string[] },
): Promise<TokenSet> {
  const params: Record<string, string> = { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri };
  if (input.codeVerifier) params.code_verifier = input.codeVerifier;
  return tokenRequest(provider, endpoints, 'exchange', params, input.scopes);
}

export function refreshTokens(
  provider: OAuthProvider,
  endpoints: OAuthEndpoints,
  refreshToken: string,
  scopes: string[],
): Promise<TokenSet> {
  return tokenRequest(provider, endpoints, 'refresh', { grant_type: 'refresh_token', refresh_token: refreshToken }, scopes);
}

async function getJson(provider: OAuthProvider, url: string, headers: Record<string, string>): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(15_000) });
  } catch (cause) {
    throw unreachable(provider, 'read the account', cause);
  }
  if (response.status === 401) throw reconnectNeeded(provider, 'the token was refused');
  if (!response.ok)
    throw new PlatformError(
      'temporary',
      provider,
      `${providers[provider].name} answered HTTP ${response.status} when reading the account.`,
    );
  return response.json();
}

const twitchUsers = z.object({
  data: z.array(z.object({ id: z.string(), login: z.string(), display_name: z.string(), profile_image_url: z.string().optional() })),
});
const youtubeChannels = z.object({
  items: z
    .array(
      z.object({
        id: z.string(),
        snippet: z.object({
          title: z.string(),
          customUrl: z.string().optional(),
          thumbnails: z.object({ default: z.object({ url: z.string() }).optional() }).optional(),
        }),
      }),
    )
    .optional(),
});
const kickUsers = z.object({
  data: z.array(z.object({ user_id: z.coerce.string(), name: z.string(), profile_picture: z.string().nullable().optional() })),
});
const tiktokUser = z.object({
  data: z.object({
    user: z.object({ open_id: z.string(), display_name: z.string(), avatar_url: z.string().optional(), username: z.string().optional() }),
  }),
});
const spotifyMe = z.object({
  id: z.string(),
  display_name: z.string().nullable().optional(),
  images: z.array(z.object({ url: z.string() })).optional(),
});
const discordMe = z.object({
  id: z.string(),
  username: z.string(),
  global_name: z.string().nullable().optional(),
  avatar: z.string().nullable().optional(),
});

function parse<T>(provider: OAuthProvider, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw unreadable(provider, 'read the account');
  return result.data;
}

/** Reads the account a token belongs to, through each platform's identity endpoint. */
export async function fetchIdentity(provider: OAuthProvider, endpoints: PlatformEndpoints, accessToken: string): Promise<Identity> {
  const bearer = { authorization: `Bearer ${accessToken}` };
  switch (provider) {
    case 'twitch': {
      const body = parse(
        provider,
        twitchUsers,
        await getJson(provider, `${endpoints.twitch.helixUrl}/users`, { ...bearer, 'client-id': endpoints.twitch.clientId }),
      );
      const u = body.data[0];
      if (!u) throw new PlatformError('temporary', provider, 'Twitch returned no account for this token.');
      return { providerUserId: u.id, login: u.login, displayName: u.display_name, avatarUrl: u.profile_image_url ?? null };
    }
    case 'youtube': {
      const body = parse(
        provider,
        youtubeChannels,
        await getJson(provider, `${endpoints.youtube.apiUrl}/channels?part=snippet&mine=true`, bearer),
      );
      const c = body.items?.[0];
      if (!c) throw new AppError(422, 'unsupported', 'This Google account has no YouTube channel.');
      return {
        providerUserId: c.id,
        login: c.snippet.customUrl ?? c.id,
        displayName: c.snippet.title,
        avatarUrl: c.snippet.thumbnails?.default?.url ?? null,
      };
    }
    case 'kick': {
      const body = parse(provider, kickUsers, await getJson(provider, `${endpoints.kick.apiUrl}/users`, bearer));
      const u = body.data[0];
      if (!u) throw new PlatformError('temporary', provider, 'Kick returned no account for this token.');
      return { providerUserId: u.user_id, login: u.name.toLowerCase(), displayName: u.name, avatarUrl: u.profile_picture ?? null };
    }
    case 'tiktok': {
      const body = parse(
        provider,
        tiktokUser,
        await getJson(provider, `${endpoints.tiktok.apiUrl}/user/info/?fields=open_id,union_id,avatar_url,display_name,username`, bearer),
      );
      const u = body.data.user;
      return {
        providerUserId: u.open_id,
        login: u.username ?? u.display_name,
        displayName: u.display_name,
        avatarUrl: u.avatar_url ?? null,
      };
    }
    case 'spotify': {
      const u = parse(provider, spotifyMe, await getJson(provider, `${endpoints.spotify.apiUrl}/me`, bearer));
      return { providerUserId: u.id, login: u.id, displayName: u.display_name ?? u.id, avatarUrl: u.images?.[0]?.url ?? null };
    }
    case 'discord': {
      const u = parse(provider, discordMe, await getJson(provider, `${endpoints.discord.apiUrl}/users/@me`, bearer));
      return { providerUserId: u.id, login: u.username, displayName: u.global_name ?? u.username, avatarUrl: null };
    }
  }
}

/**
 * Revokes one token at the platform (disconnecting for good), with what each platform requires of the client:
 * - Twitch: `client_id` and `token` in the form body;
 * - Google: the token alone;
 * - Kick: the token in the query (and the body);
 * - Discord: client authentication (HTTP Basic with the client id and secret) and the token;
 * - TikTok: `client_key`, `client_secret` and `token` in the form body.
 * Spotify has no revocation endpoint. Best effort: a failure is returned, never thrown — the connection is removed anyway.
 */
export async function revokeToken(
  provider: OAuthProvider,
  endpoints: OAuthEndpoints,
  token: string,
): Promise<{ ok: boolean; status?: number; error?: unknown }> {
  if (!endpoints.revokeUrl) return { ok: true };
  const url = new URL(endpoints.revokeUrl);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const body = new URLSearchParams({ token });
  switch (provider) {
    case 'twitch':
      body.set('client_id', endpoints.clientId);
      break;
    case 'youtube':
      break;
    case 'kick':
      url.searchParams.set('token', token);
      break;
    case 'discord': {
      const basic = `${encodeURIComponent(endpoints.clientId)}:${encodeURIComponent(endpoints.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
      break;
    }
    case 'tiktok':
      body.set('client_key', endpoints.clientId);
      body.set('client_secret', endpoints.clientSecret);
      break;
    case 'spotify':
      return { ok: true };
    default:
      assertUnreachable(provider);
  }
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    return { ok: response.ok, status: response.status };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Revokes a connection's stored tokens (any provider name; those without OAuth or revocation are skipped). */
export type TokenRevoker = (provider: string, tokens: (string | null)[]) => Promise<void>;

/** The platform layer's token revocation: each token revoked at its platform, failures logged and never thrown. */
export function createTokenRevoker(endpoints: PlatformEndpoints, log: { warn(obj: object, msg?: string): void }): TokenRevoker {
  return async (provider, tokens) => {
    if (!isOAuthProviderId(provider)) return;
    for (const token of tokens) {
      if (!token) continue;
      const result = await revokeToken(provider, endpoints[provider], token);
      if (!result.ok) log.warn({ err: result.error, status: result.status, provider }, 'revoking a platform token failed');
    }
  };
}
