/**
 * THE platform port. Features (chat, moderation, title/category, later the chatbot) speak only to
 * these interfaces; one adapter per platform (twitch/, youtube/, kick/, tiktok/, spotify/) implements
 * them, and nothing outside platforms/ imports a platform SDK. Capabilities come from the shared
 * catalogue (contracts/providers.ts) and decide which action facets an adapter offers. Failed platform
 * calls throw the one PlatformError (platform-error.ts).
 */
import type { ChannelProviderId, ProviderCapabilities } from '@greenroom/contracts/providers';
import type { Activity, ChatAuthor, ChatMessage, ModerationEvent, StreamStatus } from '@greenroom/contracts/api/events';
import type { OAuthProvider } from './endpoints';

/** Which account an action runs as. */
export type Actor = 'broadcaster' | 'bot';

/** A chat message as adapters emit it: the pipeline adds ids, the channel, `author.is_self` and `filtered`. */
export type PlatformChatMessage = Omit<ChatMessage, 'id' | 'channel_id' | 'channel_provider_id' | 'provider' | 'author' | 'filtered'> & {
  author: ChatAuthor;
};

/** A normalised event from a live connection (ids filled in by the ingest pipeline where absent). */
export type PlatformEvent =
  | { kind: 'chat'; message: PlatformChatMessage }
  | { kind: 'moderation'; event: Omit<ModerationEvent, 'id' | 'channel_id' | 'channel_provider_id' | 'provider'> }
  | { kind: 'activity'; activity: Omit<Activity, 'id' | 'channel_id' | 'channel_provider_id' | 'provider'> }
  | { kind: 'stream'; status: PlatformStreamStatus };

/** A stream status as adapters emit it; `live_stream_id` (YouTube's live video id) may be left out: null. */
export type PlatformStreamStatus = Omit<StreamStatus, 'channel_id' | 'channel_provider_id' | 'provider' | 'live_stream_id'> & {
  live_stream_id?: string | null;
};

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'needs_reauth' | 'error';

export interface ConnectionHealth {
  state: ConnectionState;
  /** Human-readable detail for the UI ("Waiting for the stream to start", "Token revoked"). */
  detail: string | null;
  since: string;
  lastEventAt: string | null;
  reconnects: number;
}

/** A stored OAuth credential that refreshes itself (single-flight) and persists rotated tokens. */
export interface TokenSource {
  readonly provider: OAuthProvider;
  /** Platform user id of the account the token belongs to. */
  readonly providerUserId: string;
  readonly scopes: readonly string[];
  /** A usable access token, refreshed first when it expires within a minute. */
  accessToken(): Promise<string>;
  /** Forces a refresh after the platform answered 401; throws a PlatformError asking for reconnection (and marks scope_needed) when the refresh is refused for good. */
  refreshAfterUnauthorized(rejected: string): Promise<string>;
  /** Marks the credential as needing reconnection (e.g. the platform answered "missing scope"); reported to the UI. */
  markReauthRequired?(detail: string): Promise<void>;
}

/** Persisted platform ban ids of one connection, by viewer (table `platform_bans`). */
export interface BanStore {
  get(providerViewerId: string): Promise<string | null>;
  set(providerViewerId: string, providerBanId: string): Promise<void>;
  delete(providerViewerId: string): Promise<void>;
}

/** How the pipeline treats one delivery (see ChannelConnectionContext.emit). */
export interface EmitOptions {
  /** Connection state stored in the same transaction as these events (`state` is updated too once it committed). */
  state?: Record<string, unknown>;
  /** The platform delivers these again if they are refused: refuse rather than hold them while the database is unavailable. */
  retryable?: boolean;
}

