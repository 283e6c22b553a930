import { eq, inArray } from 'drizzle-orm';
import type { SystemBotProvider } from '@greenroom/contracts/api/system-bots';
import { systemBotProviderIds } from '@greenroom/contracts/api/system-bots';
import { providerIdSchema, providers, type ProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { systemBots } from '../../db/schema';
import type { TokenCipher } from '../../lib/crypto';
import { notFound } from '../../lib/errors';
import type { OAuthProvider } from '../../platforms/endpoints';
import type { Identity, TokenRevoker, TokenSet } from '../../platforms/oauth-client';

export interface SystemBotDeps {
  db: Db;
  cipher: TokenCipher;
  /** Revokes tokens at the platform (the platform layer's, best effort). */
  revoke: TokenRevoker;
  log: { warn(obj: object, msg?: string): void };
  /**
   * Called after the bot of a platform was connected, replaced or removed: live connections that send as it
   * are reopened and the channels' platform lists updated.
   */
  onChanged?: (provider: OAuthProvider) => Promise<void>;
}

/**
 * The operators' system bot accounts, one per platform with the `systemBot` capability. Tokens are
 * sealed with the server's cipher; a fresh connection clears `scope_needed`. Every change takes effect on
 * the live connections at once (`onChanged`: they drop the bot's cached token and reconnect); tokens that are no longer stored are revoked at the platform.
 */
export class SystemBotService {
  onChanged: ((provider: OAuthProvider) => Promise<void>) | null;

  constructor(private readonly deps: SystemBotDeps) {
    this.onChanged = deps.onChanged ?? null;
  }

  async list(): Promise<SystemBotProvider[]> {
    const rows = await this.deps.db
      .select()
      .from(systemBots)
      .where(inArray(systemBots.provider, systemBotProviderIds))
      .orderBy(systemBots.provider);
    return rows.map((r) => ({
      provider: providerIdSchema.parse(r.provider),
      scope_needed: r.scopeNeeded,
      display_name: r.displayName,
      provider_user_id: r.providerUserId,
      connected_at: r.createdAt.toISOString(),
    }));
  }

  async connect(provider: OAuthProvider, identity: Identity, tokens: TokenSet): Promise<void> {
    const { db, cipher } = this.deps;
    const values = {
      providerUserId: identity.providerUserId,
      displayName: identity.displayName,
      accessTokenEnc: cipher.encrypt(tokens.accessToken),
      refreshTokenEnc: cipher.encryptNullable(tokens.refreshToken),
      tokenExpiresAt: tokens.expiresAt,
      scopes: tokens.scopes,
      scopeNeeded: false,
      createdAt: new Date(),
    };
    const [previous] = await db.select().from(systemBots).where(eq(systemBots.provider, provider));
    await db
      .insert(systemBots)
      .values({ provider, ...values })
      .onConflictDoUpdate({ target: systemBots.provider, set: values });
    await this.changed(provider);
    // Another account replaced the bot: its tokens are no longer kept, so they must not stay valid either.
    // (The same account reconnecting keeps its grant: Google revokes the whole grant with any of its tokens.)
    if (previous && previous.providerUserId !== identity.providerUserId) await this.revoke(provider, previous);
  }

  async disconnect(provider: ProviderId): Promise<void> {
    const [removed] = await this.deps.db.delete(systemBots).where(eq(systemBots.provider, provider)).returning();
    if (!removed) throw notFound(`No ${providers[provider].name} system bot is connected.`);
    await this.changed(provider as OAuthProvider);
    await this.revoke(provider as OAuthProvider, removed);
  }

  private async changed(provider: OAuthProvider): Promise<void> {
    try {
      await this.onChanged?.(provider);
    } catch (error) {
      this.deps.log.warn({ err: error, provider }, 'applying a system bot change to live connections failed');
    }
  }

  private async revoke(provider: OAuthProvider, row: typeof systemBots.$inferSelect): Promise<void> {
    const { cipher } = this.deps;
    await this.deps.revoke(provider, [cipher.decryptNullable(row.refreshTokenEnc), cipher.decryptNullable(row.accessTokenEnc)]);
  }
}
