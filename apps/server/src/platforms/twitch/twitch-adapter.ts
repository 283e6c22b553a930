/**
 * Twitch behind the platform port, with @twurple: EventSub over WebSocket (EventSubWsListener: one
 * socket per broadcaster, keeps the old socket until the new welcome on session_reconnect, creates
 * subscriptions again only after a real disconnect) and Helix (ApiClient) for actions. Tokens come
 * from Greenroom's token sources through TokenSourceAuthProvider.
 *
 * Notifications are taken raw at EventSubBase._handleSingleEventPayload (public in twurple's typings):
 * we map Twitch's documented payloads ourselves, deduplicate by EventSub message id in a bounded set
 * (twurple's own dedupe arms a 10-minute timer per message), and skip building twurple event objects.
 */
import { ApiClient, ChatMessageDroppedError } from '@twurple/api';
import { EventSubWsListener, type EventSubWsConfig } from '@twurple/eventsub-ws';
import { providers } from '@greenroom/contracts/providers';
import { AppError, badRequest, unsupported } from '../../lib/errors';
import { Backoff } from '../backoff';
import { OwnBans } from '../own-actions';
import type { PlatformEndpoints } from '../endpoints';
import { BoundedSet } from '../../lib/bounded-set';
import { isReconnectNeeded, PlatformError } from '../platform-error';
import type {
  BanInput,
  Category,
  ChannelConnectionContext,
  ChatFacet,
  LiveConnection,
  ModerationFacet,
  PlatformAdapter,
  SendResult,
  StreamInfo,
  StreamInfoFacet,
  TokenSource,
} from '../port';
import { isMissingScope, parseTwitchError, twitchMessage } from './twitch-errors';
import { TokenSourceAuthProvider } from './auth-provider';
import {
  channelBanEvent,
  chatEvent,
  cheerEvent,
  clearUserMessagesEvent,
  followEvent,
  giftEvent,
  messageDeleteEvent,
  raidEvent,
  resubEvent,
  subscribeEvent,
  type ChannelBanPayload,
  type ChatMessagePayload,
  type CheerPayload,
  type ClearUserMessagesPayload,
  type FollowPayload,
  type MessageDeletePayload,
  type RaidPayload,
  type StreamOnlinePayload,
  type SubscribePayload,
  type SubscriptionGiftPayload,
  type SubscriptionMessagePayload,
} from './payloads';

type Subscription = ReturnType<EventSubWsListener['onStreamOnline']>;
type RawHandler = (payload: Record<string, unknown>, messageId: string) => void;

const MAX_MESSAGE_LENGTH = 500;
const MAX_TIMEOUT_SECONDS = providers.twitch.maxTimeoutSeconds ?? 1_209_600;
const MAX_REASON_LENGTH = providers.twitch.banReasonMaxLength ?? 500;
const MAX_TITLE_LENGTH = providers.twitch.streamTitleMaxLength ?? 140;
const STATUS_POLL_MS = 60_000;
const droppedPrefix = /^.*? dropped: /;

/** EventSubWsListener that hands raw notification payloads to per-subscription handlers. */
class RawEventSubListener extends EventSubWsListener {
  private readonly handlers = new Map<Subscription, RawHandler>();
  private readonly seen = new BoundedSet(20_000);
  duplicates = 0;

  route(subscription: Subscription, handler: RawHandler): void {
    this.handlers.set(subscription, handler);
  }

  override _handleSingleEventPayload(subscription: Subscription, payload: Record<string, unknown>, messageId: string): void {
    if (!this.seen.add(messageId)) {
      this.duplicates++;
      return;
    }
    this.handlers.get(subscription)?.(payload, messageId);
  }
}

/** The HTTP error twurple throws (HttpStatusCodeError of @twurple/api-call), recognised by shape. */
function httpErrorOf(error: unknown): { statusCode: number; body: string } | null {
  if (error instanceof Error && 'statusCode' in error && 'body' in error) {
    const { statusCode, body } = error;
    if (typeof statusCode === 'number') return { statusCode, body: typeof body === 'string' ? body : '' };
  }
  return null;
}

