import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { channelUsers, channels, sessions, userProviders, users } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/crypto';
import type { AccessEvents } from '../../lib/access-events';
import { newId } from '../../lib/ids';

export interface AuthUser {
  id: string;
  displayName: string;
  avatarUrl: string | null;
  isOperator: boolean;
}

/** The caller's standing in one channel, read with the session (`lookup(token, channelId)`). */
export interface ChannelStanding {
  channelId: string;
  /** Their staff level in it, or null. */
  level: number | null;
  /** Whether the channel exists (operators have support access to every channel that does). */
  exists: boolean;
}

export type SessionLookup =
  | { ok: true; sessionId: string; user: AuthUser; channel?: ChannelStanding }
  | { ok: false; type: 'unauthenticated' | 'user_no_longer_exists' };

/**
 * Opaque bearer sessions: 256 random bits given to the browser once, only their SHA-256 stored.
 * Sessions of a deleted user are kept revoked (reason 'user_deleted') so the browser is told
 * `user_no_longer_exists` rather than a generic sign-in prompt; they are purged after expiry.
 */
export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly ttlDays: number,
    private readonly admins: { provider: string; providerUserId: string }[],
    private readonly access: AccessEvents | null = null,
  ) {}

  async create(userId: string): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
    const token = randomToken(32);
    const sessionId = newId();
    const expiresAt = new Date(Date.now() + this.ttlDays * 86_400_000);
    await this.db.insert(sessions).values({ id: sessionId, userId, tokenHash: sha256(token), expiresAt });
    return { token, sessionId, expiresAt };
  }

  /**
   * The session of `token` and its user, read now (never cached: a signed-out session or a deleted user is refused on
   * the very next request). With `channelId`, the same statement also reads the user's staff level in that channel
   * and whether it exists — a channel route's authorization in one query instead of two.
   */
  async lookup(token: string, channelId?: string): Promise<SessionLookup> {
    const rows = await this.db
      .select({
        session: sessions,
        user: users,
        level:
          channelId === undefined
            ? sql<number | null>`NULL::int`
            : sql<
                number | null
              >`(SELECT ${channelUsers.level} FROM ${channelUsers} WHERE ${channelUsers.channelId} = ${channelId} AND ${channelUsers.userId} = ${sessions.userId})`,
        exists:
          channelId === undefined
            ? sql<boolean>`false`
            : sql<boolean>`EXISTS (SELECT 1 FROM ${channels} WHERE ${channels.id} = ${channelId})`,
      })
      .from(sessions)
      .leftJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, sha256(token)))
      .limit(1);
    const row = rows[0];
    if (!row || row.session.expiresAt.getTime() <= Date.now()) return { ok: false, type: 'unauthenticated' };
    if (!row.user) return { ok: false, type: 'user_no_longer_exists' };
    if (row.session.revokedAt) return { ok: false, type: 'unauthenticated' };
    const isOperator = row.user.isOperator || (await this.matchesConfiguredAdmin(row.user.id));
    return {
      ok: true,
      sessionId: row.session.id,
      user: { id: row.user.id, displayName: row.user.displayName, avatarUrl: row.user.avatarUrl, isOperator },
      ...(channelId === undefined ? {} : { channel: { channelId, level: row.level ?? null, exists: Boolean(row.exists) } }),
    };
  }

  /** Ends a session (sign-out); its open sockets close. */
  async revoke(sessionId: string): Promise<void> {
    const ended = await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.id, sessionId))
      .returning({ userId: sessions.userId });
    for (const s of ended) this.access?.sessionEnded(s.userId, sessionId);
  }

  /** Whether a session still works: not revoked, not expired, its user still there (open sockets check it now and then). */
  async active(sessionId: string): Promise<boolean> {
    const rows = await this.db
      .select({ revokedAt: sessions.revokedAt, expiresAt: sessions.expiresAt, userId: users.id })
      .from(sessions)
      .leftJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, sessionId))
      .limit(1);
    const row = rows[0];
    return Boolean(row && row.userId && !row.revokedAt && row.expiresAt.getTime() > Date.now());
  }

  /** Revokes every session of a user (account deletion). */
  async revokeAll(userId: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  }

  async purgeExpired(now = new Date()): Promise<void> {
    await this.db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, now), lt(sessions.revokedAt, new Date(now.getTime() - 30 * 86_400_000))));
  }

  private async matchesConfiguredAdmin(userId: string): Promise<boolean> {
    if (this.admins.length === 0) return false;
    const rows = await this.db
      .select({ provider: userProviders.provider, providerUserId: userProviders.providerUserId })
      .from(userProviders)
      .where(and(eq(userProviders.userId, userId), inArray(userProviders.provider, [...new Set(this.admins.map((a) => a.provider))])));
    return rows.some((r) => this.admins.some((a) => a.provider === r.provider && a.providerUserId === r.providerUserId));
  }
}
