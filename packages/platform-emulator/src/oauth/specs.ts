/**
 * How each platform's OAuth server behaves: paths, parameter names, PKCE policy, lifetimes,
 * token response shapes and error bodies. Everything platform-specific in oauth/ lives here.
 */
import type { Platform, Token } from '../world';

export type PkcePolicy = 'unsupported' | 'optional' | 'required';

export interface OAuthSpec {
  platform: Platform;
  /** Shown on the authorize page. */
  label: string;
  authorizePath: string;
  tokenPaths: string[];
  revokePath: string | null;
  /** TikTok calls the client id `client_key`. */
  clientIdParam: 'client_id' | 'client_key';
  scopeSeparator: ' ' | ',';
  pkce: PkcePolicy;
  pkceMethods: ('S256' | 'plain')[];
  accessTtlSeconds: number;
  /** Refresh tokens are single-use and a new one comes with every refresh. */
  rotatesRefreshTokens: boolean;
  /** Grants accepted at the token endpoint besides authorization_code and refresh_token. */
  clientCredentials: boolean;
  /** Twitch reads token parameters from the query string too. */
  acceptsQueryParams: boolean;
  acceptsJsonBody: boolean;
  /** A secret is not needed when PKCE was used (public clients). */
  secretOptionalWithPkce: boolean;
  /**
   * What the revocation endpoint requires of the client: nothing (Google, Kick: the token is enough), its id
   * (Twitch: `client_id`), or its id and secret (Discord: client authentication; TikTok: `client_key` and `client_secret`).
   */
  revokeClientAuth: 'none' | 'id' | 'secret';
}

export const oauthSpecs: Record<Platform, OAuthSpec> = {
  twitch: {
    platform: 'twitch',
    label: 'Twitch',
    authorizePath: '/auth/authorize',
    tokenPaths: ['/auth/token'],
    revokePath: '/auth/revoke',
    clientIdParam: 'client_id',
    scopeSeparator: ' ',
    pkce: 'unsupported',
    pkceMethods: [],
    accessTtlSeconds: 14_400 - 7, // Twitch returns values a little under 4 h
    rotatesRefreshTokens: true,
    clientCredentials: true,
    acceptsQueryParams: true,
    acceptsJsonBody: true,
    secretOptionalWithPkce: false,
    revokeClientAuth: 'id',
  },
  youtube: {
    platform: 'youtube',
    label: 'Google',
    authorizePath: '/google/o/oauth2/v2/auth',
    tokenPaths: ['/google/token'],
    revokePath: '/google/revoke',
    clientIdParam: 'client_id',
    scopeSeparator: ' ',
    pkce: 'optional',
    pkceMethods: ['S256', 'plain'],
    accessTtlSeconds: 3599,
    rotatesRefreshTokens: false, // Google keeps the refresh token; refresh responses carry none
    clientCredentials: false,
    acceptsQueryParams: false,
    acceptsJsonBody: true,
    secretOptionalWithPkce: false,
    revokeClientAuth: 'none',
  },
  kick: {
    platform: 'kick',
    label: 'Kick',
    authorizePath: '/kick-id/oauth/authorize',
    tokenPaths: ['/kick-id/oauth/token'],
    revokePath: '/kick-id/oauth/revoke',
    clientIdParam: 'client_id',
    scopeSeparator: ' ',
    pkce: 'required',
    pkceMethods: ['S256'],
    accessTtlSeconds: 3600,
    rotatesRefreshTokens: true,
    clientCredentials: true,
    acceptsQueryParams: false,
    acceptsJsonBody: false,
    secretOptionalWithPkce: false,
    revokeClientAuth: 'none',
  },
  tiktok: {
    platform: 'tiktok',
    label: 'TikTok',
    authorizePath: '/tiktok/v2/auth/authorize/',
    tokenPaths: ['/tiktok/v2/oauth/token/'],
    revokePath: '/tiktok/v2/oauth/revoke/',
    clientIdParam: 'client_key',
    scopeSeparator: ',',
    pkce: 'optional',
    pkceMethods: ['S256'],
    accessTtlSeconds: 7200,
    rotatesRefreshTokens: true,
    clientCredentials: true,
    acceptsQueryParams: false,
    acceptsJsonBody: false,
    secretOptionalWithPkce: false,
    revokeClientAuth: 'secret',
  },
  spotify: {
    platform: 'spotify',
    label: 'Spotify',
    authorizePath: '/spotify-accounts/authorize',
    tokenPaths: ['/spotify-accounts/api/token'],
    revokePath: null, // Spotify has no revocation endpoint
    clientIdParam: 'client_id',
    scopeSeparator: ' ',
    pkce: 'optional',
    pkceMethods: ['S256'],
    accessTtlSeconds: 3600,
    rotatesRefreshTokens: true,
    clientCredentials: true,
    acceptsQueryParams: false,
    acceptsJsonBody: false,
    secretOptionalWithPkce: true,
    revokeClientAuth: 'none',
  },
  discord: {
    platform: 'discord',
    label: 'Discord',
    authorizePath: '/discord/oauth2/authorize',
    tokenPaths: ['/discord/api/oauth2/token', '/discord/api/v10/oauth2/token'],
    revokePath: '/discord/api/oauth2/token/revoke',
    clientIdParam: 'client_id',
    scopeSeparator: ' ',
    pkce: 'optional',
    pkceMethods: ['S256'],
    accessTtlSeconds: 604_800,
    rotatesRefreshTokens: true,
    clientCredentials: false,
    acceptsQueryParams: false,
    acceptsJsonBody: false,
    secretOptionalWithPkce: true,
    revokeClientAuth: 'secret',
  },
};

