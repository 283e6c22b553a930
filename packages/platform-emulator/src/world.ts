/**
 * The simulated world shared by every platform the emulator serves.
 *
 * Platform plugins (twitch/, youtube/, kick/, tiktok/, spotify/, discord/, emotes/) keep their
 * wire formats to themselves and read/write this model. The crowd simulator and the control API
 * change the world through the same methods, so a message injected by a test and one produced by
 * the crowd travel the same path to the product.
 */
import { EventEmitter } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';

export type Platform = 'twitch' | 'youtube' | 'kick' | 'tiktok' | 'spotify' | 'discord';
export const platforms: Platform[] = ['twitch', 'youtube', 'kick', 'tiktok', 'spotify', 'discord'];

export type AccountKind = 'streamer' | 'bot' | 'viewer';

export interface Account {
  /** Platform user id (Twitch numeric string, YouTube UC…, Kick numeric, TikTok numeric, …). */
  id: string;
  platform: Platform;
  kind: AccountKind;
  /** Lower-case login / handle / slug. */
  login: string;
  displayName: string;
  color: string;
  avatarUrl: string;
  email: string;
  createdAt: Date;
  /** Spotify: has Premium. */
  premium?: boolean;
}

export interface Channel {
  /** Same id as the broadcaster account. */
  id: string;
  platform: Platform;
  title: string;
  categoryId: string;
  categoryName: string;
  live: boolean;
  startedAt: Date | null;
  viewerCount: number;
  /** YouTube: the live broadcast (video) id and live chat id while live. */
  broadcastId: string | null;
  liveChatId: string | null;
  /** Logins/ids of moderators and VIPs of this channel. */
  moderators: Set<string>;
  vips: Set<string>;
  subscribers: Set<string>;
  /** Who follows the channel (YouTube: subscribes to it), by user id, with when they followed; a `follow` event adds one. */
  followers: Map<string, Date>;
  /** Users connected to the channel's chat (Twitch's Get Chatters): everyone who wrote, plus those a test joins. */
  chatters: Set<string>;
  /** Banned user id → expiry (null = permanent). */
  bans: Map<string, { expiresAt: Date | null; reason: string; banId: string }>;
}

export interface ChatMessage {
  id: string;
  platform: Platform;
  channelId: string;
  authorId: string;
  text: string;
  /** Platform emote ids found in the text, with character positions [start, end] inclusive. */
  emotes: { id: string; name: string; start: number; end: number }[];
  replyToId: string | null;
  /** Who caused it: 'crowd', 'control' (injected by a test), or 'product' (sent through the API). */
  origin: 'crowd' | 'control' | 'product';
  /** Twitch: 'user' vs 'bot' etc. Kick: 'user' | 'bot'. */
  sentAs?: string;
  deleted: boolean;
  createdAt: Date;
}

