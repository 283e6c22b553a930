/**
 * The OAuth authorization server shared by every platform: validates authorize requests, issues
 * single-use codes, exchanges them (with PKCE where the platform uses it), refreshes with rotation
 * and revokes. Wire formats come from specs.ts; routes.ts maps HTTP onto this.
 */
import { createAccount } from '../accounts';
import type { EmulatorContext, RegisteredApp } from '../context';
import type { SeededRandom } from '../random';
import type { Account, Platform, Token } from '../world';
import { newToken } from '../world';
import { verifyPkce, type PkceMethod } from './pkce';
import { oauthSpecs, parseScopes, tokenError, tokenResponse, type OAuthErrorReply, type OAuthSpec, type TokenFailure } from './specs';

const codeTtlMs = 10 * 60 * 1000;
const twitchAppTokenTtlSeconds = 5_011_271;

/** The query of an authorize request, normalised across platforms. */
export interface AuthorizeRequest {
  platform: Platform;
  clientId: string;
  redirectUri: string;
  responseType: string;
  scope: string;
  state: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  /** Google: access_type=offline gives a refresh token. */
  accessType: string | null;
}

export type AuthorizeCheck =
  | { ok: true; spec: OAuthSpec; app: RegisteredApp; scopes: string[] }
  /** Shown as an error page; no redirect (unknown client, redirect_uri mismatch). */
  | { ok: false; kind: 'page'; title: string; message: string }
  /** Sent back to the client's redirect_uri. */
  | { ok: false; kind: 'redirect'; redirectUrl: string };

export type AccountChoice = { accountId: string } | { login: string } | { newDisplayName: string };

interface IssuedCode {
  platform: Platform;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  userId: string;
  challenge: string | null;
  method: PkceMethod;
  accessType: string | null;
  expiresAt: number;
}

export type TokenResult = { ok: true; body: Record<string, unknown> } | { ok: false; error: OAuthErrorReply };

export interface ClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
}