/** Why a token request failed; each platform words and encodes it its own way. */
export type TokenFailure =
  | 'missing_parameter'
  | 'unknown_client'
  | 'bad_secret'
  | 'bad_code'
  | 'redirect_mismatch'
  | 'missing_verifier'
  | 'bad_verifier'
  | 'bad_refresh'
  | 'unsupported_grant'
  | 'unsupported_content_type';

export interface OAuthErrorReply {
  status: number;
  body: Record<string, unknown>;
}

const standard: Record<TokenFailure, { status: number; error: string; description: string }> = {
  missing_parameter: { status: 400, error: 'invalid_request', description: 'Missing required parameter' },
  unknown_client: { status: 401, error: 'invalid_client', description: 'Client authentication failed' },
  bad_secret: { status: 401, error: 'invalid_client', description: 'Client authentication failed' },
  bad_code: { status: 400, error: 'invalid_grant', description: 'The authorization code is invalid, expired or already used' },
  redirect_mismatch: {
    status: 400,
    error: 'invalid_grant',
    description: 'The redirect_uri does not match the one used in the authorization request',
  },
  missing_verifier: { status: 400, error: 'invalid_grant', description: 'Missing code_verifier' },
  bad_verifier: { status: 400, error: 'invalid_grant', description: 'The code_verifier does not match the code_challenge' },
  bad_refresh: { status: 400, error: 'invalid_grant', description: 'The refresh token is invalid, expired or revoked' },
  unsupported_grant: { status: 400, error: 'unsupported_grant_type', description: 'Unsupported grant_type' },
  unsupported_content_type: {
    status: 400,
    error: 'invalid_request',
    description: 'The request body must be application/x-www-form-urlencoded',
  },
};

const twitchMessages: Record<TokenFailure, { status: number; message: string }> = {
  missing_parameter: { status: 400, message: 'missing parameter' },
  unknown_client: { status: 400, message: 'invalid client' },
  bad_secret: { status: 403, message: 'invalid client secret' },
  bad_code: { status: 400, message: 'Invalid authorization code' },
  redirect_mismatch: { status: 400, message: 'Parameter redirect_uri does not match registered URI' },
  missing_verifier: { status: 400, message: 'Invalid authorization code' },
  bad_verifier: { status: 400, message: 'Invalid authorization code' },
  bad_refresh: { status: 400, message: 'Invalid refresh token' },
  unsupported_grant: { status: 400, message: 'Invalid grant type' },
  unsupported_content_type: { status: 400, message: 'invalid request' },
};

const platformDescriptions: Partial<
  Record<Platform, Partial<Record<TokenFailure, { status?: number; error?: string; description: string }>>>
