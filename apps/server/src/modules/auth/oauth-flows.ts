import { eq, lt } from 'drizzle-orm';
import { providers } from '@greenroom/contracts/providers';
import { CONNECT_ERROR_HASH_KEY, type OauthCallbackResult } from '@greenroom/contracts/api/user';
import type { Db } from '../../db/client';
import { oauthStates } from '../../db/schema';
import { AppError, badRequest } from '../../lib/errors';
import { randomToken, sha256 } from '../../lib/crypto';
import type { OAuthProvider, PlatformEndpoints } from '../../platforms/endpoints';
import { authorizeUrl, exchangeCode, fetchIdentity, newPkceVerifier, type Identity, type TokenSet } from '../../platforms/oauth-client';

export type FlowPurpose = (typeof oauthStates.$inferSelect)['purpose'];
export const OAUTH_STATE_COOKIE = 'gr_oauth_state';
const STATE_TTL_MS = 10 * 60_000;

export interface CompletedFlow {
  provider: OAuthProvider;
  tokens: TokenSet;
  identity: Identity;
  userId: string | null;
  channelId: string | null;
  redirectTo: string;
}

/** What a feature does once the platform has answered: returns where the browser goes next. */
export type FlowHandler = (flow: CompletedFlow) => Promise<OauthCallbackResult>;

/**
 * OAuth 2.0 authorization-code flows for every purpose (sign-in, linking a login, connecting a
 * channel, its bot, the system bot). `state` is random, stored hashed with the PKCE verifier, single
 * use, expiring, and bound to the browser by a signed cookie carrying the same value.
 */
export class OAuthFlows {
  private readonly handlers = new Map<FlowPurpose, FlowHandler>();

  constructor(
    private readonly db: Db,
    private readonly endpoints: PlatformEndpoints,
    private readonly publicUrl: string,
  ) {}

  on(purpose: FlowPurpose, handler: FlowHandler): void {
    this.handlers.set(purpose, handler);
  }

  redirectUri(provider: OAuthProvider): string {
    return `${this.publicUrl}/oauth/${provider}`;
  }

  async start(input: {
    purpose: FlowPurpose;
    provider: OAuthProvider;
    scopes: string[];
    redirectTo: string;
    userId?: string;
    channelId?: string;
    forceVerify?: boolean;
  }): Promise<{ url: string; state: string }> {
    const endpoints = this.endpoints[input.provider];
    if (!endpoints.clientId) throw new AppError(422, 'unsupported', `${providers[input.provider].name} is not configured on this server.`);
    const state = randomToken(24);
    const codeVerifier = endpoints.pkce === 'none' ? null : newPkceVerifier();
    await this.db.delete(oauthStates).where(lt(oauthStates.expiresAt, new Date()));
    await this.db.insert(oauthStates).values({
      stateHash: sha256(state),
      purpose: input.purpose,
      provider: input.provider,
      codeVerifier,
      redirectTo: input.redirectTo,
      userId: input.userId ?? null,
      channelId: input.channelId ?? null,
      expiresAt: new Date(Date.now() + STATE_TTL_MS),
    });
    const url = authorizeUrl(endpoints, {
      redirectUri: this.redirectUri(input.provider),
      scopes: input.scopes,
      state,
      codeVerifier,
      forceVerify: input.forceVerify,
    });
    return { url, state };
  }

  async complete(input: {
    provider: OAuthProvider;
    code?: string;
    state: string;
    cookieState: string | null;
    error?: string;
    errorDescription?: string;
  }): Promise<OauthCallbackResult> {
    const name = providers[input.provider].name;
    if (!input.cookieState || input.cookieState !== input.state) {
      throw badRequest(`This ${name} sign-in was started in another browser or has expired. Please start again.`);
    }
    const [row] = await this.db
      .delete(oauthStates)
      .where(eq(oauthStates.stateHash, sha256(input.state)))
      .returning();
    if (!row || row.provider !== input.provider || row.expiresAt.getTime() < Date.now()) {
      throw badRequest(`This ${name} sign-in has expired or was already used. Please start again.`);
    }
    if (input.error) {
      const why = input.error === 'access_denied' ? 'you cancelled it' : (input.errorDescription ?? input.error);
      const message = `${name} did not connect: ${why}.`;
      // A connect flow (not a sign-in) goes back to its landing page, which tells the window that opened it.
      if (row.purpose !== 'signin') return { redirect_to: `${row.redirectTo}#${CONNECT_ERROR_HASH_KEY}=${encodeURIComponent(message)}` };
      throw badRequest(message);
    }
    if (!input.code) throw badRequest(`${name} did not return an authorization code.`);
    const handler = this.handlers.get(row.purpose);
    if (!handler) throw new AppError(500, 'internal_error', `No handler for ${row.purpose} flows`);
    const endpoints = this.endpoints[input.provider];
    const tokens = await exchangeCode(input.provider, endpoints, {
      code: input.code,
      redirectUri: this.redirectUri(input.provider),
      codeVerifier: row.codeVerifier,
      scopes: [],
    });
    const identity = await fetchIdentity(input.provider, this.endpoints, tokens.accessToken);
    return handler({
      provider: input.provider,
      tokens,
      identity,
      userId: row.userId,
      channelId: row.channelId,
      redirectTo: row.redirectTo,
    });
  }
}