/** Maps a Helix failure to the one PlatformError; a missing scope marks the credential for reconnection. */
async function mapError(error: unknown, token: TokenSource | null): Promise<AppError | PlatformError> {
  if (error instanceof AppError || error instanceof PlatformError) return error;
  const http = httpErrorOf(error);
  if (!http) return new PlatformError('temporary', 'twitch', 'Twitch could not be reached, try again.', { cause: error });
  const failure = { status: http.statusCode, body: http.body };
  if (isMissingScope(failure) && token) await token.markReauthRequired?.(twitchMessage(http.body));
  return parseTwitchError(failure, { cause: error });
}

export interface TwitchAdapterDeps {
  endpoints: PlatformEndpoints;
}

type ActionsContext = Omit<ChannelConnectionContext, 'emit' | 'setHealth' | 'signal'>;

export function createTwitchAdapter(deps: TwitchAdapterDeps): PlatformAdapter {
  const endpoints = deps.endpoints.twitch;
  /** One ApiClient (with its Helix rate limiter) per broadcaster credential + bot. */
  const clients = new WeakMap<TokenSource, { bot: TokenSource | null; api: ApiClient }>();

  const apiFor = (ctx: ActionsContext): ApiClient => {
    const cached = clients.get(ctx.broadcaster);
    if (cached && cached.bot === ctx.bot) return cached.api;
    const authProvider = new TokenSourceAuthProvider(endpoints.clientId, [ctx.broadcaster, ctx.bot]);
    const api = new ApiClient({ authProvider, logger: { minLevel: 'critical' } });
    clients.set(ctx.broadcaster, { bot: ctx.bot, api });
    return api;
  };

  const ownBans = new OwnBans();

  return {
    provider: 'twitch',
    connect(ctx) {
      const connection = new TwitchLiveConnection(
        ctx,
        apiFor(ctx),
        endpoints.mockApiPort === null ? endpoints.eventSubWsUrl : null,
        endpoints.emoteCdnUrl,
        ownBans,
      );
      connection.start();
      return connection;
    },
    actions(ctx) {
      const api = apiFor(ctx);
      return {
        chat: new TwitchChat(ctx, api),
        moderation: new TwitchModeration(ctx, api, ownBans),
        streamInfo: new TwitchStreamInfo(ctx, api),
      };
    },
  };
}

class TwitchLiveConnection implements LiveConnection {
  private listener: RawEventSubListener | null = null;
  private closed = false;
  private readonly backoff = new Backoff({ baseMs: 1_000, maxMs: 60_000 });
  private pollTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private expected = 0;
  private created = 0;
  private live = false;

  constructor(
    private readonly ctx: ChannelConnectionContext,
    private readonly api: ApiClient,
    private readonly wsUrl: string | null,
    private readonly emoteCdnUrl: string,
    private readonly ownBans: OwnBans,
  ) {}

  start(): void {
    void this.open();
  }

  private get broadcasterId(): string {
    return this.ctx.providerChannelId;
  }

  private async open(): Promise<void> {
    if (this.closed) return;
    this.ctx.setHealth(this.backoff.attempts > 0 ? 'reconnecting' : 'connecting');
    try {
      await this.ctx.broadcaster.accessToken();
    } catch (error) {
      if (isReconnectNeeded(error)) return this.needsReauth(error.message);
      return this.retryLater(error);
    }
    const config: EventSubWsConfig = { apiClient: this.api, logger: { minLevel: 'critical' }, ...(this.wsUrl ? { url: this.wsUrl } : {}) };
    const listener = new RawEventSubListener(config);
    this.listener = listener;
    this.subscribe(listener);
    listener.onSubscriptionCreateSuccess(() => {
      this.created++;
      if (this.created >= this.expected && !this.closed) {
        this.backoff.reset();
        this.ctx.setHealth('connected', this.live ? null : 'Waiting for the stream to start');
      }
    });
    listener.onSubscriptionCreateFailure((_sub, error) => void this.subscriptionFailed(listener, error));
    listener.onUserSocketDisconnect((_user, error) => {
      if (this.closed || this.listener !== listener) return;
      this.created = 0;
      this.ctx.setHealth('reconnecting', error?.message ?? 'Connection to Twitch lost');
    });
    listener.onRevoke((_sub, status) => {
      if (this.closed || this.listener !== listener) return;
      void Promise.resolve(this.ctx.broadcaster.markReauthRequired?.(`Twitch revoked access (${status})`)).then(() =>
        this.needsReauth(`Twitch revoked access (${status})`),
      );
    });
    listener.start();
    void this.refreshStatus();
  }

