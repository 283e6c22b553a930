/**
 * Kick webhook payloads, field for field as in KickDevDocs events/event-types.md (version 1).
 */
import type { Account, Channel, ChannelEvent, ChatMessage, World } from '../world';
import { kickId } from './http';

export type KickEventName =
  | 'chat.message.sent'
  | 'channel.followed'
  | 'channel.subscription.renewal'
  | 'channel.subscription.gifts'
  | 'channel.subscription.new'
  | 'livestream.status.updated'
  | 'livestream.metadata.updated'
  | 'moderation.banned'
  | 'kicks.gifted';

export const kickEventNames: readonly KickEventName[] = [
  'chat.message.sent',
  'channel.followed',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'channel.subscription.new',
  'livestream.status.updated',
  'livestream.metadata.updated',
  'moderation.banned',
  'kicks.gifted',
];

export interface KickBadge {
  text: string;
  type: string;
  count?: number;
}

export interface KickIdentity {
  username_color: string;
  badges: KickBadge[];
}

export interface KickUser {
  is_anonymous: boolean;
  user_id: number | null;
  username: string | null;
  is_verified: boolean | null;
  profile_picture: string | null;
  channel_slug: string | null;
  identity: KickIdentity | null;
}

export interface KickChatMessagePayload {
  message_id: string;
  replies_to?: { message_id: string; content: string; sender: KickUser };
  broadcaster: KickUser;
  sender: KickUser;
  content: string;
  emotes: { emote_id: string; positions: { s: number; e: number }[] }[];
  created_at: string;
}

function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function kickUser(account: Account | undefined, fallbackId: string, identity: KickIdentity | null = null): KickUser {
  return {
    is_anonymous: false,
    user_id: kickId(account?.id ?? fallbackId),
    username: account?.displayName ?? fallbackId,
    is_verified: account?.kind === 'streamer',
    profile_picture: account?.avatarUrl ?? '',
    channel_slug: account?.login ?? fallbackId,
    identity,
  };
}

export const anonymousKickUser: KickUser = {
  is_anonymous: true,
  user_id: null,
  username: null,
  is_verified: null,
  profile_picture: null,
  channel_slug: null,
  identity: null,
};

function broadcasterOf(world: World, channelId: string): KickUser {
  return kickUser(world.account('kick', channelId), channelId);
}

function identityOf(world: World, channel: Channel | undefined, account: Account | undefined, userId: string): KickIdentity {
  const badges: KickBadge[] = [];
  if (channel) {
    if (userId === channel.id) badges.push({ text: 'Broadcaster', type: 'broadcaster' });
    if (channel.moderators.has(userId) || (account && channel.moderators.has(account.login)))
      badges.push({ text: 'Moderator', type: 'moderator' });
    if (channel.vips.has(userId) || (account && channel.vips.has(account.login))) badges.push({ text: 'VIP', type: 'vip' });
    if (channel.subscribers.has(userId) || (account && channel.subscribers.has(account.login)))
      badges.push({ text: 'Subscriber', type: 'subscriber', count: 1 });
  }
  if (account?.kind === 'bot') badges.push({ text: 'Bot', type: 'bot' });
  return { username_color: account?.color ?? '#53FC18', badges };
}

/** Rewrites platform emote ranges as Kick's inline `[emote:ID:NAME]` markup and computes the positions in the new content. */
export function kickContent(message: Pick<ChatMessage, 'text' | 'emotes'>): { content: string; emotes: KickChatMessagePayload['emotes'] } {
  if (message.emotes.length === 0) return { content: message.text, emotes: [] };
  const sorted = [...message.emotes].sort((a, b) => a.start - b.start);
  const byId = new Map<string, { s: number; e: number }[]>();
  let content = '';
  let cursor = 0;
  for (const emote of sorted) {
    if (emote.start < cursor) continue;
    content += message.text.slice(cursor, emote.start);
    const markup = `[emote:${emote.id}:${emote.name}]`;
    const s = content.length;
    content += markup;
    const positions = byId.get(emote.id) ?? [];
    positions.push({ s, e: content.length - 1 });
    byId.set(emote.id, positions);
    cursor = emote.end + 1;
  }
  content += message.text.slice(cursor);
  return { content, emotes: [...byId].map(([emote_id, positions]) => ({ emote_id, positions })) };
}