export class OAuthService {
  private readonly codes = new Map<string, IssuedCode>();

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly random: SeededRandom,
  ) {}

  app(platform: Platform): RegisteredApp | undefined {
    return this.ctx.apps[platform];
  }

  /** Validates an authorize request the way the platform does, before the consent screen. */
  check(req: AuthorizeRequest): AuthorizeCheck {
    const spec = oauthSpecs[req.platform];
    const app = this.app(req.platform);
    if (!app || req.clientId !== app.clientId) {
      return {
        ok: false,
        kind: 'page',
        title: errorTitle(req.platform, 'client'),
        message: `The client_id "${req.clientId}" is not registered with ${spec.label}.`,
      };
    }
    if (!app.redirectUris.includes(req.redirectUri)) {
      return {
        ok: false,
        kind: 'page',
        title: errorTitle(req.platform, 'redirect'),
        message: `The redirect_uri "${req.redirectUri}" does not match any redirect URI registered for this app (${app.redirectUris.join(', ') || 'none'}).`,
      };
    }
    const fail = (error: string, description: string): AuthorizeCheck => ({
      ok: false,
      kind: 'redirect',
      redirectUrl: this.errorRedirect(req, error, description),
    });
    if (req.responseType !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    if (spec.pkce === 'required' && !req.codeChallenge) return fail('invalid_request', 'code_challenge is required');
    if (spec.pkce !== 'unsupported' && req.codeChallenge) {
      const method = req.codeChallengeMethod ?? 'plain';
      if (!spec.pkceMethods.includes(method as PkceMethod))
        return fail('invalid_request', `code_challenge_method ${method} is not supported`);
    }
    return { ok: true, spec, app, scopes: parseScopes(spec, req.scope) };
  }

  errorRedirect(req: AuthorizeRequest, error: string, description: string): string {
    const url = new URL(req.redirectUri);
    url.searchParams.set('error', error);
    url.searchParams.set('error_description', description);
    if (req.state !== null) url.searchParams.set('state', req.state);
    return url.toString();
  }

  /** The account the user picked (or created) on the consent screen. */
  resolveAccount(platform: Platform, choice: AccountChoice): Account | undefined {
    if ('accountId' in choice) return this.ctx.world.account(platform, choice.accountId);
    if ('login' in choice) return this.ctx.world.accountByLogin(platform, choice.login);
    const displayName = choice.newDisplayName.trim();
    if (!displayName) return undefined;
    return createAccount(this.ctx.world, this.random, this.ctx.origin(), { platform, kind: 'streamer', displayName });
  }

  /** The user consented: issue a code and build the redirect back to the client. */
  approve(req: AuthorizeRequest, account: Account): { code: string; redirectUrl: string } {
    const check = this.check(req);
    if (!check.ok) throw new Error('approve() called with an invalid request');
    const code = newToken(24);
    const usesPkce = check.spec.pkce !== 'unsupported' && req.codeChallenge !== null;
    this.codes.set(code, {
      platform: req.platform,
      clientId: req.clientId,
      redirectUri: req.redirectUri,
      scopes: check.scopes,
      userId: account.id,
      challenge: usesPkce ? req.codeChallenge : null,
      method: (req.codeChallengeMethod as PkceMethod | null) ?? 'plain',
      accessType: req.accessType,
      expiresAt: Date.now() + codeTtlMs,
    });
    const url = new URL(req.redirectUri);
    url.searchParams.set('code', code);
    if (req.platform === 'twitch' || req.platform === 'youtube') url.searchParams.set('scope', check.scopes.join(' '));
    if (req.platform === 'tiktok') url.searchParams.set('scopes', check.scopes.join(','));
    if (req.state !== null) url.searchParams.set('state', req.state);
    return { code, redirectUrl: url.toString() };
  }

  deny(req: AuthorizeRequest): string {
    return this.errorRedirect(
      req,
      'access_denied',
      req.platform === 'twitch' ? 'The user denied you access' : 'The user denied the request',
    );
  }

  private fail(platform: Platform, failure: TokenFailure, detail?: string): TokenResult {
    return { ok: false, error: tokenError(platform, failure, detail) };
  }

  private authenticateClient(spec: OAuthSpec, creds: ClientCredentials, secretRequired: boolean): TokenFailure | { detail: string } | null {
    const app = this.app(spec.platform);
    if (!creds.clientId) return { detail: spec.clientIdParam };
    if (!app || app.clientId !== creds.clientId) return 'unknown_client';
    if (creds.clientSecret === undefined) return secretRequired ? { detail: 'client_secret' } : null;
    if (creds.clientSecret !== app.clientSecret) return 'bad_secret';
    return null;
  }

  private ttl(platform: Platform): number {
    return this.app(platform)?.accessTokenTtlSeconds ?? oauthSpecs[platform].accessTtlSeconds;
  }

  /** POST token endpoint, after the route has merged the parameters. */
  exchange(platform: Platform, params: Record<string, string | undefined>, creds: ClientCredentials): TokenResult {
    const spec = oauthSpecs[platform];
    const grant = params.grant_type;
    if (!grant) return this.fail(platform, 'missing_parameter', 'grant_type');
    switch (grant) {
      case 'authorization_code':
        return this.exchangeCode(spec, params, creds);
      case 'refresh_token':
        return this.refresh(spec, params, creds);
      case 'client_credentials': {
        if (!spec.clientCredentials) return this.fail(platform, 'unsupported_grant');
        const authError = this.authenticateClient(spec, creds, true);
        if (authError)
          return typeof authError === 'string'
            ? this.fail(platform, authError)
            : this.fail(platform, 'missing_parameter', authError.detail);
        const ttl = platform === 'twitch' ? twitchAppTokenTtlSeconds : this.ttl(platform);
        const token = this.ctx.world.issueToken({
          platform,
          clientId: creds.clientId!,
          userId: null,
          scopes: parseScopes(spec, params.scope),
          ttlSeconds: ttl,
          refreshable: false,
        });
        this.ctx.world.record({
          platform,
          type: 'token',
          channelId: null,
          actorId: null,
          data: { grant: 'client_credentials', clientId: token.clientId },
        });
        const body = tokenResponse(spec, token, { includeRefresh: false });
        if (platform === 'twitch') delete body.scope;
        return { ok: true, body };
      }
      default:
        return this.fail(platform, 'unsupported_grant');
    }
  }

  private exchangeCode(spec: OAuthSpec, params: Record<string, string | undefined>, creds: ClientCredentials): TokenResult {
    const platform = spec.platform;
    if (!params.code) return this.fail(platform, 'missing_parameter', 'code');
    const issued = this.codes.get(params.code);
    const usesPkce = issued?.challenge != null;
    const authError = this.authenticateClient(spec, creds, !(spec.secretOptionalWithPkce && usesPkce));
    if (authError)
      return typeof authError === 'string' ? this.fail(platform, authError) : this.fail(platform, 'missing_parameter', authError.detail);
    if (!issued || issued.platform !== platform || issued.clientId !== creds.clientId) return this.fail(platform, 'bad_code');
    // Codes are single-use: a second attempt fails even if this one fails later on.
    this.codes.delete(params.code);
    if (issued.expiresAt < Date.now()) return this.fail(platform, 'bad_code');
    if (params.redirect_uri !== issued.redirectUri) return this.fail(platform, 'redirect_mismatch');
    if (issued.challenge !== null) {
      if (!params.code_verifier) return this.fail(platform, 'missing_verifier');
      if (!verifyPkce(params.code_verifier, issued.challenge, issued.method)) return this.fail(platform, 'bad_verifier');
    } else if (spec.pkce === 'required') {
      return this.fail(platform, 'missing_verifier');
    }
    const refreshable = platform !== 'youtube' || issued.accessType === 'offline';
    const token = this.ctx.world.issueToken({
      platform,
      clientId: issued.clientId,
      userId: issued.userId,
      scopes: issued.scopes,
      ttlSeconds: this.ttl(platform),
      refreshable,
    });
    this.ctx.world.record({
      platform,
      type: 'token',
      channelId: null,
      actorId: issued.userId,
      data: { grant: 'authorization_code', clientId: issued.clientId, scopes: issued.scopes },
    });
    const body = tokenResponse(spec, token, { includeRefresh: true });
    if (platform === 'discord' && issued.scopes.includes('webhook.incoming'))
      body.webhook = this.createDiscordWebhook(issued.userId, issued.clientId);
    return { ok: true, body };
  }

  private refresh(spec: OAuthSpec, params: Record<string, string | undefined>, creds: ClientCredentials): TokenResult {
    const platform = spec.platform;
    const world = this.ctx.world;
    if (!params.refresh_token) return this.fail(platform, 'missing_parameter', 'refresh_token');
    const old = world.refreshTokens.get(params.refresh_token);
    const authError = this.authenticateClient(spec, creds, !spec.secretOptionalWithPkce);
    if (authError)
      return typeof authError === 'string' ? this.fail(platform, authError) : this.fail(platform, 'missing_parameter', authError.detail);
    if (!old || old.platform !== platform || old.clientId !== creds.clientId || old.revoked) return this.fail(platform, 'bad_refresh');
    let token: Token;
    if (spec.rotatesRefreshTokens) {
      world.refreshTokens.delete(params.refresh_token);
      token = world.issueToken({
        platform,
        clientId: old.clientId,
        userId: old.userId,
        scopes: old.scopes,
        ttlSeconds: this.ttl(platform),
        refreshable: true,
      });
    } else {
      token = world.issueToken({
        platform,
        clientId: old.clientId,
        userId: old.userId,
        scopes: old.scopes,
        ttlSeconds: this.ttl(platform),
        refreshable: false,
      });
      token.refreshToken = params.refresh_token;
      world.refreshTokens.set(params.refresh_token, token);
    }
    world.record({
      platform,
      type: 'token',
      channelId: null,
      actorId: old.userId,
      data: { grant: 'refresh_token', clientId: old.clientId },
    });
    return { ok: true, body: tokenResponse(spec, token, { includeRefresh: spec.rotatesRefreshTokens }) };
  }

  /**
   * Revokes an access or refresh token. Returns null on success or the platform's error. Client authentication as
   * the platform requires it (`revokeClientAuth`): Twitch needs the client id, Discord and TikTok the id and secret.
   */
  revoke(platform: Platform, tokenString: string | undefined, creds: ClientCredentials): OAuthErrorReply | null {
    const world = this.ctx.world;
    const app = this.app(platform);
    const auth = oauthSpecs[platform].revokeClientAuth;
    if (auth !== 'none' && (!creds.clientId || !app || app.clientId !== creds.clientId)) {
      return platform === 'twitch'
        ? { status: 404, body: { status: 404, message: 'client does not exist' } }
        : tokenError(platform, 'unknown_client');
    }
    if (auth === 'secret' && (!creds.clientSecret || creds.clientSecret !== app?.clientSecret)) return tokenError(platform, 'bad_secret');
    if (!tokenString) {
      if (platform === 'twitch') return { status: 400, body: { status: 400, message: 'missing token' } };
      return tokenError(platform, 'missing_parameter', 'token');
    }
    const token = world.tokens.get(tokenString) ?? world.refreshTokens.get(tokenString);
    if (!token || token.platform !== platform || (auth !== 'none' && token.clientId !== creds.clientId)) {
      if (platform === 'twitch') return { status: 400, body: { status: 400, message: 'Invalid token' } };
      if (platform === 'youtube') return { status: 400, body: { error: 'invalid_token', error_description: 'Token expired or revoked' } };
      // RFC 7009: revoking an unknown token is not an error.
      return null;
    }
    world.revokeToken(token);
    world.record({ platform, type: 'revoke', channelId: null, actorId: token.userId, data: { clientId: token.clientId } });
    return null;
  }

  private createDiscordWebhook(userId: string, clientId: string): Record<string, unknown> {
    const id = this.random.digits(19);
    const token = newToken(48);
    const guildId = this.random.digits(18);
    const channelId = this.random.digits(19);
    this.ctx.world.discordWebhooks.set(id, {
      id,
      token,
      channelId,
      guildId,
      name: 'Greenroom',
      userId,
      applicationId: clientId,
      createdAt: new Date(),
    });
    return {
      type: 1,
      id,
      name: 'Greenroom',
      avatar: null,
      channel_id: channelId,
      guild_id: guildId,
      application_id: clientId,
      token,
      url: `${this.ctx.origin()}/discord/api/webhooks/${id}/${token}`,
    };
  }

  /** Drops every pending code (world reset). */
  clear(): void {
    this.codes.clear();
  }
}

function errorTitle(platform: Platform, what: 'client' | 'redirect'): string {
  switch (platform) {
    case 'twitch':
      return what === 'client' ? 'invalid client' : 'redirect_mismatch';
    case 'youtube':
      return what === 'client' ? 'Error 401: invalid_client' : 'Error 400: redirect_uri_mismatch';
    case 'spotify':
      return what === 'client' ? 'INVALID_CLIENT: Invalid client' : 'INVALID_CLIENT: Invalid redirect URI';
    case 'discord':
      return what === 'client' ? 'Unknown Application' : 'Invalid OAuth2 redirect_uri';
    case 'kick':
      return what === 'client' ? 'Invalid client' : 'Invalid redirect URI';
    case 'tiktok':
      return what === 'client' ? 'client_key' : 'redirect_uri';
  }
}
