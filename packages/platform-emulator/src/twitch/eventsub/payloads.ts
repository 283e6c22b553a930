/** EventSub event bodies, field for field as the EventSub reference, built from world objects. */
import type { Account, Channel, ChannelEvent, ChatMessage, World } from '../../world';
import { rfc3339Nano } from './timestamps';
import { streamId } from '../streams';

type Json = Record<string, unknown>;

function user(prefix: string, account: Account | undefined, fallbackId = ''): Json {
  return {
    [`${prefix}user_id`]: account?.id ?? fallbackId,
    [`${prefix}user_login`]: account?.login ?? '',
    [`${prefix}user_name`]: account?.displayName ?? '',
  };
}

function nullableUser(prefix: string, account: Account | undefined): Json {
  return account ? user(prefix, account) : { [`${prefix}user_id`]: null, [`${prefix}user_login`]: null, [`${prefix}user_name`]: null };
}

function broadcaster(world: World, channelId: string): Json {
  return user('broadcaster_', world.account('twitch', channelId), channelId);
}

function tierOf(value: unknown): string {
  if (value === 2 || value === '2' || value === '2000') return '2000';
  if (value === 3 || value === '3' || value === '3000') return '3000';
  return '1000';
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

export function badgesFor(channel: Channel | undefined, userId: string): Json[] {
  if (!channel) return [];
  const badges: Json[] = [];
  if (userId === channel.id) badges.push({ set_id: 'broadcaster', id: '1', info: '' });
  else if (channel.moderators.has(userId)) badges.push({ set_id: 'moderator', id: '1', info: '' });
  else if (channel.vips.has(userId)) badges.push({ set_id: 'vip', id: '1', info: '' });
  if (channel.subscribers.has(userId)) badges.push({ set_id: 'subscriber', id: '0', info: '1' });
  return badges;
}

/** Splits text into text / emote / mention fragments. */
export function fragmentsFor(world: World, message: ChatMessage): Json[] {
  const text = message.text;
  if (message.emotes.length === 0 && !text.includes('@')) return [{ type: 'text', text, cheermote: null, emote: null, mention: null }];
  const fragments: Json[] = [];
  const emotes = [...message.emotes].sort((a, b) => a.start - b.start);
  let buffer = '';
  const flush = () => {
    if (buffer) fragments.push({ type: 'text', text: buffer, cheermote: null, emote: null, mention: null });
    buffer = '';
  };
  let i = 0;
  let e = 0;
  while (i < text.length) {
    const emote = emotes[e];
    if (emote && emote.start === i) {
      flush();
      fragments.push({
        type: 'emote',
        text: text.slice(emote.start, emote.end + 1),
        cheermote: null,
        emote: { id: emote.id, emote_set_id: '0', owner_id: '0', format: ['static'] },
        mention: null,
      });
      i = emote.end + 1;
      e++;
      continue;
    }
    if (text[i] === '@' && (i === 0 || text[i - 1] === ' ')) {
      let j = i + 1;
      while (j < text.length && /[A-Za-z0-9_]/.test(text[j]!)) j++;
      const mentioned = j > i + 1 ? world.accountByLogin('twitch', text.slice(i + 1, j)) : undefined;
      if (mentioned) {
        flush();
        fragments.push({
          type: 'mention',
          text: text.slice(i, j),
          cheermote: null,
          emote: null,
          mention: { user_id: mentioned.id, user_name: mentioned.displayName, user_login: mentioned.login },
        });
        i = j;
        continue;
      }
    }
    buffer += text[i];
    i++;
  }
  flush();
  return fragments;
}

function replyFor(world: World, message: ChatMessage): Json | null {
  if (!message.replyToId) return null;
  const parent = world.messages.get(message.replyToId);
  if (!parent) return null;
  let thread = parent;
  for (let depth = 0; thread.replyToId && depth < 50; depth++) {
    const up = world.messages.get(thread.replyToId);
    if (!up) break;
    thread = up;
  }
  const p = world.account('twitch', parent.authorId);
  const t = world.account('twitch', thread.authorId);
  return {
    parent_message_id: parent.id,
    parent_message_body: parent.text,
    parent_user_id: parent.authorId,
    parent_user_name: p?.displayName ?? '',
    parent_user_login: p?.login ?? '',
    thread_message_id: thread.id,
    thread_user_id: thread.authorId,
    thread_user_name: t?.displayName ?? '',
    thread_user_login: t?.login ?? '',
  };
}

const badgeJson = {
  broadcaster: '{"set_id":"broadcaster","id":"1","info":""}',
  moderator: '{"set_id":"moderator","id":"1","info":""}',
  vip: '{"set_id":"vip","id":"1","info":""}',
  subscriber: '{"set_id":"subscriber","id":"0","info":"1"}',
};

function badgesJson(channel: Channel | undefined, userId: string): string {
  if (!channel) return '[]';
  const parts: string[] = [];
  if (userId === channel.id) parts.push(badgeJson.broadcaster);
  else if (channel.moderators.has(userId)) parts.push(badgeJson.moderator);
  else if (channel.vips.has(userId)) parts.push(badgeJson.vip);
  if (channel.subscribers.has(userId)) parts.push(badgeJson.subscriber);
  return `[${parts.join(',')}]`;
}

function userJson(prefix: string, account: Account | undefined, fallbackId: string): string {
  return `"${prefix}user_id":${JSON.stringify(account?.id ?? fallbackId)},"${prefix}user_login":${JSON.stringify(account?.login ?? '')},"${prefix}user_name":${JSON.stringify(account?.displayName ?? '')}`;
}

/**
 * channel.chat.message serialised directly (the hot path of chat delivery): same fields and order as
 * `chatMessageEvent`, without building and stringifying an intermediate object.
 */
export function chatMessageEventJson(world: World, message: ChatMessage): string {
  const channel = world.channel('twitch', message.channelId);
  const chatter = world.account('twitch', message.authorId);
  const reply = message.replyToId ? JSON.stringify(replyFor(world, message)) : 'null';
  return (
    `{${userJson('broadcaster_', world.account('twitch', message.channelId), message.channelId)},` +
    '"source_broadcaster_user_id":null,"source_broadcaster_user_login":null,"source_broadcaster_user_name":null,' +
    `${userJson('chatter_', chatter, message.authorId)},"message_id":${JSON.stringify(message.id)},"source_message_id":null,"is_source_only":null,` +
    `"message":{"text":${JSON.stringify(message.text)},"fragments":${JSON.stringify(fragmentsFor(world, message))}},` +
    `"color":${JSON.stringify(chatter?.color ?? '')},"badges":${badgesJson(channel, message.authorId)},"source_badges":null,"message_type":"text",` +
    `"cheer":null,"reply":${reply},"channel_points_custom_reward_id":null,"channel_points_animation_id":null}`
  );
}

export function chatMessageEvent(world: World, message: ChatMessage): Json {
  const channel = world.channel('twitch', message.channelId);
  const chatter = world.account('twitch', message.authorId);
  return {
    ...broadcaster(world, message.channelId),
    source_broadcaster_user_id: null,
    source_broadcaster_user_login: null,
    source_broadcaster_user_name: null,
    ...user('chatter_', chatter, message.authorId),
    message_id: message.id,
    source_message_id: null,
    is_source_only: null,
    message: { text: message.text, fragments: fragmentsFor(world, message) },
    color: chatter?.color ?? '',
    badges: badgesFor(channel, message.authorId),
    source_badges: null,
    message_type: 'text',
    cheer: null,
    reply: replyFor(world, message),
    channel_points_custom_reward_id: null,
    channel_points_animation_id: null,
  };
}

export function messageDeleteEvent(world: World, message: ChatMessage): Json {
  return {
    ...broadcaster(world, message.channelId),
    ...user('target_', world.account('twitch', message.authorId), message.authorId),
    message_id: message.id,
  };
}

export function clearUserMessagesEvent(world: World, channelId: string, userId: string): Json {
  return { ...broadcaster(world, channelId), ...user('target_', world.account('twitch', userId), userId) };
}

/** `channel.ban` v1: a timeout (ends_at set) or a permanent ban, with the moderator who did it. */
export function channelBanEvent(
  world: World,
  ban: { channelId: string; userId: string; moderatorId: string; expiresAt: Date | null; reason: string },
  at: Date,
): Json {
  return {
    ...user('', world.account('twitch', ban.userId), ban.userId),
    ...broadcaster(world, ban.channelId),
    ...user('moderator_', world.account('twitch', ban.moderatorId), ban.moderatorId),
    reason: ban.reason,
    banned_at: rfc3339Nano(at),
    ends_at: ban.expiresAt ? rfc3339Nano(ban.expiresAt) : null,
    is_permanent: ban.expiresAt === null,
  };
}

/** A world event as one or more EventSub (type, routeKey, event) deliveries. */
export function eventDeliveries(world: World, event: ChannelEvent): { type: string; routeKey: string; event: Json }[] {
  const b = broadcaster(world, event.channelId);
  const who = event.userId ? world.account('twitch', event.userId) : undefined;
  const d = event.data;
  const at = rfc3339Nano(event.createdAt);
  switch (event.type) {
    case 'follow':
      return [
        { type: 'channel.follow', routeKey: event.channelId, event: { ...user('', who, event.userId ?? ''), ...b, followed_at: at } },
      ];
    case 'sub':
      return [
        {
          type: 'channel.subscribe',
          routeKey: event.channelId,
          event: { ...user('', who, event.userId ?? ''), ...b, tier: tierOf(d.tier), is_gift: d.isGift === true },
        },
      ];
    case 'resub': {
      const months = num(d.months, 2);
      const text = str(d.message, '');
      return [
        {
          type: 'channel.subscription.message',
          routeKey: event.channelId,
          event: {
            ...user('', who, event.userId ?? ''),
            ...b,
            tier: tierOf(d.tier),
            message: { text, emotes: [] },
            cumulative_months: months,
            streak_months: typeof d.streak === 'number' ? d.streak : null,
            duration_months: num(d.durationMonths, 1),
          },
        },
      ];
    }
    case 'gift': {
      const anonymous = d.anonymous === true || event.userId === null;
      const count = num(d.count, 1);
      const tier = tierOf(d.tier);
      const out: { type: string; routeKey: string; event: Json }[] = [
        {
          type: 'channel.subscription.gift',
          routeKey: event.channelId,
          event: {
            ...nullableUser('', anonymous ? undefined : who),
            ...b,
            total: count,
            tier,
            cumulative_total: anonymous ? null : num(d.cumulativeTotal, count),
            is_anonymous: anonymous,
          },
        },
      ];
      const recipients = Array.isArray(d.recipientIds) ? d.recipientIds.filter((x): x is string => typeof x === 'string') : [];
      for (const id of recipients)
        out.push({
          type: 'channel.subscribe',
          routeKey: event.channelId,
          event: { ...user('', world.account('twitch', id), id), ...b, tier, is_gift: true },
        });
      return out;
    }
    case 'cheer': {
      const anonymous = d.anonymous === true || event.userId === null;
      return [
        {
          type: 'channel.cheer',
          routeKey: event.channelId,
          event: {
            is_anonymous: anonymous,
            ...nullableUser('', anonymous ? undefined : who),
            ...b,
            message: str(d.message, ''),
            bits: num(d.bits, 100),
          },
        },
      ];
    }
    case 'raid': {
      const from = user('from_broadcaster_', who, event.userId ?? '');
      const to = user('to_broadcaster_', world.account('twitch', event.channelId), event.channelId);
      const payload = { ...from, ...to, viewers: num(d.viewers, 10) };
      const out: { type: string; routeKey: string; event: Json }[] = [
        { type: 'channel.raid', routeKey: `to:${event.channelId}`, event: payload },
      ];
      if (event.userId) out.push({ type: 'channel.raid', routeKey: `from:${event.userId}`, event: payload });
      return out;
    }
    case 'stream_online': {
      const channel = world.channel('twitch', event.channelId);
      return [
        {
          type: 'stream.online',
          routeKey: event.channelId,
          event: { id: channel ? streamId(channel) : '', ...b, type: 'live', started_at: str(d.startedAt, at) },
        },
      ];
    }
    case 'stream_offline':
      return [{ type: 'stream.offline', routeKey: event.channelId, event: b }];
    case 'superchat':
    case 'supersticker':
    case 'membership':
    case 'membership_gift':
    case 'kicks':
    case 'tiktok_gift':
    case 'like':
    case 'member_join':
      return [];
  }
}
