/**
 * Keeps one live connection per connected channel provider (adapter.connect), builds the context
 * adapters get (token sources, persisted state, ban ids, the ingest pipeline), tracks each
 * connection's health, and hands out the actions of a connection (sends through the rate-limited
 * send queue). Started once with the server, closed at shutdown.
 */
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import { isOAuthProviderId, providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../db/client';
import { channelProviders, platformBans, systemBots } from '../db/schema';
import { unsupported, notFound } from '../lib/errors';
import { newId } from '../lib/ids';
import type { OAuthProvider } from './endpoints';
import type { IngestPipeline, IngestSource } from '../pipeline/ingest';
import type {
  BanStore,
  ChannelActions,
  ChannelConnectionContext,
  ConnectionHealth,
  ConnectionState,
  EmitOptions,
  LiveConnection,
  PlatformAdapter,
  PlatformEvent,
  SendResult,
  TokenSource,
} from './port';
import { sendRateLimit, type SendQueue } from './send-queue';
import { validatedProviders, type CredentialRef, type TokenSources, type ValidatedProvider } from './tokens';

type Row = typeof channelProviders.$inferSelect;

export interface ConnectionLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

interface Health {
  state: ConnectionState;
  detail: string | null;
  since: number;
  lastEventAt: number | null;
  reconnects: number;
}

interface Entry {
  id: string;
  source: IngestSource & { botUserId: string | null };
  abort: AbortController;
  connection: LiveConnection | null;
  health: Health;
  live: { isLive: boolean; viewerCount: number | null; liveStreamId: string | null };
  /** The last live-status write (chained so they land in order). */
  liveWrite: Promise<void>;
  botUserId: string | null;
}

/** The action facets of one connection with what identifies it (see `ConnectionManager.actions`). */
export interface ConnectionActions {
  actions: ChannelActions;
  channelId: string;
  provider: ChannelProviderId;
  providerChannelId: string;
}

/**
 * What features need from the platform layer to act on a channel's connections; the ConnectionManager
 * implements it, unit tests pass a fake.
 */
export interface ConnectionActionsSource {
  /** The facets of one connection; 404 when it does not exist, 422 when its platform cannot be used here. */
  actions(channelProviderId: string): Promise<ConnectionActions>;
  /** The channel's connections (id and platform), oldest first. */
  connectionsOf(channelId: string): Promise<{ id: string; provider: ChannelProviderId }[]>;
}

/**
 * What the channel-providers module needs to (re)open and close connections: the ConnectionManager itself on one
 * instance; with several instances, the cluster's control, which delivers them to the instance holding the channel.
 */
export interface ConnectionControl {
  /** The connection's health where it runs (null when it runs nowhere or cannot be asked). */
  health(channelProviderId: string): ConnectionHealth | null | Promise<ConnectionHealth | null>;
  restart(channelProviderId: string): Promise<void>;
  remove(channelProviderId: string): Promise<void>;
}

/** What changed about a connection, for the providers websocket. */
export type ConnectionChange = { channelProviderId: string; channelId: string };

export interface ConnectionManagerDeps {
  db: Db;
  tokens: TokenSources;
  ingest: IngestPipeline;
  sendQueue: SendQueue;
  adapters: PlatformAdapter[];
  log: ConnectionLog;
  /** Called when a connection's health, live status, viewer count or live stream id changed. */
  onChange?: (change: ConnectionChange) => void;
  /** Token validation periods: Twitch requires hourly (default); Kick every 45 s, so a revocation shows within a minute. */
  validateEveryMs?: Partial<Record<ValidatedProvider, number>>;
  /**
   * Whether this instance holds the channel's connections (several instances: see `cluster/ownership.ts`); default:
   * every channel. `start()` opens only those; `openChannel` / `closeChannel` follow ownership changes.
   */
  owns?: (channelId: string) => boolean;
  /**
   * Several instances: whether this instance runs a job shared by all this period (the system bots' token
   * validation: one credential for every channel). Default: always.
   */
  once?: (job: string, periodMs: number) => Promise<boolean>;
}

export class ConnectionManager implements ConnectionActionsSource {
  private readonly entries = new Map<string, Entry>();
  private readonly adapters = new Map<ChannelProviderId, PlatformAdapter>();
  /** `${channelProviderId}:${botUserId}` seen with a moderator badge: they may send 100/30 s on Twitch. */
  private readonly privilegedSenders = new Set<string>();
  /** When each connection's chat stopped flowing (left `connected` for anything but `offline`), until it resumes. */
  private readonly gapSince = new Map<string, number>();
  private readonly validateTimers: NodeJS.Timeout[] = [];
  private closed = false;
  onChange: ((change: ConnectionChange) => void) | null;

  constructor(private readonly deps: ConnectionManagerDeps) {
    for (const a of deps.adapters) this.adapters.set(a.provider, a);
    this.onChange = deps.onChange ?? null;
  }

  hasAdapter(provider: ChannelProviderId): boolean {
    return this.adapters.has(provider);
  }

  /** Opens a connection for every stored channel provider; validates Twitch tokens now and hourly, Kick tokens every 45 s. */
  async start(): Promise<void> {
    const owns = this.deps.owns;
    const rows = await this.deps.db.select().from(channelProviders);
    for (const row of rows) if (!owns || owns(row.channelId)) await this.open(row);
    const every: Record<ValidatedProvider, number> = { twitch: 60 * 60_000, kick: 45_000, ...this.deps.validateEveryMs };
    // Each credential is validated where it is used for a connection: a channel's tokens on the instance holding
    // the channel, a system bot's by one instance a period.
    const validate = async (provider: ValidatedProvider) => {
      const systemBot = this.deps.once ? await this.deps.once(`validate:system_bot:${provider}`, every[provider]) : true;
      await this.deps.tokens.validateAll(provider, (ref) =>
        ref.kind === 'system_bot' ? systemBot : this.entries.has(ref.channelProviderId),
      );
    };
    for (const provider of validatedProviders) {
      void validate(provider).catch((error: unknown) => this.deps.log.warn({ err: error }, 'token validation failed'));
      const timer = setInterval(
        () => void validate(provider).catch((error: unknown) => this.deps.log.warn({ err: error }, 'token validation failed')),
        every[provider],
      );
      timer.unref();
      this.validateTimers.push(timer);
    }
  }

  /** (Re)opens the connection of one channel provider after it was connected or its tokens/bot changed. */
  async restart(channelProviderId: string): Promise<void> {
    await this.closeEntry(channelProviderId);
    this.deps.tokens.forgetChannelProvider(channelProviderId);
    if (this.closed) return;
    const [row] = await this.deps.db.select().from(channelProviders).where(eq(channelProviders.id, channelProviderId));
    if (row && (!this.deps.owns || this.deps.owns(row.channelId))) await this.open(row);
  }

  /**
   * Opens the connections of a channel this instance now holds (those not open yet). `gapSince`: nobody read its
   * chat since then (its holder crashed or stopped): once a connection is up, the gap line says so with its length.
   */
  async openChannel(channelId: string, gapSince: Date | null = null): Promise<void> {
    if (this.closed) return;
    const rows = await this.deps.db.select().from(channelProviders).where(eq(channelProviders.channelId, channelId));
    for (const row of rows) {
      if (this.entries.has(row.id)) continue;
      if (gapSince) this.gapSince.set(row.id, gapSince.getTime());
      await this.open(row);
    }
  }

  /**
   * Resolves once none of the channel's connections here is still connecting (each is connected, offline, or
   * failed for a reason a wait does not change), or after `timeoutMs`; true when they settled.
   */
  async channelSettled(channelId: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pending = [...this.entries.values()].some((e) => e.source.channelId === channelId && e.health.state === 'connecting');
      if (!pending) return true;
      if (this.closed || Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Closes the connections of a channel this instance no longer holds (another instance opens them). */
  async closeChannel(channelId: string): Promise<void> {
    const ids = [...this.entries.values()].filter((e) => e.source.channelId === channelId).map((e) => e.id);
    await Promise.all(
      ids.map(async (id) => {
        await this.closeEntry(id);
        this.gapSince.delete(id);
        this.deps.tokens.forgetChannelProvider(id);
      }),
    );
  }

  /** Closes one connection and forgets its tokens, without the platform-side teardown (another instance did it). */
  async forget(channelProviderId: string): Promise<void> {
    await this.closeEntry(channelProviderId);
    this.gapSince.delete(channelProviderId);
    this.deps.tokens.forgetChannelProvider(channelProviderId);
  }

  /** The connections this instance runs (ids). */
  openIds(): string[] {
    return [...this.entries.keys()];
  }

  /** How many live connections this instance holds. */
  get openCount(): number {
    return this.entries.size;
  }

  /**
   * The operators' system bot of `provider` was connected, reconnected (maybe as another account) or
   * disconnected: its cached credential is dropped and every live connection that sends as it (no bot account
   * of its own) is reopened, so the change takes effect at once for sending and for the connection itself.
   */
  async systemBotChanged(provider: OAuthProvider): Promise<void> {
    this.deps.tokens.forget({ kind: 'system_bot', provider });
    const rows = await this.deps.db
      .select({ id: channelProviders.id })
      .from(channelProviders)
      .where(and(eq(channelProviders.provider, provider), isNull(channelProviders.botAccessTokenEnc)));
    for (const row of rows) if (this.entries.has(row.id)) await this.restart(row.id);
  }

  /**
   * Disconnect (only): closes and forgets a connection, then lets the adapter remove what it set up
   * at the platform (`teardown`, e.g. Kick webhook subscriptions) while the tokens still work.
   * Restarts and shutdown only close connections, so platform-side set-up survives them.
   */
  async remove(channelProviderId: string): Promise<void> {
    await this.closeEntry(channelProviderId);
    this.gapSince.delete(channelProviderId);
    await this.teardown(channelProviderId);
    this.deps.tokens.forgetChannelProvider(channelProviderId);
  }

  /** Removes what the adapter set up at the platform for this connection (Kick: webhook subscriptions). */
  async teardown(channelProviderId: string): Promise<void> {
    try {
      const [row] = await this.deps.db.select().from(channelProviders).where(eq(channelProviders.id, channelProviderId));
      const adapter = row ? this.adapters.get(row.provider as ChannelProviderId) : undefined;
      if (!row || !adapter?.teardown) return;
      // Another Greenroom channel connected to the same platform channel still relies on it.
      const [shared] = await this.deps.db
        .select({ id: channelProviders.id })
        .from(channelProviders)
        .where(
          and(
            eq(channelProviders.provider, row.provider),
            eq(channelProviders.providerChannelId, row.providerChannelId),
            ne(channelProviders.id, row.id),
          ),
        )
        .limit(1);
      if (shared) return;
      const base = await this.baseContext(row);
      if (base) await adapter.teardown(base);
    } catch (error) {
      this.deps.log.warn({ err: error, channelProviderId }, 'removing platform-side set-up of a disconnected connection failed');
    }
  }

  /** The connection's broadcaster credential was refused for good (revoked, found by validation or a call): "Reconnect needed". */
  reauthRequired(channelProviderId: string, detail: string): void {
    const entry = this.entries.get(channelProviderId);
    if (entry) this.setHealth(entry, 'needs_reauth', detail);
  }

  health(channelProviderId: string): ConnectionHealth | null {
    const e = this.entries.get(channelProviderId);
    if (!e) return null;
    const h = e.health;
    return {
      state: h.state,
      detail: h.detail,
      since: new Date(h.since).toISOString(),
      lastEventAt: h.lastEventAt === null ? null : new Date(h.lastEventAt).toISOString(),
      reconnects: h.reconnects,
    };
  }

  private async closeEntry(channelProviderId: string): Promise<void> {
    const e = this.entries.get(channelProviderId);
    if (!e) return;
    this.entries.delete(channelProviderId);
    // A restart (new tokens, a bot added) interrupts the chat until the new connection is up.
    if (!this.closed && e.health.state === 'connected' && !this.gapSince.has(channelProviderId))
      this.gapSince.set(channelProviderId, Date.now());
    e.abort.abort();
    try {
      await e.connection?.close();
    } catch (error) {
      this.deps.log.warn({ err: error, channelProviderId }, 'closing a platform connection failed');
    }
  }

  private botRef(row: Row): CredentialRef | null {
    if (row.botAccessTokenEnc && row.botProviderUserId) return { kind: 'bot', channelProviderId: row.id };
    if (isOAuthProviderId(row.provider) && providers[row.provider as ChannelProviderId].systemBot)
      return { kind: 'system_bot', provider: row.provider };
    return null;
  }

  /** The context adapters get for one row (without the live-connection parts). */
  private async baseContext(row: Row): Promise<Omit<ChannelConnectionContext, 'emit' | 'setHealth' | 'signal'> | null> {
    const provider = row.provider as ChannelProviderId;
    const broadcaster = await this.deps.tokens.get({ kind: 'broadcaster', channelProviderId: row.id });
    if (!broadcaster) return null;
    const botRef = this.botRef(row);
    const bot: TokenSource | null = botRef ? await this.deps.tokens.get(botRef) : null;
    const state: Record<string, unknown> = { ...row.state };
    const db = this.deps.db;
    return {
      channelId: row.channelId,
      channelProviderId: row.id,
      provider,
      providerChannelId: row.providerChannelId,
      providerChannelName: row.providerChannelName,
      broadcaster,
      bot,
      state,
      async saveState(patch) {
        Object.assign(state, patch);
        await db
          .update(channelProviders)
          .set({ state: sql`${channelProviders.state} || ${JSON.stringify(patch)}::jsonb` })
          .where(eq(channelProviders.id, row.id));
      },
      bans: banStore(db, row.id),
      log: this.deps.log,
    };
  }

  private async open(row: Row): Promise<void> {
    const provider = row.provider as ChannelProviderId;
    const adapter = this.adapters.get(provider);
    if (!adapter || !providers[provider]?.chatRead) return;
    const now = Date.now();
    const entry: Entry = {
      id: row.id,
      source: {
        channelId: row.channelId,
        channelProviderId: row.id,
        provider,
        providerChannelId: row.providerChannelId,
        botUserId: row.botProviderUserId,
      },
      abort: new AbortController(),
      connection: null,
      health: { state: 'connecting', detail: null, since: now, lastEventAt: null, reconnects: 0 },
      live: { isLive: row.isLive, viewerCount: row.viewerCount, liveStreamId: row.liveStreamId },
      liveWrite: Promise.resolve(),
      botUserId: row.botProviderUserId,
    };
    this.entries.set(row.id, entry);
    if (row.scopeNeeded) {
      this.setHealth(entry, 'needs_reauth', `${providers[provider].name} needs to be reconnected`);
      return;
    }
    try {
      const base = await this.baseContext(row);
      if (!base) {
        this.setHealth(entry, 'needs_reauth', 'No stored credentials');
        return;
      }
      if (this.entries.get(row.id) !== entry) return;
      entry.botUserId = base.bot?.providerUserId ?? null;
      entry.source.botUserId = entry.botUserId;
      const ctx: ChannelConnectionContext = {
        ...base,
        emit: (events, options) => this.emit(entry, base.state, events, options),
        setHealth: (state, detail) => this.setHealth(entry, state, detail ?? null),
        signal: entry.abort.signal,
      };
      entry.connection = adapter.connect(ctx);
      if (!entry.connection) this.setHealth(entry, 'offline', null);
    } catch (error) {
      this.deps.log.error({ err: error, channelProviderId: row.id }, 'opening a platform connection failed');
      this.setHealth(entry, 'error', error instanceof Error ? error.message : 'Could not connect');
    }
  }

  private emit(
    entry: Entry,
    state: Record<string, unknown>,
    input: PlatformEvent | readonly PlatformEvent[],
    options: EmitOptions = {},
  ): Promise<void> {
    if (entry.abort.signal.aborted) return options.retryable ? Promise.reject(new Error('The connection is closed.')) : Promise.resolve();
    const events: readonly PlatformEvent[] = Array.isArray(input) ? input : [input as PlatformEvent];
    entry.health.lastEventAt = Date.now();
    const stored = this.deps.ingest.submit(entry.source, events, options);
    for (const event of events) {
      if (event.kind === 'stream')
        this.streamStatus(entry, event.status.is_live, event.status.viewer_count, event.status.live_stream_id ?? null);
      else if (event.kind === 'chat' && entry.botUserId !== null && event.message.author.provider_user_id === entry.botUserId) {
        const roles = event.message.author.roles;
        const key = `${entry.id}:${entry.botUserId}`;
        if (roles.moderator || roles.broadcaster) this.privilegedSenders.add(key);
        else this.privilegedSenders.delete(key);
      }
    }
    const patch = options.state;
    return patch ? stored.then(() => void Object.assign(state, patch)) : stored;
  }

  /** Keeps is_live, viewer_count and live_stream_id (the YouTube video to embed) of the row current; `updated` follows. */
  private streamStatus(entry: Entry, isLive: boolean, viewerCount: number | null, liveStreamId: string | null): void {
    const live = entry.live;
    const count = isLive ? (viewerCount ?? live.viewerCount) : null;
    const streamId = isLive ? liveStreamId : null;
    if (live.isLive === isLive && live.viewerCount === count && live.liveStreamId === streamId) return;
    live.isLive = isLive;
    live.viewerCount = count;
    live.liveStreamId = streamId;
    // One write at a time per connection, each saving the latest status: a quick live → offline cannot land out of order.
    entry.liveWrite = entry.liveWrite
      .then(() =>
        this.deps.db
          .update(channelProviders)
          .set({ isLive: live.isLive, viewerCount: live.viewerCount, liveStreamId: live.liveStreamId })
          .where(eq(channelProviders.id, entry.id)),
      )
      .then(() => this.changed(entry))
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'saving live status failed'));
  }

  private setHealth(entry: Entry, state: ConnectionState, detail: string | null): void {
    const h = entry.health;
    if (h.state === state && h.detail === detail) return;
    if (state === 'reconnecting' && h.state !== 'reconnecting') h.reconnects++;
    const now = Date.now();
    if (h.state !== state) h.since = now;
    if (this.entries.get(entry.id) === entry) this.trackGap(entry, h.state, state, now);
    if (h.state !== state)
      this.deps.log.info(
        { channelProviderId: entry.id, provider: entry.source.provider, from: h.state, to: state, detail },
        'connection state',
      );
    h.state = state;
    h.detail = detail;
    this.changed(entry);
  }

  /**
   * A chat that was flowing and stopped (the connection dropped, its token was revoked) and then
   * flows again leaves a gap line in the chat log with its length. Going offline (no live chat on
   * the platform) is not a gap.
   */
  private trackGap(entry: Entry, from: ConnectionState, to: ConnectionState, now: number): void {
    if (to === 'offline') {
      this.gapSince.delete(entry.id);
      return;
    }
    if (from === 'connected' && to !== 'connected') {
      if (!this.gapSince.has(entry.id)) this.gapSince.set(entry.id, now);
      return;
    }
    const since = this.gapSince.get(entry.id);
    if (to !== 'connected' || since === undefined) return;
    this.gapSince.delete(entry.id);
    const s = entry.source;
    this.deps.ingest
      .submitGap({
        id: newId(),
        channel_id: s.channelId,
        channel_provider_id: s.channelProviderId,
        provider: s.provider,
        reason: 'platform',
        started_at: new Date(since).toISOString(),
        ended_at: new Date(now).toISOString(),
        lost: 0,
      })
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'recording a chat gap failed'));
  }

  private changed(entry: Entry): void {
    if (this.entries.get(entry.id) !== entry) return;
    try {
      this.onChange?.({ channelProviderId: entry.id, channelId: entry.source.channelId });
    } catch (error) {
      this.deps.log.warn({ err: error }, 'connection change listener failed');
    }
  }

  /**
   * The action facets of one connection (see port.ts: present where the catalogue gives the capability);
   * chat sends wait in the send queue under the platform's rate limit.
   */
  async actions(channelProviderId: string): Promise<ConnectionActions> {
    const [row] = await this.deps.db.select().from(channelProviders).where(eq(channelProviders.id, channelProviderId));
    if (!row) throw notFound('This platform connection does not exist.');
    const provider = row.provider as ChannelProviderId;
    const adapter = this.adapters.get(provider);
    if (!adapter) throw unsupported(`${providers[provider]?.name ?? row.provider} is not available on this server.`);
    const base = await this.baseContext(row);
    if (!base) throw unsupported(`${providers[provider].name} has no stored credentials; reconnect it.`);
    const inner = adapter.actions(base);
    const queue = this.deps.sendQueue;
    const privileged = this.privilegedSenders;
    const self = this.deps.ingest.self;
    const chat = inner.chat;
    const actions: ChannelActions = {
      ...inner,
      ...(chat
        ? {
            chat: {
              sendMessage: (input) => {
                const sender = input.as === 'bot' ? base.bot : base.broadcaster;
                // Its echo in the platform's chat is Greenroom's own message (author.is_self): no stage answers it.
                const sent = self.beginSend(row.id, (sender ?? base.broadcaster).providerUserId, input.text);
                let result: Promise<SendResult>;
                if (!sender) result = chat.sendMessage(input);
                else {
                  const key = `${row.id}:${sender.providerUserId}`;
                  const limit = sendRateLimit(provider, input.as === 'broadcaster' || privileged.has(key));
                  result = queue.run(key, limit, () => chat.sendMessage(input));
                }
                return result.then(
                  (r) => {
                    sent(r.providerMessageId);
                    return r;
                  },
                  (error: unknown) => {
                    sent(null);
                    throw error;
                  },
                );
              },
            },
          }
        : {}),
    };
    return { actions, channelId: row.channelId, provider, providerChannelId: row.providerChannelId };
  }

  async connectionsOf(channelId: string): Promise<{ id: string; provider: ChannelProviderId }[]> {
    const rows = await this.deps.db
      .select({ id: channelProviders.id, provider: channelProviders.provider })
      .from(channelProviders)
      .where(eq(channelProviders.channelId, channelId))
      .orderBy(asc(channelProviders.createdAt), asc(channelProviders.id));
    return rows.filter((r): r is { id: string; provider: ChannelProviderId } => r.provider in providers);
  }

  /** Some channel has a stored connection to this platform channel (running or not: starting, reconnecting, stopped). */
  async isStored(provider: ChannelProviderId, providerChannelId: string): Promise<boolean> {
    const rows = await this.deps.db
      .select({ id: channelProviders.id })
      .from(channelProviders)
      .where(and(eq(channelProviders.provider, provider), eq(channelProviders.providerChannelId, providerChannelId)))
      .limit(1);
    return rows.length > 0;
  }

  /** The system bot of a platform exists (for listing a channel's effective bot). */
  async systemBot(provider: ChannelProviderId): Promise<{ providerUserId: string; displayName: string; scopeNeeded: boolean } | null> {
    const [row] = await this.deps.db.select().from(systemBots).where(eq(systemBots.provider, provider));
    return row ? { providerUserId: row.providerUserId, displayName: row.displayName, scopeNeeded: row.scopeNeeded } : null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.validateTimers) clearInterval(timer);
    await Promise.all([...this.entries.keys()].map((id) => this.closeEntry(id)));
    this.deps.sendQueue.close();
    for (const a of this.deps.adapters) await a.dispose?.();
  }
}

function banStore(db: Db, channelProviderId: string): BanStore {
  const where = (viewer: string) => and(eq(platformBans.channelProviderId, channelProviderId), eq(platformBans.providerViewerId, viewer));
  return {
    async get(viewer) {
      const [row] = await db.select({ id: platformBans.providerBanId }).from(platformBans).where(where(viewer));
      return row?.id ?? null;
    },
    async set(viewer, banId) {
      await db
        .insert(platformBans)
        .values({ channelProviderId, providerViewerId: viewer, providerBanId: banId })
        .onConflictDoUpdate({
          target: [platformBans.channelProviderId, platformBans.providerViewerId],
          set: { providerBanId: banId, createdAt: new Date() },
        });
    },
    async delete(viewer) {
      await db.delete(platformBans).where(where(viewer));
    },
  };
}