/** A non-chat event (follows, subs, gifts, raids, cheers, Super Chats, kicks, online/offline, TikTok likes…). */
export interface ChannelEvent {
  id: string;
  platform: Platform;
  channelId: string;
  type:
    | 'follow'
    | 'sub'
    | 'resub'
    | 'gift'
    | 'raid'
    | 'cheer'
    | 'superchat'
    | 'supersticker'
    | 'membership'
    | 'membership_gift'
    | 'kicks'
    | 'tiktok_gift'
    | 'like'
    | 'member_join'
    | 'stream_online'
    | 'stream_offline';
  /** The viewer who caused it (absent for online/offline, anonymous gifts). */
  userId: string | null;
  /** Event-specific data: tier, months, count, amount, currency, message, viewers… */
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Something the product did on a platform, recorded for tests (`GET /_emulator/actions`). */
export interface ProductAction {
  seq: number;
  at: Date;
  platform: Platform;
  /** e.g. 'chat.send', 'ban', 'timeout', 'unban', 'chat.delete', 'title', 'category', 'subscribe', 'token', 'revoke', 'spotify.queue', 'discord.message'. */
  type: string;
  channelId: string | null;
  /** The account whose token made the call. */
  actorId: string | null;
  data: Record<string, unknown>;
}

export interface Token {
  accessToken: string;
  refreshToken: string | null;
  platform: Platform;
  clientId: string;
  userId: string | null; // null for app tokens
  scopes: string[];
  expiresAt: Date;
  revoked: boolean;
}

export interface Fault {
  id: string;
  platform: Platform | '*';
  /** Path substring to match ('' matches every request of the platform). */
  match: string;
  kind: 'status' | 'rate_limit' | 'slow' | 'expire_tokens' | 'revoke_tokens';
  status?: number;
  delayMs?: number;
  /** How many requests it applies to; null = until cleared. */
  remaining: number | null;
}

export interface WorldEvents {
  chat: [ChatMessage];
  'chat.deleted': [ChatMessage];
  /** A user's messages cleared / user banned or timed out (by anyone). */
  ban: [{ platform: Platform; channelId: string; userId: string; moderatorId: string; expiresAt: Date | null; reason: string }];
  unban: [{ platform: Platform; channelId: string; userId: string; moderatorId: string }];
  event: [ChannelEvent];
  'channel.updated': [Channel];
  action: [ProductAction];
  /** A token was revoked (by the revoke endpoint, a fault or the control API). */
  'token.revoked': [Token];
  reset: [];
}

/** Discord: an incoming webhook created through the `webhook.incoming` OAuth scope. */
export interface DiscordWebhook {
  id: string;
  token: string;
  channelId: string;
  guildId: string;
  name: string;
  /** The Discord user who authorised it. */
  userId: string;
  applicationId: string;
  createdAt: Date;
}

export function newId(): string {
  return randomUUID();
}

export function newToken(bytes = 20): string {
  return randomBytes(bytes).toString('base64url');
}

export class World extends EventEmitter<WorldEvents> {
  readonly accounts = new Map<string, Account>(); // key `${platform}:${id}`
  readonly channels = new Map<string, Channel>(); // key `${platform}:${id}`
  readonly messages = new Map<string, ChatMessage>(); // by message id (bounded, see remember())
  readonly events: ChannelEvent[] = [];
  readonly actions: ProductAction[] = [];
  readonly tokens = new Map<string, Token>(); // by access token
  readonly refreshTokens = new Map<string, Token>(); // by refresh token
  readonly faults: Fault[] = [];
  readonly discordWebhooks = new Map<string, DiscordWebhook>(); // by webhook id
  private actionSeq = 0;
  private readonly maxMessages = 50_000;
  /** Message ids in arrival order (ring buffer) so the oldest is evicted in O(1). */
  private readonly messageRing: (string | undefined)[] = new Array<string | undefined>(50_000);
  private messageRingIndex = 0;
  /** `${platform}:${login}` → account, kept in step with `accounts`. */
  private readonly loginIndex = new Map<string, Account>();

  key(platform: Platform, id: string): string {
    return `${platform}:${id}`;
  }

  account(platform: Platform, id: string): Account | undefined {
    return this.accounts.get(this.key(platform, id));
  }

  accountsOf(platform: Platform, kind?: AccountKind): Account[] {
    const out: Account[] = [];
    for (const a of this.accounts.values()) if (a.platform === platform && (kind === undefined || a.kind === kind)) out.push(a);
    return out;
  }

  channelsOf(platform?: Platform): Channel[] {
    const out: Channel[] = [];
    for (const c of this.channels.values()) if (platform === undefined || c.platform === platform) out.push(c);
    return out;
  }

  accountByLogin(platform: Platform, login: string): Account | undefined {
    const hit = this.loginIndex.get(`${platform}:${login.toLowerCase()}`);
    if (hit && this.accounts.get(this.key(platform, hit.id)) === hit && hit.login === login.toLowerCase()) return hit;
    // Fallback when an account's login was changed in place after it was added.
    const wanted = login.toLowerCase();
    for (const a of this.accounts.values()) if (a.platform === platform && a.login === wanted) return a;
    return undefined;
  }

  channel(platform: Platform, id: string): Channel | undefined {
    return this.channels.get(this.key(platform, id));
  }

  addAccount(account: Account): Account {
    this.accounts.set(this.key(account.platform, account.id), account);
    this.loginIndex.set(`${account.platform}:${account.login}`, account);
    return account;
  }

  addChannel(channel: Channel): Channel {
    this.channels.set(this.key(channel.platform, channel.id), channel);
    return channel;
  }

  /** Records a chat message and tells every transport about it. */
  postChat(message: ChatMessage): ChatMessage {
    const evicted = this.messageRing[this.messageRingIndex];
    if (evicted !== undefined) this.messages.delete(evicted);
    this.messageRing[this.messageRingIndex] = message.id;
    this.messageRingIndex = (this.messageRingIndex + 1) % this.maxMessages;
    this.messages.set(message.id, message);
    this.channels.get(this.key(message.platform, message.channelId))?.chatters.add(message.authorId);
    this.emit('chat', message);
    return message;
  }

  deleteChat(messageId: string): ChatMessage | undefined {
    const message = this.messages.get(messageId);
    if (!message || message.deleted) return message;
    message.deleted = true;
    this.emit('chat.deleted', message);
    return message;
  }

  postEvent(event: ChannelEvent): ChannelEvent {
    if (event.type === 'follow' && event.userId) {
      const followers = this.channel(event.platform, event.channelId)?.followers;
      if (followers && !followers.has(event.userId)) followers.set(event.userId, event.createdAt);
    }
    this.events.push(event);
    if (this.events.length > 10_000) this.events.splice(0, this.events.length - 10_000);
    this.emit('event', event);
    return event;
  }

