/**
 * YouTube broadcasts and their live chats, fed from the world.
 *
 * Every broadcast (video id) has one live chat with an append-only item log. Items are
 * liveChatMessage resources built once when the world reports chat, events, deletions and bans;
 * page tokens are positions in the log, so a poller that resumes with `pageToken` sees every item.
 */
import { randomBytes } from 'node:crypto';
import type { Account, Channel, ChannelEvent, ChatMessage, World } from '../world';

export type LiveChatMessageType =
  | 'textMessageEvent'
  | 'superChatEvent'
  | 'superStickerEvent'
  | 'newSponsorEvent'
  | 'memberMilestoneChatEvent'
  | 'membershipGiftingEvent'
  | 'giftMembershipReceivedEvent'
  | 'messageDeletedEvent'
  | 'userBannedEvent';

export interface AuthorDetails {
  channelId: string;
  channelUrl: string;
  displayName: string;
  profileImageUrl: string;
  isVerified: boolean;
  isChatOwner: boolean;
  isChatSponsor: boolean;
  isChatModerator: boolean;
}

export interface LiveChatMessageResource {
  kind: 'youtube#liveChatMessage';
  etag: string;
  id: string;
  snippet: {
    type: LiveChatMessageType;
    liveChatId: string;
    authorChannelId: string;
    publishedAt: string;
    hasDisplayContent: boolean;
    displayMessage: string;
    [details: string]: unknown;
  };
  authorDetails: AuthorDetails;
}

/**
 * `persistent`: the channel's default "Stream now" broadcast (most streamers); `event`: a scheduled event.
 * liveBroadcasts.list returns only events unless `broadcastType` says otherwise.
 */
export type BroadcastType = 'event' | 'persistent';

export interface Broadcast {
  videoId: string;
  type: BroadcastType;
  liveChatId: string;
  channelId: string;
  startedAt: Date;
  endedAt: Date | null;
  /** Snippet fields the world does not model (videos.update replaces them). */
  description: string;
  tags: string[];
  defaultLanguage: string | null;
  /** Title/category frozen when the broadcast ended (the live one reads the channel). */
  title: string;
  categoryId: string;
  /** Item log: items[i] has sequence number baseSeq + i. */
  items: LiveChatMessageResource[];
  baseSeq: number;
}

const maxItemsPerChat = 20_000;

export function etag(): string {
  return randomBytes(20).toString('base64url').slice(0, 27);
}

function videoIdFrom(random: () => number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let id = '';
  for (let i = 0; i < 11; i++) id += alphabet[Math.floor(random() * 64)]!;
  return id;
}

/** Live chat ids look like base64 of a protobuf wrapping the channel and video ids. */
function liveChatIdFor(channelId: string, videoId: string): string {
  return Buffer.from(`\n\u001a\n\u0018${channelId}\u0012\u000b${videoId}`).toString('base64url');
}