  private subscribe(l: RawEventSubListener): void {
    const b = this.broadcasterId;
    const noop = () => undefined;
    const routes: [Subscription, RawHandler][] = [
      [
        l.onChannelChatMessage(b, b, noop),
        (p) => void this.ctx.emit(chatEvent(p as unknown as ChatMessagePayload, new Date().toISOString(), this.emoteCdnUrl)),
      ],
      [
        l.onChannelChatMessageDelete(b, b, noop),
        (p) => void this.ctx.emit(messageDeleteEvent(p as unknown as MessageDeletePayload, new Date().toISOString())),
      ],
      [
        l.onChannelChatClearUserMessages(b, b, noop),
        (p) => void this.ctx.emit(clearUserMessagesEvent(p as unknown as ClearUserMessagesPayload, new Date().toISOString())),
      ],
      [l.onChannelFollow(b, b, noop), (p, id) => void this.ctx.emit(followEvent(p as unknown as FollowPayload, id))],
      [
        l.onChannelSubscription(b, noop),
        (p, id) => void this.ctx.emit(subscribeEvent(p as unknown as SubscribePayload, id, new Date().toISOString())),
      ],
      [
        l.onChannelSubscriptionMessage(b, noop),
        (p, id) => void this.ctx.emit(resubEvent(p as unknown as SubscriptionMessagePayload, id, new Date().toISOString())),
      ],
      [
        l.onChannelSubscriptionGift(b, noop),
        (p, id) => void this.ctx.emit(giftEvent(p as unknown as SubscriptionGiftPayload, id, new Date().toISOString())),
      ],
      [l.onChannelCheer(b, noop), (p, id) => void this.ctx.emit(cheerEvent(p as unknown as CheerPayload, id, new Date().toISOString()))],
      [l.onChannelRaidTo(b, noop), (p, id) => void this.ctx.emit(raidEvent(p as unknown as RaidPayload, id, new Date().toISOString()))],
      [l.onStreamOnline(b, noop), (p, id) => this.streamOnline(p as unknown as StreamOnlinePayload, id)],
      [l.onStreamOffline(b, noop), (_p, id) => this.streamOffline(id)],
    ];
    // Bans and timeouts with their duration (also those done on Twitch itself) need channel:moderate; connections
    // made before Greenroom asked for it still get channel.chat.clear_user_messages.
    if (this.ctx.broadcaster.scopes.includes('channel:moderate')) {
      routes.push([l.onChannelBan(b, noop), (p) => this.channelBan(p as unknown as ChannelBanPayload)]);
    }
    for (const [sub, handler] of routes) l.route(sub, handler);
    this.expected = routes.length;
    this.created = 0;
  }

  private channelBan(p: ChannelBanPayload): void {
    if (this.ownBans.takeEcho(this.broadcasterId, p.user_id)) return;
    void this.ctx.emit(channelBanEvent(p, new Date().toISOString()));
  }

  private streamOnline(p: StreamOnlinePayload, eventId: string): void {
    this.live = true;
    void this.ctx.emit({
      kind: 'activity',
      activity: {
        provider_event_id: eventId,
        type: 'stream_online',
        viewer: null,
        tier: null,
        months: null,
        count: null,
        amount: null,
        message: null,
        occurred_at: p.started_at,
      },
    });
    void this.ctx.emit({
      kind: 'stream',
      status: { is_live: true, viewer_count: null, title: null, category: null, started_at: p.started_at },
    });
    this.ctx.setHealth('connected', null);
    void this.refreshStatus();
  }

