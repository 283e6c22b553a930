/**
 * Twitch EventSub notification payloads (the wire shapes of https://dev.twitch.tv/docs/eventsub/eventsub-reference)
 * and their mapping to Greenroom's normalised events. Pure functions: no I/O, nothing compiled per message.
 */
import type { ChatBadge, ChatEmote, ChatRoles } from '@greenroom/contracts/api/events';
import type { PlatformEvent } from '../port';

type ChatBadgeWire = { set_id: string; id: string; info: string };
type Fragment =
  | { type: 'text'; text: string }
  | { type: 'emote'; text: string; emote: { id: string; emote_set_id?: string } | null }
  | { type: 'cheermote'; text: string; cheermote: { prefix: string; bits: number; tier: number } | null }
  | { type: 'mention'; text: string; mention: { user_id: string; user_name: string; user_login: string } | null };

export interface ChatMessagePayload {
  broadcaster_user_id: string;
  chatter_user_id: string;
  chatter_user_login: string;
  chatter_user_name: string;
  message_id: string;
  message: { text: string; fragments: Fragment[] | null };
  color: string | null;
  badges: ChatBadgeWire[] | null;
  message_type: string;
  cheer: { bits: number } | null;
  reply: { parent_message_id: string; parent_message_body: string; parent_user_name: string } | null;
}

export interface MessageDeletePayload {
  target_user_id: string;
  target_user_name: string;
  message_id: string;
}

export interface ClearUserMessagesPayload {
  target_user_id: string;
  target_user_name: string;
}

/** channel.ban v1 (https://dev.twitch.tv/docs/eventsub/eventsub-subscription-types/#channelban): a timeout or a permanent ban. */
export interface ChannelBanPayload {
  user_id: string;
  user_login: string;
  user_name: string;
  broadcaster_user_id: string;
  moderator_user_id: string;
  moderator_user_login: string;
  moderator_user_name: string;
  reason: string;
  banned_at: string;
  ends_at: string | null;
  is_permanent: boolean;
}

interface UserFields {
  user_id: string | null;
  user_login: string | null;
  user_name: string | null;
}

export type FollowPayload = UserFields & { followed_at: string };
export type SubscribePayload = UserFields & { tier: string; is_gift: boolean };
export type SubscriptionMessagePayload = UserFields & {
  tier: string;
  message: { text: string } | null;
  cumulative_months: number;
  streak_months: number | null;
};
export type SubscriptionGiftPayload = UserFields & { tier: string; total: number; is_anonymous: boolean };
export type CheerPayload = UserFields & { is_anonymous: boolean; message: string; bits: number };
export interface RaidPayload {
  from_broadcaster_user_id: string;
  from_broadcaster_user_login: string;
  from_broadcaster_user_name: string;
  viewers: number;
}
export interface StreamOnlinePayload {
  id: string;
  started_at: string;
}

/** An emote image on Twitch's CDN (v2 layout, animated when available, dark theme, 1x) under `cdnBase` (endpoints: `twitch.emoteCdnUrl`). */
export function emoteUrl(cdnBase: string, id: string): string {
  return `${cdnBase}/emoticons/v2/${encodeURIComponent(id)}/default/dark/1.0`;
}

const badgeLabels: Record<string, string> = {
  broadcaster: 'Broadcaster',
  moderator: 'Moderator',
  vip: 'VIP',
  subscriber: 'Subscriber',
  founder: 'Founder',
  partner: 'Verified',
  staff: 'Staff',
  premium: 'Prime Gaming',
  turbo: 'Turbo',
  'bits-leader': 'Bits Leader',
  'sub-gifter': 'Sub Gifter',
  'artist-badge': 'Artist',
};

function badgeLabel(b: ChatBadgeWire): string {
  const label = badgeLabels[b.set_id] ?? b.set_id;
  return b.info && (b.set_id === 'subscriber' || b.set_id === 'founder') ? `${label} (${b.info} months)` : label;
}

export function chatEvent(p: ChatMessagePayload, receivedAt: string, emoteCdnUrl: string): PlatformEvent {
  const wireBadges = p.badges ?? [];
  const badges: ChatBadge[] = wireBadges.map((b) => ({ set_id: b.set_id, id: b.id, label: badgeLabel(b) }));
  const has = (set: string) => wireBadges.some((b) => b.set_id === set);
  const roles: ChatRoles = {
    broadcaster: p.chatter_user_id === p.broadcaster_user_id || has('broadcaster'),
    moderator: has('moderator'),
    vip: has('vip'),
    subscriber: has('subscriber') || has('founder'),
    member: false,
    verified: has('partner'),
  };
  const emotes: ChatEmote[] = [];
  const mentions: string[] = [];
  let offset = 0;
  for (const f of p.message.fragments ?? []) {
    if (f.type === 'emote' && f.emote) {
      emotes.push({
        start: offset,
        end: offset + f.text.length,
        name: f.text,
        id: f.emote.id,
        source: 'platform',
        url: emoteUrl(emoteCdnUrl, f.emote.id),
      });
    } else if (f.type === 'mention' && f.mention) {
      mentions.push(f.mention.user_login.toLowerCase());
    }
    offset += f.text.length;
  }
  return {
    kind: 'chat',
    message: {
      provider_message_id: p.message_id,
      author: {
        provider_user_id: p.chatter_user_id,
        login: p.chatter_user_login,
        display_name: p.chatter_user_name,
        color: p.color || null,
        avatar_url: null,
        badges,
        roles,
      },
      text: p.message.text,
      emotes,
      reply: p.reply
        ? {
            provider_message_id: p.reply.parent_message_id,
            author_display_name: p.reply.parent_user_name,
            text: p.reply.parent_message_body,
          }
        : null,
      mentions,
      highlight: p.cheer && p.cheer.bits > 0 ? `${p.cheer.bits} bits` : null,
      sent_at: receivedAt,
      deleted: false,
    },
  };
}

