/**
 * Twitch EventSub over WebSocket, one connection per Twitch account shared by every Greenroom channel backed by it.
 *
 * Twitch allows a user token (client id + user) at most 3 WebSocket connections with enabled subscriptions and
 * refuses the 4th with 429 ("number of websocket transports limit exceeded"), so a connection per Greenroom
 * channel breaks as soon as a fourth channel uses the same Twitch account. Here the pool keeps one share per
 * broadcaster: one @twurple EventSubWsListener (one socket, keeps the old socket until the new welcome on
 * session_reconnect, creates subscriptions again only after a real disconnect), one set of subscriptions, one
 * stream-status poll, fanned out to every member (a Greenroom connection of that account). The share's
 * subscriptions are made with the token of one member; when that token is refused for good, the member is told
 * to reconnect and the share continues with the next member's token.
 *
 * Notifications are taken raw at EventSubBase._handleSingleEventPayload (public in twurple's typings): we map
 * Twitch's documented payloads ourselves, deduplicate by EventSub message id in a bounded set (twurple's own
 * dedupe arms a 10-minute timer per message), and skip building twurple event objects. Chat messages are not in
 * that set: the ingest pipeline deduplicates them by their chat message id (in memory, then the chat log's unique
 * index), which a redelivered notification keeps; kept here too, their ids were most of the server's memory for
 * dedupe (20,000 a connection).
 */