/** What an adapter gets for one connected channel. */
export interface ChannelConnectionContext {
  channelId: string;
  channelProviderId: string;
  provider: ChannelProviderId;
  providerChannelId: string;
  providerChannelName: string;
  broadcaster: TokenSource;
  /** The channel's own bot, else the operators' system bot for this platform, else null. */
  bot: TokenSource | null;
  /** Platform-specific persisted state (YouTube page token, Kick subscription ids …). */
  state: Record<string, unknown>;
  saveState(patch: Record<string, unknown>): Promise<void>;
  /** Platform ban ids kept for unban (YouTube: the id returned by liveChatBans.insert). */
  bans: BanStore;
  /**
   * Delivers normalised events to the ingest pipeline. The promise resolves once they are DURABLE
   * (committed, then published): only then may an adapter acknowledge them to the platform (Kick's
   * 2xx) or move past them (YouTube's page token, passed as `options.state` so it is stored in the
   * same transaction). It rejects only for `retryable` events the pipeline cannot take now: the
   * adapter lets the platform deliver them again. Adapters whose platform pushes without redelivery
   * (Twitch EventSub) ignore the promise (`void ctx.emit(…)`): their events are held in a bounded
   * buffer while the database is unavailable, and what does not fit is counted and reported.
   */
  emit(events: PlatformEvent | readonly PlatformEvent[], options?: EmitOptions): Promise<void>;
  setHealth(state: ConnectionState, detail?: string | null): void;
  signal: AbortSignal;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

export interface StreamInfo {
  title: string;
  category: { id: string; name: string } | null;
  isLive: boolean;
  viewerCount: number | null;
  /** YouTube: the live video id for the embed; null when not live. */
  liveStreamId: string | null;
}

export interface Category {
  id: string;
  name: string;
  imageUrl: string | null;
}

export interface SendResult {
  providerMessageId: string | null;
}

export interface BanInput {
  providerViewerId: string;
  /** Absent = permanent ban. Seconds; adapters convert (Kick: minutes). */
  durationSeconds?: number;
  reason?: string;
}

/** What the platform applied: the timeout's length in seconds as the platform reports it, null for a permanent ban. */
export interface BanResult {
  durationSeconds: number | null;
}

/**
 * Sending to a platform's chat. Present where the catalogue says `chatWrite` (Twitch, YouTube, Kick).
 * The connection manager wraps it in the send queue (the platform's per-sender rate limit: waits, never drops).
 * Used by the staff composer (modules/chat) and, for replies, by the chatbot:
 *   `const { actions } = await connections.actions(channelProviderId); await actions.chat?.sendMessage({ text, as: 'bot' })`.
 * Throws PlatformError (refused: dropped by the platform, e.g. the sender is timed out) or AppError for input the
 * platform cannot take (too long, a reply where replies are not supported).
 */
export interface ChatFacet {
  sendMessage(input: { text: string; replyToProviderMessageId?: string; as: Actor }): Promise<SendResult>;
}

/**
 * Ban/timeout, unban and delete a message. Present where the catalogue says `ban`, `unban` or `deleteMessage`.
 * `ban` refuses a duration the platform would change (see `timeoutProblem` in the catalogue) and returns what it applied.
 */
export interface ModerationFacet {
  ban(input: BanInput): Promise<BanResult>;
  unban(input: { providerViewerId: string }): Promise<void>;
  deleteMessage(input: { providerMessageId: string }): Promise<void>;
}

/** The stream's title and category. Present where the catalogue says `changeTitle` or `changeCategory`. */
export interface StreamInfoFacet {
  get(): Promise<StreamInfo>;
  update(input: { title?: string; categoryId?: string }): Promise<void>;
  searchCategories(query: string): Promise<Category[]>;
}

/** A user connected to a channel's chat. */
export interface Chatter {
  providerUserId: string;
  login: string;
  displayName: string;
}

/** Who is connected to the chat, lurkers included. Present where the catalogue says `chatterList` (Twitch). */
export interface ChattersFacet {
  /** Every page of the list (the platform caps a page; this follows the cursor). */
  list(): Promise<Chatter[]>;
}

/** What the platform answered to an ad break. */
export interface CommercialResult {
  lengthSeconds: number;
  /** Seconds before the next ad may run. */
  retryAfterSeconds: number;
  message: string;
}

/** Ad breaks run by the broadcaster's account. Present where the catalogue says `commercial` (Twitch). */
export interface AdsFacet {
  startCommercial(lengthSeconds: number): Promise<CommercialResult>;
}

/**
 * Figures about the channel itself. Present where the catalogue says `followerCount` (Twitch, YouTube).
 */
export interface ChannelInfoFacet {
  /**
   * How many follow the channel: Twitch's followers total; YouTube's subscriber count, which YouTube rounds down to
   * three significant figures (the count the channel's own page shows).
   */
  followerCount(): Promise<number>;
}

/**
 * What Greenroom can do on one connected channel, in facets. A facet is present exactly when the provider
 * catalogue gives the platform its capabilities (`facetsFor`, checked for every adapter by registry.test.ts), so
 * a platform without chat (Spotify) or without an API for it (TikTok) simply has no `chat` facet, and a new
 * action is added to the facet of the platforms that have it only. Callers check presence (or the catalogue)
 * and refuse with a clear error naming the platform.
 */
export interface ChannelActions {
  chat?: ChatFacet;
  moderation?: ModerationFacet;
  streamInfo?: StreamInfoFacet;
  chatters?: ChattersFacet;
  channelInfo?: ChannelInfoFacet;
  ads?: AdsFacet;
}

export type FacetName = keyof ChannelActions;

/** The facets a platform must offer, from its catalogue capabilities. */
export function facetsFor(info: ProviderCapabilities): FacetName[] {
  const facets: FacetName[] = [];
  if (info.chatWrite) facets.push('chat');
  if (info.ban || info.unban || info.deleteMessage) facets.push('moderation');
  if (info.changeTitle || info.changeCategory) facets.push('streamInfo');
  if (info.chatterList) facets.push('chatters');
  if (info.followerCount) facets.push('channelInfo');
  if (info.commercial) facets.push('ads');
  return facets;
}

/** A live, self-healing connection receiving a channel's chat and events. */
export interface LiveConnection {
  close(): Promise<void>;
}

export interface PlatformAdapter {
  readonly provider: ChannelProviderId;
  /** Opens the live connection (reconnects by itself until closed); null when the platform has no chat (Spotify). */
  connect(ctx: ChannelConnectionContext): LiveConnection | null;
  actions(ctx: Omit<ChannelConnectionContext, 'emit' | 'setHealth' | 'signal'>): ChannelActions;
  /**
   * The channel provider is being disconnected for good (its connection is already closed, its tokens
   * not yet revoked): removes what the connection set up at the platform (Kick: its webhook
   * subscriptions). Never called on a restart or shutdown, which must leave them in place. Best
   * effort: failures are logged, never thrown.
   */
  teardown?(ctx: Omit<ChannelConnectionContext, 'emit' | 'setHealth' | 'signal'>): Promise<void>;
  /** Releases adapter-wide resources (clients, timers) at shutdown. */
  dispose?(): Promise<void>;
}