export function messageDeleteEvent(p: MessageDeletePayload, at: string): PlatformEvent {
  return {
    kind: 'moderation',
    event: {
      kind: 'delete',
      target: { provider_user_id: p.target_user_id, display_name: p.target_user_name },
      provider_message_id: p.message_id,
      duration_seconds: null,
      reason: null,
      moderator: null,
      source: 'platform',
      occurred_at: at,
    },
  };
}

/** Twitch clears a user's messages when they are banned or timed out (by anyone). */
export function clearUserMessagesEvent(p: ClearUserMessagesPayload, at: string): PlatformEvent {
  return {
    kind: 'moderation',
    event: {
      kind: 'clear',
      target: { provider_user_id: p.target_user_id, display_name: p.target_user_name },
      provider_message_id: null,
      duration_seconds: null,
      reason: null,
      moderator: null,
      source: 'platform',
      occurred_at: at,
    },
  };
}

/** A ban or timeout done by anyone (on Twitch itself or through Greenroom), with its duration and moderator. */
export function channelBanEvent(p: ChannelBanPayload, receivedAt: string): PlatformEvent {
  const at = eventSubTime(p.banned_at, receivedAt);
  const ends = p.ends_at ? Date.parse(p.ends_at) : NaN;
  const duration = !p.is_permanent && !Number.isNaN(ends) ? Math.max(1, Math.round((ends - Date.parse(at)) / 1000)) : null;
  return {
    kind: 'moderation',
    event: {
      kind: duration === null ? 'ban' : 'timeout',
      target: { provider_user_id: p.user_id, display_name: p.user_name || p.user_login },
      provider_message_id: null,
      duration_seconds: duration,
      reason: p.reason || null,
      moderator: p.moderator_user_id
        ? { kind: 'platform', user_id: null, display_name: p.moderator_user_name || p.moderator_user_login }
        : null,
      source: 'platform',
      occurred_at: at,
    },
  };
}

function viewer(u: UserFields): { provider_user_id: string; login: string; display_name: string } | null {
  return u.user_id ? { provider_user_id: u.user_id, login: u.user_login ?? '', display_name: u.user_name ?? u.user_login ?? '' } : null;
}

const activityBase = { tier: null, months: null, count: null, amount: null, message: null } as const;

/**
 * An EventSub timestamp as ISO 8601 with milliseconds. Twitch sends RFC 3339 with up to nine fraction digits
 * ("2023-07-15T18:16:11.17106713Z"); the rest of Greenroom compares and stores millisecond ISO strings.
 */
export function eventSubTime(value: string, fallback: string): string {
  const t = Date.parse(value);
  return Number.isNaN(t) ? fallback : new Date(t).toISOString();
}

export function followEvent(p: FollowPayload, eventId: string): PlatformEvent {
  const at = eventSubTime(p.followed_at, new Date().toISOString());
  return {
    kind: 'activity',
    activity: { ...activityBase, provider_event_id: eventId, type: 'follow', viewer: viewer(p), occurred_at: at },
  };
}

/**
 * `channel.subscribe`. A gifted one (`is_gift`) is a recipient of a `channel.subscription.gift`, which Twitch sends
 * once for the whole gift with its `total`: the recipient's line is `gift_received`, so stats, goals and points
 * count the gift once (by its count) and not again per recipient.
 */
export function subscribeEvent(p: SubscribePayload, eventId: string, at: string): PlatformEvent {
  return {
    kind: 'activity',
    activity: {
      ...activityBase,
      provider_event_id: eventId,
      type: p.is_gift ? 'gift_received' : 'sub',
      viewer: viewer(p),
      tier: p.tier,
      occurred_at: at,
    },
  };
}

export function resubEvent(p: SubscriptionMessagePayload, eventId: string, at: string): PlatformEvent {
  return {
    kind: 'activity',
    activity: {
      ...activityBase,
      provider_event_id: eventId,
      type: 'resub',
      viewer: viewer(p),
      tier: p.tier,
      months: p.cumulative_months,
      message: p.message?.text || null,
      occurred_at: at,
    },
  };
}

export function giftEvent(p: SubscriptionGiftPayload, eventId: string, at: string): PlatformEvent {
  return {
    kind: 'activity',
    activity: {
      ...activityBase,
      provider_event_id: eventId,
      type: 'gift',
      viewer: p.is_anonymous ? null : viewer(p),
      tier: p.tier,
      count: p.total,
      occurred_at: at,
    },
  };
}

export function cheerEvent(p: CheerPayload, eventId: string, at: string): PlatformEvent {
  return {
    kind: 'activity',
    activity: {
      ...activityBase,
      provider_event_id: eventId,
      type: 'cheer',
      viewer: p.is_anonymous ? null : viewer(p),
      count: p.bits,
      amount: `${p.bits} bits`,
      message: p.message || null,
      occurred_at: at,
    },
  };
}

export function raidEvent(p: RaidPayload, eventId: string, at: string): PlatformEvent {
  return {
    kind: 'activity',
    activity: {
      ...activityBase,
      provider_event_id: eventId,
      type: 'raid',
      viewer: {
        provider_user_id: p.from_broadcaster_user_id,
        login: p.from_broadcaster_user_login,
        display_name: p.from_broadcaster_user_name,
      },
      count: p.viewers,
      occurred_at: at,
    },
  };
}
