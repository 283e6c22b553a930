import { eq, inArray } from 'drizzle-orm';
import type { SystemBotProvider } from '@greenroom/contracts/api/system-bots';
import { systemBotProviderIds } from '@greenroom/contracts/api/system-bots';
import { providerIdSchema, providers, type ProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { systemBots } from '../../db/schema';
import type { TokenCipher } from '../../lib/crypto';
import { notFound } from '../../lib/errors';
import type { Identity, TokenSet } from '../../platforms/oauth-client';

/**
 * The operators' system bot accounts, one per platform with the `systemBot` capability. Tokens are
 * sealed with the server's cipher; a fresh connection clears `scope_needed`. `changed` runs after a
 * connect or disconnect (the platform layer drops the bot's cached token, so running channels use the new one).
 */
export class SystemBotService {
  constructor(
    private readonly db: Db,
    private readonly cipher: TokenCipher,
    private readonly changed: (provider: ProviderId) => void = () => {},
  ) {}

  async list(): Promise<SystemBotProvider[]> {
    const rows = await this.db
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

  async connect(provider: ProviderId, identity: Identity, tokens: TokenSet): Promise<void> {
    const values = {
      providerUserId: identity.providerUserId,
      displayName: identity.displayName,
      accessTokenEnc: this.cipher.encrypt(tokens.accessToken),
      refreshTokenEnc: this.cipher.encryptNullable(tokens.refreshToken),
      tokenExpiresAt: tokens.expiresAt,
      scopes: tokens.scopes,
      scopeNeeded: false,
      createdAt: new Date(),
    };
    await this.db
      .insert(systemBots)
      .values({ provider, ...values })
      .onConflictDoUpdate({ target: systemBots.provider, set: values });
    this.changed(provider);
  }

  async disconnect(provider: ProviderId): Promise<void> {
    const removed = await this.db.delete(systemBots).where(eq(systemBots.provider, provider)).returning({ provider: systemBots.provider });
    if (removed.length === 0) throw notFound(`No ${providers[provider].name} system bot is connected.`);
    this.changed(provider);
  }
}