export function chatMessagePayload(world: World, message: ChatMessage): KickChatMessagePayload {
  const channel = world.channel('kick', message.channelId);
  const sender = world.account('kick', message.authorId);
  const { content, emotes } = kickContent(message);
  const payload: KickChatMessagePayload = {
    message_id: message.id,
    broadcaster: broadcasterOf(world, message.channelId),
    sender: kickUser(sender, message.authorId, identityOf(world, channel, sender, message.authorId)),
    content,
    emotes,
    created_at: rfc3339(message.createdAt),
  };
  if (message.replyToId) {
    const parent = world.messages.get(message.replyToId);
    if (parent) {
      payload.replies_to = {
        message_id: parent.id,
        content: kickContent(parent).content,
        sender: kickUser(world.account('kick', parent.authorId), parent.authorId),
      };
    }
  }
  return payload;
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function addMonths(date: Date, months: number): Date {
  const d = new Date(date);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

/** Giftees of a gift event: `data.recipientIds` if the producer named them, else the first viewers of the world. */
function gifteesOf(world: World, event: ChannelEvent): KickUser[] {
  const named = Array.isArray(event.data.recipientIds) ? event.data.recipientIds.filter((x): x is string => typeof x === 'string') : [];
  const count = num(event.data.count, named.length || 1);
  const ids = [...named];
  if (ids.length < count) {
    for (const account of world.accounts.values()) {
      if (ids.length >= count) break;
      if (account.platform === 'kick' && account.kind === 'viewer' && account.id !== event.userId && !ids.includes(account.id))
        ids.push(account.id);
    }
  }
  return ids.map((id) => kickUser(world.account('kick', id), id));
}

/** Maps a world event to a Kick webhook (name + payload), or null when Kick has no such event (raids, cheers…). */
export function eventPayload(world: World, event: ChannelEvent): { name: KickEventName; payload: Record<string, unknown> } | null {
  const broadcaster = broadcasterOf(world, event.channelId);
  const user = event.userId ? kickUser(world.account('kick', event.userId), event.userId) : anonymousKickUser;
  const channel = world.channel('kick', event.channelId);
  switch (event.type) {
    case 'follow':
      return { name: 'channel.followed', payload: { broadcaster, follower: user } };
    case 'sub':
    case 'resub': {
      const duration = num(event.data.months, event.type === 'sub' ? 1 : 2);
      const payload = {
        broadcaster,
        subscriber: user,
        duration,
        created_at: rfc3339(event.createdAt),
        expires_at: rfc3339(addMonths(event.createdAt, 1)),
      };
      return { name: event.type === 'sub' && duration <= 1 ? 'channel.subscription.new' : 'channel.subscription.renewal', payload };
    }
    case 'gift':
      return {
        name: 'channel.subscription.gifts',
        payload: {
          broadcaster,
          gifter: user,
          giftees: gifteesOf(world, event),
          created_at: rfc3339(event.createdAt),
          expires_at: rfc3339(addMonths(event.createdAt, 1)),
        },
      };
    case 'kicks': {
      const amount = num(event.data.amount, 100);
      const { is_anonymous: _a, identity: _i, ...sender } = user;
      const { is_anonymous: _b, identity: _j, ...caster } = broadcaster;
      return {
        name: 'kicks.gifted',
        payload: {
          broadcaster: caster,
          sender,
          gift: {
            amount,
            name: str(event.data.name, amount >= 500 ? 'Rage Quit' : 'Hype'),
            type: str(event.data.giftType, amount >= 500 ? 'LEVEL_UP' : 'BASIC'),
            tier: str(event.data.tier, amount >= 500 ? 'MID' : 'BASIC'),
            message: str(event.data.message, ''),
            pinned_time_seconds: num(event.data.pinnedTimeSeconds, amount >= 500 ? 600 : 0),
          },
          created_at: event.createdAt.toISOString(),
        },
      };
    }
    case 'stream_online':
    case 'stream_offline': {
      const live = event.type === 'stream_online';
      const startedAt = channel?.startedAt ?? (live ? event.createdAt : null);
      return {
        name: 'livestream.status.updated',
        payload: {
          broadcaster,
          is_live: live,
          title: channel?.title ?? str(event.data.title, ''),
          started_at: startedAt ? startedAt.toISOString() : null,
          ended_at: live ? null : event.createdAt.toISOString(),
        },
      };
    }
    case 'raid':
    case 'cheer':
    case 'superchat':
    case 'supersticker':
    case 'membership':
    case 'membership_gift':
    case 'tiktok_gift':
    case 'like':
    case 'member_join':
      return null;
  }
}

export function bannedPayload(
  world: World,
  ban: { channelId: string; userId: string; moderatorId: string; expiresAt: Date | null; reason: string },
): Record<string, unknown> {
  return {
    broadcaster: broadcasterOf(world, ban.channelId),
    moderator: kickUser(world.account('kick', ban.moderatorId), ban.moderatorId),
    banned_user: kickUser(world.account('kick', ban.userId), ban.userId),
    metadata: { reason: ban.reason, created_at: rfc3339(new Date()), expires_at: ban.expiresAt ? rfc3339(ban.expiresAt) : null },
  };
}

export function metadataPayload(world: World, channel: Channel, categoryThumbnail: string): Record<string, unknown> {
  return {
    broadcaster: broadcasterOf(world, channel.id),
    metadata: {
      title: channel.title,
      language: 'en',
      has_mature_content: false,
      category: { id: kickId(channel.categoryId), name: channel.categoryName, thumbnail: categoryThumbnail },
    },
  };
}
