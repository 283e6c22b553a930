/**
 * Token sources: one per stored credential (a channel's broadcaster token, its own bot, an operator
 * system bot). Each decrypts its row, refreshes before expiry and after a 401 with a single-flight
 * lock, persists every rotated refresh token (encrypted), and on a permanent refusal marks the row
 * `scope_needed` / `bot_scope_needed` and reports it, without throwing anything but
 * a PlatformError asking for reconnection to its callers.
 */
import { and, eq } from 'drizzle-orm';
import { isOAuthProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../db/client';
import { channelProviders, systemBots } from '../db/schema';
import type { TokenCipher } from '../lib/crypto';
import type { OAuthProvider, PlatformEndpoints } from './endpoints';
import { refreshTokens, type TokenSet } from './oauth-client';
import { isReconnectNeeded, reconnectNeeded } from './platform-error';
import type { TokenSource } from './port';

export type CredentialRef =
  | { kind: 'broadcaster'; channelProviderId: string }
  | { kind: 'bot'; channelProviderId: string }
  | { kind: 'system_bot'; provider: OAuthProvider };

export function credentialKey(ref: CredentialRef): string {
  return ref.kind === 'system_bot' ? `system_bot:${ref.provider}` : `${ref.kind}:${ref.channelProviderId}`;
}

interface StoredCredential {
  provider: OAuthProvider;
  providerUserId: string;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string[];
  scopeNeeded: boolean;
}

/** Reads and writes the encrypted token columns of the three credential kinds. */
export class CredentialRepository {
  constructor(
    private readonly db: Db,
    private readonly cipher: TokenCipher,
  ) {}

  async load(ref: CredentialRef): Promise<StoredCredential | null> {
    if (ref.kind === 'system_bot') {
      const [row] = await this.db.select().from(systemBots).where(eq(systemBots.provider, ref.provider));
      if (!row?.accessTokenEnc) return null;
      return {
        provider: ref.provider,
        providerUserId: row.providerUserId,
        accessToken: this.cipher.decrypt(row.accessTokenEnc),
        refreshToken: this.cipher.decryptNullable(row.refreshTokenEnc),
        expiresAt: row.tokenExpiresAt,
        scopes: row.scopes,
        scopeNeeded: row.scopeNeeded,
      };
    }
    const [row] = await this.db.select().from(channelProviders).where(eq(channelProviders.id, ref.channelProviderId));
    if (!row || !isOAuthProviderId(row.provider)) return null;
    if (ref.kind === 'broadcaster') {
      if (!row.accessTokenEnc) return null;
      return {
        provider: row.provider,
        providerUserId: row.providerChannelId,
        accessToken: this.cipher.decrypt(row.accessTokenEnc),
        refreshToken: this.cipher.decryptNullable(row.refreshTokenEnc),
        expiresAt: row.tokenExpiresAt,
        scopes: row.scopes,
        scopeNeeded: row.scopeNeeded,
      };
    }
    if (!row.botAccessTokenEnc || !row.botProviderUserId) return null;
    return {
      provider: row.provider,
      providerUserId: row.botProviderUserId,
      accessToken: this.cipher.decrypt(row.botAccessTokenEnc),
      refreshToken: this.cipher.decryptNullable(row.botRefreshTokenEnc),
      expiresAt: row.botTokenExpiresAt,
      scopes: row.botScopes,
      scopeNeeded: row.botScopeNeeded,
    };
  }

  /**
   * Persists a refreshed token set; the refresh token is kept when the platform did not rotate it. Only the
   * account the tokens belong to is written: when the row was reconnected as another account meanwhile, an
   * old source's refresh must not overwrite the new account's tokens (nothing is written then).
   */
  async saveRefreshed(ref: CredentialRef, providerUserId: string, tokens: TokenSet, refreshToken: string | null): Promise<void> {
    const access = this.cipher.encrypt(tokens.accessToken);
    const refresh = this.cipher.encryptNullable(refreshToken);
    if (ref.kind === 'system_bot') {
      await this.db
        .update(systemBots)
        .set({
          accessTokenEnc: access,
          refreshTokenEnc: refresh,
          tokenExpiresAt: tokens.expiresAt,
          scopes: tokens.scopes,
          scopeNeeded: false,
        })
        .where(this.systemBotOf(ref.provider, providerUserId));
    } else if (ref.kind === 'broadcaster') {
      await this.db
        .update(channelProviders)
        .set({ accessTokenEnc: access, refreshTokenEnc: refresh, tokenExpiresAt: tokens.expiresAt, scopes: tokens.scopes })
        .where(this.broadcasterOf(ref.channelProviderId, providerUserId));
    } else {
      await this.db
        .update(channelProviders)
        .set({ botAccessTokenEnc: access, botRefreshTokenEnc: refresh, botTokenExpiresAt: tokens.expiresAt, botScopes: tokens.scopes })
        .where(this.botOf(ref.channelProviderId, providerUserId));
    }
  }

  /** Flags the credential for reconnecting, if the row still holds that account. */
  async markNeeded(ref: CredentialRef, providerUserId: string): Promise<void> {
    if (ref.kind === 'system_bot')
      await this.db.update(systemBots).set({ scopeNeeded: true }).where(this.systemBotOf(ref.provider, providerUserId));
    else if (ref.kind === 'broadcaster')
      await this.db.update(channelProviders).set({ scopeNeeded: true }).where(this.broadcasterOf(ref.channelProviderId, providerUserId));
    else await this.db.update(channelProviders).set({ botScopeNeeded: true }).where(this.botOf(ref.channelProviderId, providerUserId));
  }

  private systemBotOf(provider: string, providerUserId: string) {
    return and(eq(systemBots.provider, provider), eq(systemBots.providerUserId, providerUserId));
  }

  private broadcasterOf(channelProviderId: string, providerUserId: string) {
    return and(eq(channelProviders.id, channelProviderId), eq(channelProviders.providerChannelId, providerUserId));
  }

  private botOf(channelProviderId: string, providerUserId: string) {
    return and(eq(channelProviders.id, channelProviderId), eq(channelProviders.botProviderUserId, providerUserId));
  }
}

export interface TokenSourceDeps {
  repository: CredentialRepository;
  endpoints: PlatformEndpoints;
  /** Called once when a credential needs reconnecting (the row is already marked). */
  onReauthRequired(ref: CredentialRef, detail: string): void;
  log: { warn(obj: object, msg?: string): void };
  now?: () => number;
  /**
   * Several instances: a lock across them around one credential's refresh (Redis), so only one asks the platform
   * and the others adopt what it stored. Resolves with its release. Without it (one instance) the in-process
   * single-flight is enough.
   */
  lock?: (key: string) => Promise<() => Promise<void>>;
}

/** Refresh this long before the platform's expiry. */
const REFRESH_MARGIN_MS = 60_000;

/** One stored credential as a self-refreshing TokenSource. */
export class StoredTokenSource implements TokenSource {
  readonly provider: OAuthProvider;
  readonly providerUserId: string;
  private access: string;
  private refresh: string | null;
  private expiresAt: Date | null;
  private currentScopes: string[];
  private needed: boolean;
  private inflight: Promise<string> | null = null;

  constructor(
    readonly ref: CredentialRef,
    stored: StoredCredential,
    private readonly deps: TokenSourceDeps,
  ) {
    this.provider = stored.provider;
    this.providerUserId = stored.providerUserId;
    this.access = stored.accessToken;
    this.refresh = stored.refreshToken;
    this.expiresAt = stored.expiresAt;
    this.currentScopes = stored.scopes;
    this.needed = stored.scopeNeeded;
  }

  get scopes(): readonly string[] {
    return this.currentScopes;
  }

  /** True once the platform refused this credential for good. */
  get reauthRequired(): boolean {
    return this.needed;
  }

  /** The access token as currently held (no refresh), for callers that only need to identify it. */
  get current(): string {
    return this.access;
  }

  async accessToken(): Promise<string> {
    if (this.needed) throw reconnectNeeded(this.provider, 'the connection was refused earlier');
    if (this.inflight) return this.inflight;
    const now = this.deps.now?.() ?? Date.now();
    if (this.expiresAt && this.expiresAt.getTime() - now < REFRESH_MARGIN_MS) return this.refreshNow();
    return this.access;
  }

  async refreshAfterUnauthorized(rejected: string): Promise<string> {
    if (this.needed) throw reconnectNeeded(this.provider, 'the connection was refused earlier');
    if (this.inflight) return this.inflight;
    // Someone else refreshed since this token was handed out: use the new one.
    if (rejected !== this.access) return this.access;
    return this.refreshNow();
  }

  /** Marks the credential as needing reconnection (revoked, missing scope seen by an API call). */
  async markReauthRequired(detail: string): Promise<void> {
    if (this.needed) return;
    this.needed = true;
    try {
      await this.deps.repository.markNeeded(this.ref, this.providerUserId);
    } finally {
      this.deps.onReauthRequired(this.ref, detail);
    }
  }

  private refreshNow(): Promise<string> {
    if (!this.inflight) {
      this.inflight = this.doRefresh().finally(() => {
        this.inflight = null;
      });
    }
    return this.inflight;
  }

  /**
   * Takes the stored tokens when another instance (or an older source of this one) refreshed since this source
   * loaded them: the refresh token it holds may already be spent (platforms that rotate refresh tokens refuse it).
   */
  private async adoptStored(): Promise<boolean> {
    const stored = await this.deps.repository.load(this.ref);
    if (!stored || stored.providerUserId !== this.providerUserId) return false;
    if (stored.refreshToken === this.refresh && stored.accessToken === this.access) return false;
    this.access = stored.accessToken;
    this.refresh = stored.refreshToken;
    this.expiresAt = stored.expiresAt;
    if (stored.scopes.length > 0) this.currentScopes = stored.scopes;
    return true;
  }

  private async doRefresh(): Promise<string> {
    const release = await this.deps.lock?.(credentialKey(this.ref));
    try {
      // Refreshed elsewhere while this source waited or held old tokens: use those (a single flight across instances).
      const now = this.deps.now?.() ?? Date.now();
      if ((await this.adoptStored()) && (!this.expiresAt || this.expiresAt.getTime() - now >= REFRESH_MARGIN_MS)) return this.access;
      return await this.refreshHeld();
    } finally {
      await release?.();
    }
  }

  private async refreshHeld(): Promise<string> {
    if (!this.refresh) {
      await this.markReauthRequired('no refresh token');
      throw reconnectNeeded(this.provider, 'the token expired and cannot be refreshed');
    }
    let tokens: TokenSet;
    try {
      tokens = await refreshTokens(this.provider, this.deps.endpoints[this.provider], this.refresh, this.currentScopes);
    } catch (error) {
      // Refused because another instance spent this refresh token first (its save landed meanwhile): use its tokens.
      if (isReconnectNeeded(error) && (await this.adoptStored().catch(() => false))) return this.access;
      if (isReconnectNeeded(error)) {
        await this.markReauthRequired(error.message);
      } else {
        this.deps.log.warn({ err: error, credential: credentialKey(this.ref) }, 'token refresh failed (temporary)');
      }
      throw error;
    }
    const refreshToken = tokens.refreshToken ?? this.refresh;
    // Persist first: a rotated refresh token that is lost would end the connection at the next refresh.
    await this.deps.repository.saveRefreshed(this.ref, this.providerUserId, tokens, refreshToken);
    this.access = tokens.accessToken;
    this.refresh = refreshToken;
    this.expiresAt = tokens.expiresAt;
    if (tokens.scopes.length > 0) this.currentScopes = tokens.scopes;
    return this.access;
  }

  /**
   * Checks with the platform that the token still works, so a revocation (the user removed the app, changed
   * their password) is seen without waiting for a failed call: Twitch `GET /oauth2/validate` (required at start
   * and hourly), Kick `POST /oauth/token/introspect` (`active`). A refused token is refreshed; a refused
   * refresh marks the credential for reconnection. Transient failures are ignored. Other platforms: nothing.
   */
  async validate(): Promise<void> {
    if (this.needed || !isValidatedProvider(this.provider)) return;
    const token = this.access;
    let valid: boolean | null;
    try {
      valid = await checkToken(this.provider, this.deps.endpoints, token);
    } catch (error) {
      this.deps.log.warn({ err: error, credential: credentialKey(this.ref) }, 'token validation could not reach the platform');
      return;
    }
    if (valid !== false) return;
    try {
      await this.refreshAfterUnauthorized(token);
    } catch (error) {
      if (!isReconnectNeeded(error)) this.deps.log.warn({ err: error }, 'token refresh after validation failed');
    }
  }
}

/** Platforms whose tokens are validated on a schedule. */
export const validatedProviders = ['twitch', 'kick'] as const;
export type ValidatedProvider = (typeof validatedProviders)[number];

function isValidatedProvider(provider: OAuthProvider): provider is ValidatedProvider {
  return (validatedProviders as readonly string[]).includes(provider);
}

/** True: the token works; false: the platform refused it; null: no clear answer (5xx, unreadable). Throws when unreachable. */
async function checkToken(provider: ValidatedProvider, endpoints: PlatformEndpoints, token: string): Promise<boolean | null> {
  const signal = AbortSignal.timeout(10_000);
  if (provider === 'twitch') {
    const response = await fetch(endpoints.twitch.validateUrl, { headers: { authorization: `OAuth ${token}` }, signal });
    await response.body?.cancel();
    return response.status === 401 ? false : response.ok ? true : null;
  }
  const response = await fetch(endpoints.kick.introspectUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    signal,
  });
  if (response.status === 401) {
    await response.body?.cancel();
    return false;
  }
  if (!response.ok) {
    await response.body?.cancel();
    return null;
  }
  const body = (await response.json().catch(() => null)) as { data?: { active?: unknown } } | null;
  const active = body?.data?.active;
  return typeof active === 'boolean' ? active : null;
}