  private streamOffline(eventId: string): void {
    this.live = false;
    const at = new Date().toISOString();
    void this.ctx.emit({
      kind: 'activity',
      activity: {
        provider_event_id: eventId,
        type: 'stream_offline',
        viewer: null,
        tier: null,
        months: null,
        count: null,
        amount: null,
        message: null,
        occurred_at: at,
      },
    });
    void this.ctx.emit({ kind: 'stream', status: { is_live: false, viewer_count: null, title: null, category: null, started_at: null } });
    this.ctx.setHealth('connected', 'Waiting for the stream to start');
  }

  private async subscriptionFailed(listener: RawEventSubListener, error: Error): Promise<void> {
    if (this.closed || this.listener !== listener) return;
    const http = httpErrorOf(error);
    if (isReconnectNeeded(error)) return this.needsReauth(error.message);
    if (http && (http.statusCode === 401 || http.statusCode === 403)) {
      const detail = twitchMessage(http.body);
      await this.ctx.broadcaster.markReauthRequired?.(detail);
      return this.needsReauth(detail);
    }
    this.ctx.log.warn({ err: error }, 'Twitch EventSub subscription failed');
    // Start over with a fresh listener after a backoff (its socket and subscriptions are dropped).
    this.stopListener();
    this.retryLater(error);
  }

  private retryLater(error: unknown): void {
    if (this.closed) return;
    const delay = this.backoff.nextDelay();
    this.ctx.setHealth(
      'reconnecting',
      `Retrying in ${Math.round(delay / 1000)} s: ${error instanceof Error ? error.message : String(error)}`,
    );
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.open();
    }, delay);
    this.retryTimer.unref();
  }

  private needsReauth(detail: string): void {
    if (this.closed) return;
    this.stopListener();
    this.ctx.setHealth('needs_reauth', detail);
  }

  /** Stream state and viewer count: at start, on stream.online, and every minute while live. */
  private async refreshStatus(): Promise<void> {
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    if (this.closed) return;
    try {
      const [stream, channel] = await Promise.all([
        this.api.streams.getStreamByUserId(this.broadcasterId),
        this.api.channels.getChannelInfoById(this.broadcasterId),
      ]);
      if (this.closed) return;
      this.live = stream !== null;
      void this.ctx.emit({
        kind: 'stream',
        status: {
          is_live: stream !== null,
          viewer_count: stream?.viewers ?? null,
          title: channel?.title ?? stream?.title ?? null,
          category: channel?.gameName || null,
          started_at: stream?.startDate.toISOString() ?? null,
        },
      });
      if (this.created >= this.expected) this.ctx.setHealth('connected', this.live ? null : 'Waiting for the stream to start');
    } catch (error) {
      if (!isReconnectNeeded(error)) this.ctx.log.warn({ err: error }, 'Twitch stream status failed');
    }
    if (this.live && !this.closed) {
      this.pollTimer = setTimeout(() => void this.refreshStatus(), STATUS_POLL_MS);
      this.pollTimer.unref();
    }
  }

  private stopListener(): void {
    const listener = this.listener;
    this.listener = null;
    listener?.stop();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.stopListener();
  }
}

/** Base of the Twitch facets: the connection context and its Helix client. */
abstract class TwitchFacet {
  constructor(
    protected readonly ctx: ActionsContext,
    protected readonly api: ApiClient,
  ) {}

  protected get broadcasterId(): string {
    return this.ctx.providerChannelId;
  }
}