import { ApiClient } from '@twurple/api';
import { EventSubWsListener, type EventSubWsConfig } from '@twurple/eventsub-ws';
import { Backoff } from '../backoff';
import { BoundedSet } from '../../lib/bounded-set';
import { isReconnectNeeded } from '../platform-error';
import type { ChannelConnectionContext, ConnectionState, LiveConnection, PlatformEvent, TokenSource } from '../port';
import type { OwnBans } from '../own-actions';
import { TokenSourceAuthProvider } from './auth-provider';
import {
  channelBanEvent,
  chatEvent,
  cheerEvent,
  clearUserMessagesEvent,
  eventSubTime,
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
import { twitchMessage } from './twitch-errors';

type Subscription = ReturnType<EventSubWsListener['onStreamOnline']>;
type RawHandler = (payload: Record<string, unknown>, messageId: string) => void;

const STATUS_POLL_MS = 60_000;
const WAITING = 'Waiting for the stream to start';

function streamActivity(type: 'stream_online' | 'stream_offline', eventId: string, at: string): PlatformEvent {
  const none = { viewer: null, tier: null, months: null, count: null, amount: null, message: null };
  return { kind: 'activity', activity: { ...none, provider_event_id: eventId, type, occurred_at: at } };
}

/** EventSubWsListener that hands raw notification payloads to per-subscription handlers. */
class RawEventSubListener extends EventSubWsListener {
  private readonly handlers = new Map<Subscription, RawHandler>();
  /** Subscriptions whose events are deduplicated downstream (chat messages, by the ingest pipeline). */
  private readonly dedupedDownstream = new Set<Subscription>();
  private readonly seen = new BoundedSet(20_000);
  duplicates = 0;

  route(subscription: Subscription, handler: RawHandler, dedupe: 'here' | 'downstream' = 'here'): void {
    this.handlers.set(subscription, handler);
    if (dedupe === 'downstream') this.dedupedDownstream.add(subscription);
  }

  override _handleSingleEventPayload(subscription: Subscription, payload: Record<string, unknown>, messageId: string): void {
    if (!this.dedupedDownstream.has(subscription) && !this.seen.add(messageId)) {
      this.duplicates++;
      return;
    }
    this.handlers.get(subscription)?.(payload, messageId);
  }
}

/** The HTTP error twurple throws (HttpStatusCodeError of @twurple/api-call), recognised by shape. */
export function httpErrorOf(error: unknown): { statusCode: number; body: string } | null {
  if (error instanceof Error && 'statusCode' in error && 'body' in error) {
    const { statusCode, body } = error;
    if (typeof statusCode === 'number') return { statusCode, body: typeof body === 'string' ? body : '' };
  }
  return null;
}

export interface EventSubPoolOptions {
  clientId: string;
  /** The EventSub WebSocket URL; null when twurple's mock port setting points it at the emulator. */
  wsUrl: string | null;
  emoteCdnUrl: string;
  ownBans: OwnBans;
  /** Helix client of a connection (stream status polling). */
  apiFor(ctx: ChannelConnectionContext): ApiClient;
  backoff?: { baseMs?: number; maxMs?: number };
}

/** A Greenroom connection of a Twitch account: where the share's events and health go. */
interface Member {
  ctx: ChannelConnectionContext;
  /** Its token was refused for good: it is told to reconnect and no longer receives events. */
  refused: boolean;
}

/** One EventSub connection per Twitch account, shared by that account's Greenroom connections. */
export class EventSubPool {
  private readonly shares = new Map<string, EventSubShare>();

  constructor(private readonly options: EventSubPoolOptions) {}

  /** Adds a Greenroom connection to its account's share (opening it if it is the first); close() leaves it. */
  join(ctx: ChannelConnectionContext): LiveConnection {
    const key = ctx.providerChannelId;
    let share = this.shares.get(key);
    if (!share) {
      share = new EventSubShare(key, this.options, () => {
        if (this.shares.get(key) === share) this.shares.delete(key);
      });
      this.shares.set(key, share);
    }
    const member: Member = { ctx, refused: false };
    share.add(member);
    const joined = share;
    return { close: async () => joined.remove(member) };
  }

  /** Open shares (one per Twitch account with a live Greenroom connection). */
  get size(): number {
    return this.shares.size;
  }
}

class EventSubShare {
  private readonly members = new Set<Member>();
  private listener: RawEventSubListener | null = null;
  private tokenOwner: Member | null = null;
  private closed = false;
  private readonly backoff: Backoff;
  private pollTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private expected = 0;
  private created = 0;
  private live = false;
  private health: { state: ConnectionState; detail: string | null } = { state: 'connecting', detail: null };
  private lastStatus: PlatformEvent | null = null;

  constructor(
    private readonly broadcasterId: string,
    private readonly options: EventSubPoolOptions,
    private readonly onEmpty: () => void,
  ) {
    this.backoff = new Backoff({ baseMs: options.backoff?.baseMs ?? 1_000, maxMs: options.backoff?.maxMs ?? 60_000 });
  }

  add(member: Member): void {
    this.members.add(member);
    if (this.members.size === 1) {
      void this.open();
      return;
    }
    // A later member learns the share's state at once.
    member.ctx.setHealth(this.health.state, this.health.detail);
    if (this.lastStatus) void member.ctx.emit(this.lastStatus);
    if (this.tokenOwner === null && this.health.state === 'needs_reauth') void this.open();
  }

  remove(member: Member): void {
    if (!this.members.delete(member)) return;
    if (this.members.size === 0) {
      this.close();
      return;
    }
    // The subscriptions were made with the leaving member's token: continue with another one.
    if (this.tokenOwner === member) this.reopen();
  }

  private active(): Member[] {
    return [...this.members].filter((m) => !m.refused);
  }

  private emit(event: PlatformEvent): void {
    if (event.kind === 'stream') this.lastStatus = event;
    for (const m of this.active()) void m.ctx.emit(event);
  }

  private setHealth(state: ConnectionState, detail: string | null = null): void {
    this.health = { state, detail };
    for (const m of this.active()) m.ctx.setHealth(state, detail);
  }

  private get log(): ChannelConnectionContext['log'] | null {
    return this.tokenOwner?.ctx.log ?? [...this.members][0]?.ctx.log ?? null;
  }

  private async open(): Promise<void> {
    if (this.closed) return;
    const owner = this.active()[0] ?? null;
    this.tokenOwner = owner;
    if (!owner) {
      this.setHealth('needs_reauth', 'Every Twitch token of this account was refused');
      return;
    }
    this.setHealth(this.backoff.attempts > 0 ? 'reconnecting' : 'connecting');
    const token = owner.ctx.broadcaster;
    try {
      await token.accessToken();
    } catch (error) {
      if (isReconnectNeeded(error)) return this.refuse(owner, error.message);
      return this.retryLater(error);
    }
    if (this.closed || this.tokenOwner !== owner) return;
    const apiClient = new ApiClient({
      authProvider: new TokenSourceAuthProvider(this.options.clientId, [token]),
      logger: { minLevel: 'critical' },
    });
    const config: EventSubWsConfig = {
      apiClient,
      logger: { minLevel: 'critical' },
      ...(this.options.wsUrl ? { url: this.options.wsUrl } : {}),
    };
    const listener = new RawEventSubListener(config);
    this.listener = listener;
    this.subscribe(listener, token);
    listener.onSubscriptionCreateSuccess(() => {
      if (this.listener !== listener) return;
      this.created++;
      if (this.created >= this.expected && !this.closed) {
        this.backoff.reset();
        this.setHealth('connected', this.live ? null : WAITING);
      }
    });
    listener.onSubscriptionCreateFailure((_sub, error) => void this.subscriptionFailed(listener, owner, error));
    listener.onUserSocketDisconnect((_user, error) => {
      if (this.closed || this.listener !== listener) return;
      this.created = 0;
      this.setHealth('reconnecting', error?.message ?? 'Connection to Twitch lost');
    });
    listener.onRevoke((_sub, status) => {
      if (this.closed || this.listener !== listener) return;
      this.revoked(`Twitch revoked access (${status})`);
    });
    listener.start();
    void this.refreshStatus(owner);
  }

  private subscribe(l: RawEventSubListener, token: TokenSource): void {
    const b = this.broadcasterId;
    const cdn = this.options.emoteCdnUrl;
    const now = () => new Date().toISOString();
    const noop = () => undefined;
    const chat = l.onChannelChatMessage(b, b, noop);
    l.route(chat, (p) => this.emit(chatEvent(p as unknown as ChatMessagePayload, now(), cdn)), 'downstream');
    const routes: [Subscription, RawHandler][] = [
      [l.onChannelChatMessageDelete(b, b, noop), (p) => this.emit(messageDeleteEvent(p as unknown as MessageDeletePayload, now()))],
      [
        l.onChannelChatClearUserMessages(b, b, noop),
        (p) => this.emit(clearUserMessagesEvent(p as unknown as ClearUserMessagesPayload, now())),
      ],
      [l.onChannelFollow(b, b, noop), (p, id) => this.emit(followEvent(p as unknown as FollowPayload, id))],
      [l.onChannelSubscription(b, noop), (p, id) => this.emit(subscribeEvent(p as unknown as SubscribePayload, id, now()))],
      [l.onChannelSubscriptionMessage(b, noop), (p, id) => this.emit(resubEvent(p as unknown as SubscriptionMessagePayload, id, now()))],
      [l.onChannelSubscriptionGift(b, noop), (p, id) => this.emit(giftEvent(p as unknown as SubscriptionGiftPayload, id, now()))],
      [l.onChannelCheer(b, noop), (p, id) => this.emit(cheerEvent(p as unknown as CheerPayload, id, now()))],
      [l.onChannelRaidTo(b, noop), (p, id) => this.emit(raidEvent(p as unknown as RaidPayload, id, now()))],
      [l.onStreamOnline(b, noop), (p, id) => this.streamOnline(p as unknown as StreamOnlinePayload, id)],
      [l.onStreamOffline(b, noop), (_p, id) => this.streamOffline(id)],
    ];
    // Bans and timeouts with their duration (also those done on Twitch itself) need channel:moderate; connections
    // made before Greenroom asked for it still get channel.chat.clear_user_messages.
    if (token.scopes.includes('channel:moderate')) {
      routes.push([l.onChannelBan(b, noop), (p) => this.channelBan(p as unknown as ChannelBanPayload)]);
    }
    for (const [sub, handler] of routes) l.route(sub, handler);
    this.expected = routes.length + 1;
    this.created = 0;
  }

  private channelBan(p: ChannelBanPayload): void {
    if (this.options.ownBans.takeEcho(this.broadcasterId, p.user_id)) return;
    this.emit(channelBanEvent(p, new Date().toISOString()));
  }

  private streamOnline(p: StreamOnlinePayload, eventId: string): void {
    this.live = true;
    const startedAt = eventSubTime(p.started_at, new Date().toISOString());
    this.emit(streamActivity('stream_online', eventId, startedAt));
    this.emit({ kind: 'stream', status: { is_live: true, viewer_count: null, title: null, category: null, started_at: startedAt } });
    this.setHealth('connected', null);
    if (this.tokenOwner) void this.refreshStatus(this.tokenOwner);
  }

  private streamOffline(eventId: string): void {
    this.live = false;
    this.emit(streamActivity('stream_offline', eventId, new Date().toISOString()));
    this.emit({ kind: 'stream', status: { is_live: false, viewer_count: null, title: null, category: null, started_at: null } });
    this.setHealth('connected', WAITING);
  }

  private async subscriptionFailed(listener: RawEventSubListener, owner: Member, error: Error): Promise<void> {
    if (this.closed || this.listener !== listener) return;
    const http = httpErrorOf(error);
    if (isReconnectNeeded(error)) return this.refuse(owner, error.message);
    if (http && (http.statusCode === 401 || http.statusCode === 403)) {
      const detail = twitchMessage(http.body);
      await owner.ctx.broadcaster.markReauthRequired?.(detail);
      return this.refuse(owner, detail);
    }
    this.log?.warn({ err: error, broadcasterId: this.broadcasterId }, 'Twitch EventSub subscription failed');
    // Start over with a fresh listener after a backoff (its socket and subscriptions are dropped).
    this.stopListener();
    this.retryLater(error);
  }

  /** The member's token is refused for good: it is told to reconnect; the others continue with another token. */
  private refuse(member: Member, detail: string): void {
    member.refused = true;
    member.ctx.setHealth('needs_reauth', detail);
    if (this.tokenOwner === member) this.reopen();
  }

  /**
   * Twitch revoked the share's subscriptions. The token they were made with may be gone (the user removed the app,
   * or one Greenroom channel of this account was disconnected and its token revoked) while the other members' tokens
   * still work: start over. Subscribing again with a revoked token fails its refresh, which marks that member for
   * reconnecting and moves on to the next member's token; a member is never marked without its own token refused.
   */
  private revoked(detail: string): void {
    this.log?.info({ broadcasterId: this.broadcasterId, detail }, 'Twitch EventSub subscriptions revoked; subscribing again');
    this.setHealth('reconnecting', detail);
    this.reopen();
  }

  private reopen(): void {
    this.stopListener();
    this.clearTimers();
    this.tokenOwner = null;
    void this.open();
  }

  private retryLater(error: unknown): void {
    if (this.closed) return;
    const delay = this.backoff.nextDelay();
    this.setHealth('reconnecting', `Retrying in ${Math.round(delay / 1000)} s: ${error instanceof Error ? error.message : String(error)}`);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.open();
    }, delay);
    this.retryTimer.unref();
  }

  /** Stream state and viewer count: at start, on stream.online, and every minute while live (one poll per account). */
  private async refreshStatus(owner: Member): Promise<void> {
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    if (this.closed || this.tokenOwner !== owner) return;
    const api = this.options.apiFor(owner.ctx);
    try {
      const [stream, channel] = await Promise.all([
        api.streams.getStreamByUserId(this.broadcasterId),
        api.channels.getChannelInfoById(this.broadcasterId),
      ]);
      if (this.closed || this.tokenOwner !== owner) return;
      this.live = stream !== null;
      this.emit({
        kind: 'stream',
        status: {
          is_live: stream !== null,
          viewer_count: stream?.viewers ?? null,
          title: channel?.title ?? stream?.title ?? null,
          category: channel?.gameName || null,
          started_at: stream?.startDate.toISOString() ?? null,
        },
      });
      if (this.created >= this.expected && this.listener) this.setHealth('connected', this.live ? null : WAITING);
    } catch (error) {
      if (!isReconnectNeeded(error)) this.log?.warn({ err: error }, 'Twitch stream status failed');
    }
    if (this.live && !this.closed && this.tokenOwner === owner) {
      this.pollTimer = setTimeout(() => void this.refreshStatus(owner), STATUS_POLL_MS);
      this.pollTimer.unref();
    }
  }

  private stopListener(): void {
    const listener = this.listener;
    this.listener = null;
    listener?.stop();
  }

  private clearTimers(): void {
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.pollTimer = null;
    this.retryTimer = null;
  }

  private close(): void {
    this.closed = true;
    this.clearTimers();
    this.stopListener();
    this.onEmpty();
  }
}