/**
 * The token sources of every credential, created on first use and shared (one lock per credential). Only
 * found credentials are kept: a credential missing now (a system bot not connected yet) is looked up again
 * on the next use. Connecting, reconnecting or disconnecting a credential must `forget` it.
 */
export class TokenSources {
  private readonly sources = new Map<string, Promise<StoredTokenSource | null>>();

  constructor(private readonly deps: TokenSourceDeps) {}

  get(ref: CredentialRef): Promise<StoredTokenSource | null> {
    const key = credentialKey(ref);
    let found = this.sources.get(key);
    if (!found) {
      const loading = this.deps.repository.load(ref).then((stored) => (stored ? new StoredTokenSource(ref, stored, this.deps) : null));
      found = loading;
      const forgetUnless = (keep: boolean) => {
        if (!keep && this.sources.get(key) === loading) this.sources.delete(key);
      };
      loading.then((source) => forgetUnless(source !== null)).catch(() => forgetUnless(false));
      this.sources.set(key, loading);
    }
    return found;
  }

  /** Forgets cached sources (after a reconnect stored new tokens, or a disconnect). */
  forgetChannelProvider(channelProviderId: string): void {
    this.sources.delete(credentialKey({ kind: 'broadcaster', channelProviderId }));
    this.sources.delete(credentialKey({ kind: 'bot', channelProviderId }));
  }

  forget(ref: CredentialRef): void {
    this.sources.delete(credentialKey(ref));
  }

  /**
   * Validates every loaded credential of a platform (Twitch at start and hourly, Kick every minute or sooner), or
   * those `which` keeps (several instances: the credentials of the connections this instance runs).
   */
  async validateAll(provider: ValidatedProvider, which: (ref: CredentialRef) => boolean = () => true): Promise<void> {
    const loaded = await Promise.all([...this.sources.values()].map((p) => p.catch(() => null)));
    await Promise.all(
      loaded.filter((s): s is StoredTokenSource => s !== null && s.provider === provider && which(s.ref)).map((s) => s.validate()),
    );
  }
}
