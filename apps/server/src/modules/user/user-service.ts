import { and, eq, inArray, sql } from 'drizzle-orm';
import { AccessLevel } from '@greenroom/contracts/access';
import { providers } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelUsers, channels, sessions, userProviders, userSettings, users } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { AccessEvents } from '../../lib/access-events';
import type { TokenCipher } from '../../lib/crypto';
import { newId } from '../../lib/ids';
import type { OAuthProvider } from '../../platforms/endpoints';
import type { Identity, TokenSet } from '../../platforms/oauth-client';

export type UserRow = typeof users.$inferSelect;
export type UserProviderRow = typeof userProviders.$inferSelect;

export interface UserServiceDeps {
  /** Closes every platform connection of a channel and revokes its tokens (before the channel is deleted). */
  disconnectPlatforms(channelId: string, actorUserId: string | null): Promise<void>;
  /** Tells open sockets the account (and the channels that went with it) is gone: they close. */
  access?: Pick<AccessEvents, 'userDeleted' | 'channelDeleted'>;
}

export class UserService {
  constructor(
    private readonly db: Db,
    private readonly cipher: TokenCipher,
    private readonly deps: UserServiceDeps,
  ) {}

  private tokenColumns(tokens: TokenSet) {
    return {
      accessTokenEnc: this.cipher.encrypt(tokens.accessToken),
      refreshTokenEnc: this.cipher.encryptNullable(tokens.refreshToken),
      tokenExpiresAt: tokens.expiresAt,
      scopes: tokens.scopes,
      scopeNeeded: false,
    };
  }

  /** The same platform account always maps to the same user; a new account creates a user. */
  async signIn(provider: OAuthProvider, identity: Identity, tokens: TokenSet): Promise<UserRow> {
    return this.db.transaction(async (tx) => {
      const [existing] = await tx
        .select()
        .from(userProviders)
        .where(and(eq(userProviders.provider, provider), eq(userProviders.providerUserId, identity.providerUserId)))
        .limit(1);
      if (existing) {
        await tx
          .update(userProviders)
          .set({ login: identity.login, displayName: identity.displayName, ...this.tokenColumns(tokens) })
          .where(eq(userProviders.id, existing.id));
        const [user] = await tx.select().from(users).where(eq(users.id, existing.userId));
        if (!user) throw notFound('User not found');
        return user;
      }
      const [user] = await tx
        .insert(users)
        .values({ id: newId(), displayName: identity.displayName, avatarUrl: identity.avatarUrl })
        .returning();
      await tx.insert(userProviders).values({
        id: newId(),
        userId: user!.id,
        provider,
        providerUserId: identity.providerUserId,
        login: identity.login,
        displayName: identity.displayName,
        ...this.tokenColumns(tokens),
      });
      return user!;
    });
  }

  /** Adds a sign-in connection to a signed-in user (or refreshes it when it is theirs already). */
  async link(userId: string, provider: OAuthProvider, identity: Identity, tokens: TokenSet): Promise<UserProviderRow> {
    const [existing] = await this.db
      .select()
      .from(userProviders)
      .where(and(eq(userProviders.provider, provider), eq(userProviders.providerUserId, identity.providerUserId)))
      .limit(1);
    if (existing && existing.userId !== userId) {
      throw conflict(`This ${providers[provider].name} account is already connected to another Greenroom user.`);
    }
    const values = { login: identity.login, displayName: identity.displayName, ...this.tokenColumns(tokens) };
    if (existing) {
      const [row] = await this.db.update(userProviders).set(values).where(eq(userProviders.id, existing.id)).returning();
      return row!;
    }
    const [row] = await this.db
      .insert(userProviders)
      .values({ id: newId(), userId, provider, providerUserId: identity.providerUserId, ...values })
      .returning();
    return row!;
  }

  async get(userId: string): Promise<UserRow> {
    const [user] = await this.db.select().from(users).where(eq(users.id, userId));
    if (!user) throw notFound('User not found');
    return user;
  }

  listProviders(userId: string): Promise<UserProviderRow[]> {
    return this.db.select().from(userProviders).where(eq(userProviders.userId, userId)).orderBy(userProviders.createdAt, userProviders.id);
  }

  async removeProvider(userId: string, userProviderId: string): Promise<void> {
    const rows = await this.listProviders(userId);
    const target = rows.find((r) => r.id === userProviderId);
    if (!target) throw notFound('Connection not found');
    const signin = rows.filter((r) => providers[r.provider as OAuthProvider]?.signinProvider);
    if (signin.length <= 1 && providers[target.provider as OAuthProvider]?.signinProvider) {
      throw badRequest('This is your only sign-in connection. Connect another platform before you disconnect this one.');
    }
    await this.db.delete(userProviders).where(and(eq(userProviders.id, userProviderId), eq(userProviders.userId, userId)));
  }

  async getSettings(userId: string): Promise<Record<string, unknown>> {
    const [row] = await this.db.select().from(userSettings).where(eq(userSettings.userId, userId));
    return row?.settings ?? {};
  }

  async putSettings(userId: string, settings: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.db
      .insert(userSettings)
      .values({ userId, settings })
      .onConflictDoUpdate({ target: userSettings.userId, set: { settings, updatedAt: new Date() } });
    return settings;
  }

  /** Channels whose only Owner is this user (deleted with the account; channels with another owner stay). */
  private async solelyOwnedChannels(db: Pick<Db, 'select'>, userId: string): Promise<string[]> {
    const owned = await db
      .select({ channelId: channelUsers.channelId })
      .from(channelUsers)
      .where(and(eq(channelUsers.userId, userId), eq(channelUsers.level, AccessLevel.OWNER)));
    const ids = owned.map((o) => o.channelId);
    if (ids.length === 0) return [];
    const shared = await db
      .select({ channelId: channelUsers.channelId, owners: sql<number>`count(*)::int` })
      .from(channelUsers)
      .where(and(inArray(channelUsers.channelId, ids), eq(channelUsers.level, AccessLevel.OWNER)))
      .groupBy(channelUsers.channelId);
    return shared.filter((s) => s.owners <= 1).map((s) => s.channelId);
  }

  /**
   * Deletes the account: its connections and settings (cascade), the channels it solely owns, and its staff roles.
   * The platforms of those channels are disconnected first (connections closed, tokens revoked); sessions are revoked.
   */
  async delete(userId: string, typedName: string): Promise<void> {
    const user = await this.get(userId);
    if (typedName !== user.displayName) {
      const message = `Type your display name "${user.displayName}" exactly to confirm.`;
      throw badRequest(message, { username: message });
    }
    for (const channelId of await this.solelyOwnedChannels(this.db, userId)) await this.deps.disconnectPlatforms(channelId, null);
    const deletedChannels = await this.db.transaction(async (tx) => {
      const solelyOwned = await this.solelyOwnedChannels(tx, userId);
      if (solelyOwned.length > 0) await tx.delete(channels).where(inArray(channels.id, solelyOwned));
      await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, userId));
      await tx.delete(users).where(eq(users.id, userId));
      return solelyOwned;
    });
    // Open sockets of this account, and of everyone on the channels that went with it, close now.
    this.deps.access?.userDeleted(userId);
    for (const channelId of deletedChannels) this.deps.access?.channelDeleted(channelId);
  }
}