> = {
  youtube: {
    unknown_client: { description: 'The OAuth client was not found.' },
    bad_secret: { description: 'Unauthorized' },
    bad_code: { description: 'Malformed auth code.' },
    redirect_mismatch: { error: 'redirect_uri_mismatch', description: 'Bad Request' },
    missing_verifier: { description: 'Missing code verifier.' },
    bad_verifier: { description: 'Invalid code verifier.' },
    bad_refresh: { description: 'Token has been expired or revoked.' },
  },
  spotify: {
    unknown_client: { status: 400, description: 'Invalid client' },
    bad_secret: { status: 400, description: 'Invalid client secret' },
    bad_code: { description: 'Invalid authorization code' },
    redirect_mismatch: { description: 'Invalid redirect URI' },
    missing_verifier: { status: 400, error: 'invalid_request', description: 'code_verifier required' },
    bad_verifier: { description: 'code_verifier was incorrect' },
    bad_refresh: { description: 'Invalid refresh token' },
  },
  discord: {
    unknown_client: { description: 'Unknown client' },
    bad_secret: { description: 'Invalid client secret' },
    bad_code: { description: 'Invalid "code" in request.' },
    redirect_mismatch: { description: 'Invalid "redirect_uri" in request.' },
    missing_verifier: { description: 'Invalid "code_verifier" in request.' },
    bad_verifier: { description: 'Invalid "code_verifier" in request.' },
    bad_refresh: { description: 'Invalid "refresh_token" in request.' },
  },
  tiktok: {
    unknown_client: { description: 'Client key or secret is incorrect.' },
    bad_secret: { description: 'Client key or secret is incorrect.' },
    bad_code: { description: 'Authorization code is expired.' },
    redirect_mismatch: { error: 'invalid_request', description: 'Redirect URI mismatch.' },
    bad_refresh: { description: 'Refresh token is invalid or expired.' },
  },
};

/** The error body a platform's token/revoke endpoint returns for a failure. */
export function tokenError(platform: Platform, failure: TokenFailure, detail?: string): OAuthErrorReply {
  if (platform === 'twitch') {
    const t = twitchMessages[failure];
    return {
      status: t.status,
      body: { status: t.status, message: detail && failure === 'missing_parameter' ? `missing ${detail}` : t.message },
    };
  }
  const base = standard[failure];
  const override = platformDescriptions[platform]?.[failure];
  const status = override?.status ?? base.status;
  const description =
    failure === 'missing_parameter' && detail ? `Missing required parameter: ${detail}` : (override?.description ?? base.description);
  const body: Record<string, unknown> = { error: override?.error ?? base.error, error_description: description };
  if (platform === 'tiktok') body.log_id = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  return { status, body };
}

/** The success body of a token response in the platform's shape. */
export function tokenResponse(
  spec: OAuthSpec,
  token: Token,
  options: { includeRefresh: boolean; openId?: string },
): Record<string, unknown> {
  const expiresIn = Math.max(0, Math.round((token.expiresAt.getTime() - Date.now()) / 1000));
  const scopeString = token.scopes.join(spec.scopeSeparator);
  const refresh = options.includeRefresh && token.refreshToken ? { refresh_token: token.refreshToken } : {};
  switch (spec.platform) {
    case 'twitch':
      return { access_token: token.accessToken, expires_in: expiresIn, ...refresh, scope: token.scopes, token_type: 'bearer' };
    case 'youtube':
      return { access_token: token.accessToken, expires_in: expiresIn, ...refresh, scope: scopeString, token_type: 'Bearer' };
    case 'kick':
      return { access_token: token.accessToken, token_type: 'Bearer', ...refresh, expires_in: expiresIn, scope: scopeString };
    case 'tiktok':
      return {
        access_token: token.accessToken,
        expires_in: expiresIn,
        open_id: options.openId ?? token.userId ?? '',
        refresh_expires_in: 15_552_000,
        ...refresh,
        scope: scopeString,
        token_type: 'Bearer',
      };
    case 'spotify':
      return { access_token: token.accessToken, token_type: 'Bearer', scope: scopeString, expires_in: expiresIn, ...refresh };
    case 'discord':
      return { access_token: token.accessToken, token_type: 'Bearer', expires_in: expiresIn, ...refresh, scope: scopeString };
  }
}

export function parseScopes(spec: OAuthSpec, raw: string | undefined): string[] {
  if (!raw) return [];
  const parts = spec.scopeSeparator === ',' ? raw.split(/[,\s]+/) : raw.split(/[\s+]+/);
  return [...new Set(parts.filter(Boolean))];
}