  /** Records what the product did, for the control API. */
  record(action: Omit<ProductAction, 'seq' | 'at'>): ProductAction {
    const full: ProductAction = { ...action, seq: ++this.actionSeq, at: new Date() };
    this.actions.push(full);
    if (this.actions.length > 10_000) this.actions.splice(0, this.actions.length - 10_000);
    this.emit('action', full);
    return full;
  }

  issueToken(input: {
    platform: Platform;
    clientId: string;
    userId: string | null;
    scopes: string[];
    ttlSeconds: number;
    refreshable: boolean;
  }): Token {
    const token: Token = {
      accessToken: newToken(),
      refreshToken: input.refreshable ? newToken(32) : null,
      platform: input.platform,
      clientId: input.clientId,
      userId: input.userId,
      scopes: input.scopes,
      expiresAt: new Date(Date.now() + input.ttlSeconds * 1000),
      revoked: false,
    };
    this.tokens.set(token.accessToken, token);
    if (token.refreshToken) this.refreshTokens.set(token.refreshToken, token);
    return token;
  }

  /** The live token for an access token string, or why it is not usable. */
  checkToken(
    platform: Platform,
    accessToken: string | undefined,
  ): { ok: true; token: Token } | { ok: false; reason: 'missing' | 'invalid' | 'expired' | 'revoked' } {
    if (!accessToken) return { ok: false, reason: 'missing' };
    const token = this.tokens.get(accessToken);
    if (!token || token.platform !== platform) return { ok: false, reason: 'invalid' };
    if (token.revoked) return { ok: false, reason: 'revoked' };
    if (token.expiresAt.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
    return { ok: true, token };
  }

  /** Marks a token revoked (its refresh token dies with it) and tells transports (EventSub revocation). */
  revokeToken(token: Token): void {
    if (token.revoked) return;
    token.revoked = true;
    if (token.refreshToken) this.refreshTokens.delete(token.refreshToken);
    this.emit('token.revoked', token);
  }

  /** Every live token of a user (or of every user when userId is undefined) on a platform. */
  tokensOf(platform: Platform, userId?: string | null): Token[] {
    const out: Token[] = [];
    for (const t of this.tokens.values())
      if (t.platform === platform && !t.revoked && (userId === undefined || t.userId === userId)) out.push(t);
    return out;
  }

  /** Takes a channel live or offline; emits `channel.updated` and a stream_online/stream_offline event. */
  setLive(channel: Channel, live: boolean, extra: { viewerCount?: number; broadcastId?: string; liveChatId?: string } = {}): Channel {
    if (channel.live === live) return channel;
    channel.live = live;
    const now = new Date();
    if (live) {
      channel.startedAt = now;
      channel.viewerCount = extra.viewerCount ?? (channel.viewerCount || 42);
      if (extra.broadcastId !== undefined) channel.broadcastId = extra.broadcastId;
      if (extra.liveChatId !== undefined) channel.liveChatId = extra.liveChatId;
    } else {
      channel.viewerCount = 0;
    }
    this.emit('channel.updated', channel);
    this.postEvent({
      id: newId(),
      platform: channel.platform,
      channelId: channel.id,
      type: live ? 'stream_online' : 'stream_offline',
      userId: null,
      data: live ? { startedAt: now.toISOString() } : { endedAt: now.toISOString(), startedAt: channel.startedAt?.toISOString() ?? null },
      createdAt: now,
    });
    if (!live) channel.startedAt = null;
    return channel;
  }

  /** Forgets everything (accounts, channels, chat, tokens, actions, faults); the caller seeds again. */
  reset(): void {
    this.accounts.clear();
    this.loginIndex.clear();
    this.channels.clear();
    this.messages.clear();
    this.messageRing.fill(undefined);
    this.messageRingIndex = 0;
    this.events.length = 0;
    this.actions.length = 0;
    this.tokens.clear();
    this.refreshTokens.clear();
    this.faults.length = 0;
    this.discordWebhooks.clear();
    this.actionSeq = 0;
    this.emit('reset');
  }

  /** Returns the first matching fault for a request and consumes one use of it (platform null = not a platform route: only '*' faults apply). */
  takeFault(platform: Platform | null, path: string): Fault | undefined {
    const index = this.faults.findIndex((f) => (f.platform === '*' || f.platform === platform) && path.includes(f.match));
    if (index < 0) return undefined;
    const fault = this.faults[index]!;
    if (fault.remaining != null && --fault.remaining <= 0) this.faults.splice(index, 1);
    return fault;
  }
}