class TwitchChat extends TwitchFacet implements ChatFacet {
  async sendMessage(input: { text: string; replyToProviderMessageId?: string; as: 'broadcaster' | 'bot' }): Promise<SendResult> {
    const sender = input.as === 'bot' ? this.ctx.bot : this.ctx.broadcaster;
    if (!sender) throw unsupported('No bot account is connected for this Twitch channel.');
    if ([...input.text].length > MAX_MESSAGE_LENGTH) throw badRequest(`Twitch messages are limited to ${MAX_MESSAGE_LENGTH} characters.`);
    try {
      const sent = await this.api.asUser(sender.providerUserId, (c) =>
        c.chat.sendChatMessage(
          this.broadcasterId,
          input.text,
          input.replyToProviderMessageId ? { replyParentMessageId: input.replyToProviderMessageId } : undefined,
        ),
      );
      return { providerMessageId: sent.id };
    } catch (error) {
      if (error instanceof ChatMessageDroppedError) {
        const reason = error.message.replace(droppedPrefix, '');
        throw new PlatformError('refused', 'twitch', `Twitch did not send the message: ${reason}${error.code ? ` (${error.code})` : ''}`, {
          reason: error.code ?? null,
        });
      }
      throw await mapError(error, sender);
    }
  }
}

class TwitchModeration extends TwitchFacet implements ModerationFacet {
  constructor(
    ctx: ActionsContext,
    api: ApiClient,
    private readonly ownBans: OwnBans,
  ) {
    super(ctx, api);
  }

  async ban(input: BanInput): Promise<void> {
    if (
      input.durationSeconds !== undefined &&
      (!Number.isInteger(input.durationSeconds) || input.durationSeconds < 1 || input.durationSeconds > MAX_TIMEOUT_SECONDS)
    ) {
      throw badRequest(`Twitch timeouts last 1 to ${MAX_TIMEOUT_SECONDS} seconds.`);
    }
    if (input.reason !== undefined && [...input.reason].length > MAX_REASON_LENGTH)
      throw badRequest(`Twitch ban reasons are limited to ${MAX_REASON_LENGTH} characters.`);
    this.ownBans.mark(this.broadcasterId, input.providerViewerId);
    try {
      await this.api.moderation.banUser(this.broadcasterId, {
        user: input.providerViewerId,
        ...(input.durationSeconds !== undefined ? { duration: input.durationSeconds } : {}),
        ...(input.reason ? { reason: input.reason } : {}),
      });
    } catch (error) {
      this.ownBans.forget(this.broadcasterId, input.providerViewerId);
      throw await mapError(error, this.ctx.broadcaster);
    }
  }

  async unban(input: { providerViewerId: string }): Promise<void> {
    try {
      await this.api.moderation.unbanUser(this.broadcasterId, input.providerViewerId);
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }

  async deleteMessage(input: { providerMessageId: string }): Promise<void> {
    try {
      await this.api.moderation.deleteChatMessages(this.broadcasterId, input.providerMessageId);
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }
}

class TwitchStreamInfo extends TwitchFacet implements StreamInfoFacet {
  async get(): Promise<StreamInfo> {
    try {
      const [channel, stream] = await Promise.all([
        this.api.channels.getChannelInfoById(this.broadcasterId),
        this.api.streams.getStreamByUserId(this.broadcasterId),
      ]);
      if (!channel) throw new PlatformError('not_found', 'twitch', 'Twitch does not know this channel any more.');
      return {
        title: channel.title,
        category: channel.gameId ? { id: channel.gameId, name: channel.gameName } : null,
        isLive: stream !== null,
        viewerCount: stream?.viewers ?? null,
        liveStreamId: stream?.id ?? null,
      };
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }

  async update(input: { title?: string; categoryId?: string }): Promise<void> {
    if (input.title !== undefined && [...input.title].length > MAX_TITLE_LENGTH)
      throw badRequest(`Twitch titles are limited to ${MAX_TITLE_LENGTH} characters.`);
    try {
      await this.api.channels.updateChannelInfo(this.broadcasterId, {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.categoryId !== undefined ? { gameId: input.categoryId } : {}),
      });
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }

  async searchCategories(query: string): Promise<Category[]> {
    try {
      const page = await this.api.search.searchCategories(query, { limit: 20 });
      return page.data.map((g) => ({ id: g.id, name: g.name, imageUrl: g.getBoxArtUrl(52, 72) }));
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }
}
