/**
 * A @twurple AuthProvider over Greenroom token sources: twurple asks for a user's token, we hand
 * out the TokenSource's (refreshed before expiry); after a 401 twurple asks for a refresh, which the
 * TokenSource performs single-flight and persists. Twurple never stores or refreshes tokens itself.
 */
import type { UserIdResolvable } from '@twurple/api';
import type { AccessTokenMaybeWithUserId, AccessTokenWithUserId, AuthProvider } from '@twurple/auth';
import type { TokenSource } from '../port';

function userIdOf(user: UserIdResolvable): string {
  return typeof user === 'object' ? user.id : String(user);
}

export class TokenSourceAuthProvider implements AuthProvider {
  readonly authorizationType = 'Bearer';
  private readonly sources = new Map<string, TokenSource>();
  /** The token last handed out per user: a 401 means this one was rejected. */
  private readonly handedOut = new Map<string, string>();

  constructor(
    readonly clientId: string,
    sources: (TokenSource | null)[],
  ) {
    for (const s of sources) if (s && !this.sources.has(s.providerUserId)) this.sources.set(s.providerUserId, s);
  }

  has(userId: string): boolean {
    return this.sources.has(userId);
  }

  private source(user: UserIdResolvable): TokenSource {
    const id = userIdOf(user);
    const found = this.sources.get(id);
    if (!found) throw new Error(`No Twitch credential for user ${id}`);
    return found;
  }

  private wrap(source: TokenSource, accessToken: string): AccessTokenWithUserId {
    this.handedOut.set(source.providerUserId, accessToken);
    return {
      accessToken,
      refreshToken: null,
      scope: [...source.scopes],
      expiresIn: null,
      obtainmentTimestamp: Date.now(),
      userId: source.providerUserId,
    };
  }

  getCurrentScopesForUser(user: UserIdResolvable): string[] {
    return [...this.source(user).scopes];
  }

  async getAccessTokenForUser(user: UserIdResolvable): Promise<AccessTokenWithUserId | null> {
    const source = this.sources.get(userIdOf(user));
    if (!source) return null;
    return this.wrap(source, await source.accessToken());
  }

  async getAnyAccessToken(user?: UserIdResolvable): Promise<AccessTokenMaybeWithUserId> {
    const source = user === undefined ? this.sources.values().next().value : this.sources.get(userIdOf(user));
    if (!source) throw new Error('No Twitch credential available');
    return this.wrap(source, await source.accessToken());
  }

  async refreshAccessTokenForUser(user: UserIdResolvable): Promise<AccessTokenWithUserId> {
    const source = this.source(user);
    const rejected = this.handedOut.get(source.providerUserId) ?? '';
    return this.wrap(source, await source.refreshAfterUnauthorized(rejected));
  }
}
