/**
 * A channel's platform connections: connecting (OAuth flow handlers for the broadcaster and the
 * channel's own bot), listing with live status and health, disconnecting (tokens revoked at the
 * platform best-effort), and the `new`/`updated`/`deleted` messages of the providers websocket.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { ChannelProvider, ProviderUpdateMessage } from '@greenroom/contracts/api/channel-providers';
import { CHANNEL_PROVIDER_HASH_KEY } from '@greenroom/contracts/api/channel-providers';
import { channelProviderIdSchema, dashboardUrl, providers } from '@greenroom/contracts/providers';
import type { OauthCallbackResult } from '@greenroom/contracts/api/user';
import type { Db } from '../../db/client';
import { channelProviders, systemBots } from '../../db/schema';
import type { TokenCipher } from '../../lib/crypto';
import { conflict, notFound, unsupported } from '../../lib/errors';
import { channelTopic } from '@greenroom/contracts/bus';
import type { EventBus } from '../../lib/event-bus';
import { newId } from '../../lib/ids';
import type { CompletedFlow } from '../auth';
import type { AuditRecorder } from '../audit';
import type { ConnectionControl } from '../../platforms/connection-manager';
import type { TokenRevoker } from '../../platforms/oauth-client';
import { scopesFor } from '../../platforms/scopes';

type Row = typeof channelProviders.$inferSelect;
type SystemBotRow = { provider: string; providerUserId: string; displayName: string; scopeNeeded: boolean };

function missingScopes(granted: string[], wanted: string[]): string[] {
  if (granted.length === 0) return [];
  const have = new Set(granted);
  return wanted.filter((s) => !have.has(s));
}

export class ChannelProviderService {
  constructor(
    private readonly deps: {
      db: Db;
      cipher: TokenCipher;
      bus: EventBus;
      manager: ConnectionControl;
      audit: AuditRecorder;
      /** Revokes tokens at the platform (best effort) when a connection goes for good. */
      revoke: TokenRevoker;
    },
  ) {}

  private async dto(row: Row, systemBot: SystemBotRow | null): Promise<ChannelProvider> {
    const provider = channelProviderIdSchema.parse(row.provider);
    const health = await this.deps.manager.health(row.id);
    let bot: ChannelProvider['bot_provider'] = null;
    if (row.botProviderUserId && row.botAccessTokenEnc) {
      bot = {
        id: row.botProviderUserId,
        provider,
        display_name: row.botDisplayName ?? row.botProviderUserId,
        scope_needed: row.botScopeNeeded,
        system: false,
      };
    } else if (systemBot && providers[provider].systemBot) {
      bot = {
        id: systemBot.providerUserId,
        provider,
        display_name: systemBot.displayName,
        scope_needed: systemBot.scopeNeeded,
        system: true,
      };
    }
    return {
      id: row.id,
      channel_id: row.channelId,
      provider,
      provider_channel_name: row.providerChannelName,
      provider_channel_id: row.providerChannelId,
      live_stream_id: row.liveStreamId,
      scope_needed: row.scopeNeeded,
      bot_provider: bot,
      is_live: row.isLive,
      viewer_count: row.viewerCount,
      health: health
        ? {
            state: health.state,
            detail: health.detail,
            since: health.since,
            last_event_at: health.lastEventAt,
            reconnects: health.reconnects,
          }
        : null,
      dashboard_url: dashboardUrl(provider, row.providerChannelName),
      created_at: row.createdAt.toISOString(),
    };
  }

  private async systemBotOf(provider: string): Promise<SystemBotRow | null> {
    const [row] = await this.deps.db.select().from(systemBots).where(eq(systemBots.provider, provider));
    return row ?? null;
  }

  /** The channel's connections, newest first (the web puts `new` ones at the front). */
  async list(channelId: string): Promise<ChannelProvider[]> {
    const rows = await this.deps.db
      .select()
      .from(channelProviders)
      .where(eq(channelProviders.channelId, channelId))
      .orderBy(desc(channelProviders.createdAt), desc(channelProviders.id));
    const bots = rows.length ? await this.deps.db.select().from(systemBots) : [];
    return Promise.all(rows.map((r) => this.dto(r, bots.find((b) => b.provider === r.provider) ?? null)));
  }

  async row(channelId: string, channelProviderId: string): Promise<Row> {
    const [row] = await this.deps.db
      .select()
      .from(channelProviders)
      .where(and(eq(channelProviders.id, channelProviderId), eq(channelProviders.channelId, channelId)));
    if (!row) throw notFound('This platform connection does not exist.');
    return row;
  }

  async get(channelId: string, channelProviderId: string): Promise<ChannelProvider> {
    const row = await this.row(channelId, channelProviderId);
    return this.dto(row, await this.systemBotOf(row.provider));
  }

  private publish(channelId: string, message: ProviderUpdateMessage): void {
    this.deps.bus.publish(channelTopic(channelId), { type: 'provider.update', data: message });
  }

  /** Publishes the current state of a connection as `updated` (health, live status, scope_needed changed). */
  async publishUpdated(channelProviderId: string): Promise<void> {
    const [row] = await this.deps.db.select().from(channelProviders).where(eq(channelProviders.id, channelProviderId));
    if (!row) return;
    this.publish(row.channelId, { action: 'updated', data: await this.dto(row, await this.systemBotOf(row.provider)) });
  }

  /** Publishes `updated` for every connection that uses the system bot of `provider`. */
  async publishSystemBotChanged(provider: string): Promise<void> {
    const rows = await this.deps.db
      .select({ id: channelProviders.id })
      .from(channelProviders)
      .where(eq(channelProviders.provider, provider));
    for (const r of rows) await this.publishUpdated(r.id);
  }

  /** OAuth flow `channel`: stores the broadcaster's tokens (encrypted) and (re)opens the connection. */
  async connect(flow: CompletedFlow): Promise<OauthCallbackResult> {
    if (!flow.channelId) throw new Error('channel flow without a channel');
    const provider = channelProviderIdSchema.parse(flow.provider);
    const { cipher, db } = this.deps;
    const missing = missingScopes(flow.tokens.scopes, scopesFor[flow.provider].channel);
    const tokenValues = {
      accessTokenEnc: cipher.encrypt(flow.tokens.accessToken),
      refreshTokenEnc: cipher.encryptNullable(flow.tokens.refreshToken),
      tokenExpiresAt: flow.tokens.expiresAt,
      scopes: flow.tokens.scopes,
      scopeNeeded: missing.length > 0,
    };
    const [existing] = await db
      .select()
      .from(channelProviders)
      .where(and(eq(channelProviders.channelId, flow.channelId), eq(channelProviders.provider, provider)));
    let id: string;
    if (existing) {
      id = existing.id;
      const sameAccount = existing.providerChannelId === flow.identity.providerUserId;
      await db
        .update(channelProviders)
        .set({
          ...tokenValues,
          providerChannelId: flow.identity.providerUserId,
          providerChannelName: flow.identity.login,
          ...(sameAccount ? {} : { state: {}, isLive: false, viewerCount: null, liveStreamId: null }),
        })
        .where(eq(channelProviders.id, id));
    } else {
      id = newId();
      await db.insert(channelProviders).values({
        id,
        channelId: flow.channelId,
        provider,
        providerChannelId: flow.identity.providerUserId,
        providerChannelName: flow.identity.login,
        ...tokenValues,
      });
    }
    await this.deps.audit.record({
      channelId: flow.channelId,
      actorUserId: flow.userId,
      action: 'platform.connected',
      data: { provider, provider_channel_name: flow.identity.login, channel_provider_id: id },
    });
    await this.deps.manager.restart(id);
    const row = await this.row(flow.channelId, id);
    this.publish(flow.channelId, { action: existing ? 'updated' : 'new', data: await this.dto(row, await this.systemBotOf(provider)) });
    return { redirect_to: `${flow.redirectTo}#${CHANNEL_PROVIDER_HASH_KEY}=${encodeURIComponent(id)}` };
  }

  /** OAuth flow `channel_bot`: stores the channel's own bot account for an already connected platform. */
  async connectBot(flow: CompletedFlow): Promise<OauthCallbackResult> {
    if (!flow.channelId) throw new Error('channel bot flow without a channel');
    const provider = channelProviderIdSchema.parse(flow.provider);
    if (!providers[provider].ownBot) throw unsupported(`${providers[provider].name} does not support a channel bot account.`);
    const [row] = await this.deps.db
      .select()
      .from(channelProviders)
      .where(and(eq(channelProviders.channelId, flow.channelId), eq(channelProviders.provider, provider)));
    if (!row) throw conflict(`Connect ${providers[provider].name} to this channel before adding its bot account.`);
    const { cipher } = this.deps;
    const missing = missingScopes(flow.tokens.scopes, scopesFor[flow.provider].bot);
    await this.deps.db
      .update(channelProviders)
      .set({
        botProviderUserId: flow.identity.providerUserId,
        botDisplayName: flow.identity.displayName,
        botAccessTokenEnc: cipher.encrypt(flow.tokens.accessToken),
        botRefreshTokenEnc: cipher.encryptNullable(flow.tokens.refreshToken),
        botTokenExpiresAt: flow.tokens.expiresAt,
        botScopes: flow.tokens.scopes,
        botScopeNeeded: missing.length > 0,
      })
      .where(eq(channelProviders.id, row.id));
    await this.deps.audit.record({
      channelId: flow.channelId,
      actorUserId: flow.userId,
      action: 'platform.bot_connected',
      data: { provider, bot: flow.identity.displayName, channel_provider_id: row.id },
    });
    await this.deps.manager.restart(row.id);
    await this.publishUpdated(row.id);
    return { redirect_to: `${flow.redirectTo}#${CHANNEL_PROVIDER_HASH_KEY}=${encodeURIComponent(row.id)}` };
  }

  /** Removes the channel's own bot account (the system bot, if any, takes over). */
  async disconnectBot(channelId: string, channelProviderId: string, actorUserId: string): Promise<ChannelProvider> {
    const row = await this.row(channelId, channelProviderId);
    if (!row.botProviderUserId) throw notFound('This connection has no bot account of its own.');
    await this.revoke(row.provider, [
      this.deps.cipher.decryptNullable(row.botRefreshTokenEnc),
      this.deps.cipher.decryptNullable(row.botAccessTokenEnc),
    ]);
    await this.deps.db
      .update(channelProviders)
      .set({
        botProviderUserId: null,
        botDisplayName: null,
        botAccessTokenEnc: null,
        botRefreshTokenEnc: null,
        botTokenExpiresAt: null,
        botScopes: [],
        botScopeNeeded: false,
      })
      .where(eq(channelProviders.id, row.id));
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'platform.bot_disconnected',
      data: { provider: row.provider, channel_provider_id: row.id },
    });
    await this.deps.manager.restart(row.id);
    const dto = await this.get(channelId, channelProviderId);
    this.publish(channelId, { action: 'updated', data: dto });
    return dto;
  }

  /** Disconnects a platform: closes the connection, revokes its tokens at the platform (best effort), deletes the row. */
  async disconnect(channelId: string, channelProviderId: string, actorUserId: string | null): Promise<void> {
    const row = await this.row(channelId, channelProviderId);
    const dto = await this.dto(row, await this.systemBotOf(row.provider));
    await this.deps.manager.remove(row.id);
    const c = this.deps.cipher;
    await this.revoke(row.provider, [
      c.decryptNullable(row.refreshTokenEnc),
      c.decryptNullable(row.accessTokenEnc),
      c.decryptNullable(row.botRefreshTokenEnc),
      c.decryptNullable(row.botAccessTokenEnc),
    ]);
    await this.deps.db.delete(channelProviders).where(eq(channelProviders.id, row.id));
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'platform.disconnected',
      data: { provider: row.provider, provider_channel_name: row.providerChannelName, channel_provider_id: row.id },
    });
    this.publish(channelId, { action: 'deleted', data: { ...dto, health: null } });
  }

  /** Disconnects every platform of a channel (before the channel is deleted): connections closed, tokens revoked. */
  async disconnectAll(channelId: string, actorUserId: string | null): Promise<void> {
    const rows = await this.deps.db
      .select({ id: channelProviders.id })
      .from(channelProviders)
      .where(eq(channelProviders.channelId, channelId));
    for (const row of rows) await this.disconnect(channelId, row.id, actorUserId);
  }

  private revoke(provider: string, tokens: (string | null)[]): Promise<void> {
    return this.deps.revoke(provider, tokens);
  }
}