export function rfc3339(date: Date): string {
  return date.toISOString();
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function displayAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

function superChatTier(amountUsd: number): number {
  const thresholds = [1, 2, 5, 10, 20, 50, 100, 200, 500];
  let tier = 1;
  for (let i = 0; i < thresholds.length; i++) if (amountUsd >= thresholds[i]!) tier = i + 1;
  return tier;
}

export class YoutubeLive {
  readonly broadcasts = new Map<string, Broadcast>(); // by video id
  private readonly byChatId = new Map<string, Broadcast>();
  /** Channel id → its most recent broadcast. */
  private readonly latest = new Map<string, Broadcast>();
  /** Channel id → the kind of broadcast its next stream gets (default persistent). */
  readonly broadcastTypes = new Map<string, BroadcastType>();
  private readonly listeners: (() => void)[] = [];
  /** Told when a broadcast's chat gains items or the broadcast ends (the gRPC streamList pushes them). */
  private readonly watchers = new Set<(broadcast: Broadcast) => void>();

  constructor(
    private readonly world: World,
    private readonly random: () => number,
  ) {
    const onChat = (m: ChatMessage): void => {
      if (m.platform === 'youtube') this.onChat(m);
    };
    const onDeleted = (m: ChatMessage): void => {
      if (m.platform === 'youtube') this.onDeleted(m);
    };
    const onEvent = (e: ChannelEvent): void => {
      if (e.platform === 'youtube') this.onEvent(e);
    };
    const onBan = (b: { platform: string; channelId: string; userId: string; moderatorId: string; expiresAt: Date | null }): void => {
      if (b.platform === 'youtube') this.onBan(b);
    };
    const onChannel = (c: Channel): void => {
      if (c.platform === 'youtube') this.sync(c);
    };
    const onReset = (): void => {
      this.broadcasts.clear();
      this.byChatId.clear();
      this.latest.clear();
      this.broadcastTypes.clear();
    };
    world.on('chat', onChat);
    world.on('chat.deleted', onDeleted);
    world.on('event', onEvent);
    world.on('ban', onBan);
    world.on('channel.updated', onChannel);
    world.on('reset', onReset);
    this.listeners.push(() => {
      world.off('chat', onChat);
      world.off('chat.deleted', onDeleted);
      world.off('event', onEvent);
      world.off('ban', onBan);
      world.off('channel.updated', onChannel);
      world.off('reset', onReset);
    });
  }

  dispose(): void {
    for (const off of this.listeners) off();
    this.watchers.clear();
  }

  /** Calls `watcher` after items are appended to a broadcast's chat or the broadcast ends; returns the unsubscribe. */
  watch(watcher: (broadcast: Broadcast) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private changed(broadcast: Broadcast): void {
    for (const watcher of [...this.watchers]) watcher(broadcast);
  }

  byLiveChatId(liveChatId: string): Broadcast | undefined {
    const known = this.byChatId.get(liveChatId);
    if (known) return known;
    // A live chat id the world assigned before we saw the channel.
    for (const channel of this.world.channels.values()) {
      if (channel.platform === 'youtube' && channel.liveChatId === liveChatId) return this.sync(channel) ?? undefined;
    }
    return undefined;
  }

  byVideoId(videoId: string): Broadcast | undefined {
    const known = this.broadcasts.get(videoId);
    if (known) return known;
    for (const channel of this.world.channels.values()) {
      if (channel.platform === 'youtube' && channel.broadcastId === videoId) return this.sync(channel) ?? undefined;
    }
    return undefined;
  }

  /**
   * Brings the broadcast of a channel in line with the world: a live channel has an active broadcast
   * (ids assigned on the channel), an offline one has its last broadcast ended. Returns the current or last broadcast.
   */
  sync(channel: Channel): Broadcast | null {
    let current: Broadcast | undefined;
    if (channel.broadcastId) {
      current = this.broadcasts.get(channel.broadcastId);
      // Ids the world assigned itself (e.g. seeded): adopt them.
      current ??= this.create(channel, channel.broadcastId, channel.liveChatId);
    } else {
      current = this.latest.get(channel.id);
    }
    if (channel.live) {
      if (!current || current.endedAt) current = this.create(channel, videoIdFrom(this.random), null);
      channel.broadcastId = current.videoId;
      channel.liveChatId = current.liveChatId;
      return current;
    }
    if (current && !current.endedAt) this.end(current, channel);
    return current ?? null;
  }

  private create(channel: Channel, videoId: string, liveChatId: string | null): Broadcast {
    const broadcast: Broadcast = {
      videoId,
      type: this.broadcastTypes.get(channel.id) ?? 'persistent',
      liveChatId: liveChatId ?? liveChatIdFor(channel.id, videoId),
      channelId: channel.id,
      startedAt: channel.startedAt ?? new Date(),
      endedAt: null,
      description: '',
      tags: [],
      defaultLanguage: null,
      title: channel.title,
      categoryId: channel.categoryId,
      items: [],
      baseSeq: 0,
    };
    this.broadcasts.set(videoId, broadcast);
    this.byChatId.set(broadcast.liveChatId, broadcast);
    this.latest.set(channel.id, broadcast);
    return broadcast;
  }

  private end(broadcast: Broadcast, channel: Channel): void {
    broadcast.endedAt = new Date();
    broadcast.title = channel.title;
    broadcast.categoryId = channel.categoryId;
    this.changed(broadcast);
  }

  private giftRecipients(named: string[], count: number, gifter: string): string[] {
    const chosen = new Set(named.slice(0, count));
    const pool = this.world.accountsOf('youtube', 'viewer').filter((a) => a.id !== gifter && !chosen.has(a.id));
    while (chosen.size < count && pool.length > 0) {
      const [picked] = pool.splice(Math.floor(this.random() * pool.length), 1);
      chosen.add(picked!.id);
    }
    return [...chosen];
  }

  /** The channel's live broadcast, if it is live. */
  active(channelId: string): Broadcast | null {
    const channel = this.world.channel('youtube', channelId);
    if (!channel?.live) return null;
    return this.sync(channel);
  }

  isActive(broadcast: Broadcast): boolean {
    const channel = this.world.channel('youtube', broadcast.channelId);
    if (channel && channel.broadcastId === broadcast.videoId) this.sync(channel);
    return broadcast.endedAt === null;
  }

  /** Items from sequence `from` (clamped to what is retained), at most `max`. */
  page(broadcast: Broadcast, from: number | null, max: number): { items: LiveChatMessageResource[]; next: number; more: boolean } {
    const end = broadcast.baseSeq + broadcast.items.length;
    const start = from === null ? Math.max(broadcast.baseSeq, end - max) : Math.max(broadcast.baseSeq, Math.min(from, end));
    const stop = Math.min(end, start + max);
    return { items: broadcast.items.slice(start - broadcast.baseSeq, stop - broadcast.baseSeq), next: stop, more: stop < end };
  }

  authorDetails(channel: Channel | undefined, userId: string): AuthorDetails {
    const account: Account | undefined = this.world.account('youtube', userId);
    const login = account?.login;
    const has = (set: Set<string> | undefined): boolean => !!set && (set.has(userId) || (login !== undefined && set.has(login)));
    return {
      channelId: userId,
      channelUrl: `http://www.youtube.com/channel/${userId}`,
      displayName: account?.displayName ?? userId,
      profileImageUrl: account?.avatarUrl ?? '',
      isVerified: account?.kind === 'streamer',
      isChatOwner: channel?.id === userId,
      isChatSponsor: has(channel?.subscribers),
      isChatModerator: has(channel?.moderators),
    };
  }

  private append(broadcast: Broadcast, item: LiveChatMessageResource): void {
    broadcast.items.push(item);
    if (broadcast.items.length > maxItemsPerChat) {
      const drop = broadcast.items.length - maxItemsPerChat;
      broadcast.items.splice(0, drop);
      broadcast.baseSeq += drop;
    }
    this.changed(broadcast);
  }

  private item(
    broadcast: Broadcast,
    id: string,
    type: LiveChatMessageType,
    authorId: string,
    at: Date,
    displayMessage: string,
    details: Record<string, unknown>,
  ): LiveChatMessageResource {
    const channel = this.world.channel('youtube', broadcast.channelId);
    return {
      kind: 'youtube#liveChatMessage',
      etag: etag(),
      id,
      snippet: {
        type,
        liveChatId: broadcast.liveChatId,
        authorChannelId: authorId,
        publishedAt: rfc3339(at),
        hasDisplayContent: displayMessage !== '',
        displayMessage,
        ...details,
      },
      authorDetails: this.authorDetails(channel, authorId),
    };
  }

  private onChat(message: ChatMessage): void {
    const broadcast = this.active(message.channelId);
    if (!broadcast) return;
    this.append(
      broadcast,
      this.item(broadcast, message.id, 'textMessageEvent', message.authorId, message.createdAt, message.text, {
        textMessageDetails: { messageText: message.text },
      }),
    );
  }

  private onDeleted(message: ChatMessage): void {
    const broadcast = this.active(message.channelId);
    if (!broadcast) return;
    this.append(
      broadcast,
      this.item(broadcast, `deleted.${message.id}`, 'messageDeletedEvent', broadcast.channelId, new Date(), '', {
        messageDeletedDetails: { deletedMessageId: message.id },
      }),
    );
  }

  private onBan(ban: { channelId: string; userId: string; moderatorId: string; expiresAt: Date | null }): void {
    const broadcast = this.active(ban.channelId);
    if (!broadcast) return;
    const target = this.authorDetails(undefined, ban.userId);
    const seconds = ban.expiresAt ? Math.max(1, Math.round((ban.expiresAt.getTime() - Date.now()) / 1000)) : null;
    const details: Record<string, unknown> = {
      bannedUserDetails: {
        channelId: target.channelId,
        channelUrl: target.channelUrl,
        displayName: target.displayName,
        profileImageUrl: target.profileImageUrl,
      },
      banType: seconds === null ? 'permanent' : 'temporary',
    };
    if (seconds !== null) details.banDurationSeconds = String(seconds);
    const moderator = ban.moderatorId || broadcast.channelId;
    this.append(
      broadcast,
      this.item(broadcast, `ban.${etag()}`, 'userBannedEvent', moderator, new Date(), '', { userBannedDetails: details }),
    );
  }

  private onEvent(event: ChannelEvent): void {
    const channel = this.world.channel('youtube', event.channelId);
    if (event.type === 'stream_online' || event.type === 'stream_offline') {
      if (channel) this.sync(channel);
      return;
    }
    const broadcast = this.active(event.channelId);
    if (!broadcast || !event.userId) return;
    const author = event.userId;
    const level = str(event.data.level, 'Member');
    const message = str(event.data.message, '');
    switch (event.type) {
      case 'superchat':
      case 'cheer': {
        const amount = num(event.data.amount, 5);
        const currency = str(event.data.currency, 'USD');
        const display = displayAmount(amount, currency);
        const superChatDetails = {
          amountMicros: String(Math.round(amount * 1_000_000)),
          currency,
          amountDisplayString: display,
          userComment: message,
          tier: num(event.data.tier, superChatTier(amount)),
        };
        const text = message
          ? `${display} from ${this.authorDetails(channel, author).displayName}: "${message}"`
          : `${display} from ${this.authorDetails(channel, author).displayName}`;
        this.append(broadcast, this.item(broadcast, event.id, 'superChatEvent', author, event.createdAt, text, { superChatDetails }));
        return;
      }
      case 'supersticker': {
        const amount = num(event.data.amount, 2);
        const currency = str(event.data.currency, 'USD');
        const display = displayAmount(amount, currency);
        const altText = str(event.data.altText, 'Sticker');
        const superStickerDetails = {
          superStickerMetadata: { stickerId: str(event.data.stickerId, 'sticker_1'), altText, altTextLanguage: 'en' },
          amountMicros: String(Math.round(amount * 1_000_000)),
          currency,
          amountDisplayString: display,
          tier: num(event.data.tier, superChatTier(amount)),
        };
        this.append(
          broadcast,
          this.item(broadcast, event.id, 'superStickerEvent', author, event.createdAt, `Super Sticker of ${display}: ${altText}`, {
            superStickerDetails,
          }),
        );
        return;
      }
      case 'membership':
      case 'sub':
      case 'resub': {
        const months = num(event.data.months, event.type === 'resub' ? 2 : 1);
        if (months > 1) {
          const memberMilestoneChatDetails: Record<string, unknown> = { memberLevelName: level, memberMonth: months };
          if (message) memberMilestoneChatDetails.userComment = message;
          this.append(
            broadcast,
            this.item(broadcast, event.id, 'memberMilestoneChatEvent', author, event.createdAt, message, { memberMilestoneChatDetails }),
          );
        } else {
          const isUpgrade = event.data.isUpgrade === true;
          this.append(
            broadcast,
            this.item(broadcast, event.id, 'newSponsorEvent', author, event.createdAt, `Welcome to ${level}!`, {
              newSponsorDetails: { memberLevelName: level, isUpgrade },
            }),
          );
        }
        return;
      }
      case 'membership_gift':
      case 'gift': {
        const named = Array.isArray(event.data.recipientIds)
          ? event.data.recipientIds.filter((x): x is string => typeof x === 'string')
          : [];
        const count = num(event.data.count, Math.max(1, named.length));
        // YouTube sends one giftMembershipReceivedEvent per membership given: recipients not named are drawn
        // from the channel's viewers.
        const recipients = this.giftRecipients(named, count, author);
        this.append(
          broadcast,
          this.item(broadcast, event.id, 'membershipGiftingEvent', author, event.createdAt, `Gifted ${count} ${level} memberships`, {
            membershipGiftingDetails: { giftMembershipsCount: count, giftMembershipsLevelName: level },
          }),
        );
        for (const recipient of recipients) {
          this.append(
            broadcast,
            this.item(
              broadcast,
              `${event.id}.${recipient}`,
              'giftMembershipReceivedEvent',
              recipient,
              event.createdAt,
              `Received a gift membership`,
              {
                giftMembershipReceivedDetails: {
                  memberLevelName: level,
                  gifterChannelId: author,
                  associatedMembershipGiftingMessageId: event.id,
                },
              },
            ),
          );
        }
        return;
      }
      case 'follow':
      case 'raid':
      case 'kicks':
      case 'tiktok_gift':
      case 'like':
      case 'member_join':
        return;
    }
  }
}
