/**
 * Kick webhook payloads (KickDevDocs events/event-types.md, version 1) and their mapping to
 * normalised platform events. Pure functions: the receiver verifies and routes, this only translates.
 */
import { z } from 'zod';
import type { ChatAuthor, ChatEmote, ChatRoles } from '@greenroom/contracts/api/events';
import type { PlatformEvent } from '../port';

/** Every event a connected Kick channel subscribes to. */
export const kickSubscribedEvents = [
  'chat.message.sent',
  'channel.followed',
  'channel.subscription.new',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'kicks.gifted',
  'livestream.status.updated',
  'moderation.banned',
] as const;
export type KickEventName = (typeof kickSubscribedEvents)[number];

export function isKickEventName(value: string): value is KickEventName {
  return (kickSubscribedEvents as readonly string[]).includes(value);
}

const idString = z.union([z.number(), z.string()]).transform(String);

const badgeSchema = z.object({ text: z.string(), type: z.string(), count: z.number().int().nullable().optional() });
const userSchema = z.object({
  is_anonymous: z.boolean().nullable().optional(),
  user_id: idString.nullable().optional(),
  username: z.string().nullable().optional(),
  is_verified: z.boolean().nullable().optional(),
  profile_picture: z.string().nullable().optional(),
  channel_slug: z.string().nullable().optional(),
  identity: z
    .object({ username_color: z.string().nullable().optional(), badges: z.array(badgeSchema).nullable().optional() })
    .nullable()
    .optional(),
});
type KickUser = z.infer<typeof userSchema>;

const broadcasterOnly = z.object({ broadcaster: userSchema });

const payloads = {
  'chat.message.sent': z.object({
    message_id: z.string(),
    replies_to: z.object({ message_id: z.string(), content: z.string(), sender: userSchema }).nullable().optional(),
    broadcaster: userSchema,
    sender: userSchema,
    content: z.string(),
    created_at: z.string().optional(),
  }),
  'channel.followed': z.object({ broadcaster: userSchema, follower: userSchema }),
  'channel.subscription.new': z.object({
    broadcaster: userSchema,
    subscriber: userSchema,
    duration: z.number().int().optional(),
    created_at: z.string().optional(),
  }),
  'channel.subscription.renewal': z.object({
    broadcaster: userSchema,
    subscriber: userSchema,
    duration: z.number().int().optional(),
    created_at: z.string().optional(),
  }),
  'channel.subscription.gifts': z.object({
    broadcaster: userSchema,
    gifter: userSchema.nullable().optional(),
    giftees: z.array(userSchema).optional(),
    created_at: z.string().optional(),
  }),
  'kicks.gifted': z.object({
    broadcaster: userSchema,
    sender: userSchema.nullable().optional(),
    gift: z.object({
      amount: z.number(),
      name: z.string().optional(),
      type: z.string().optional(),
      tier: z.string().optional(),
      message: z.string().nullable().optional(),
    }),
    created_at: z.string().optional(),
  }),
  'livestream.status.updated': z.object({
    broadcaster: userSchema,
    is_live: z.boolean(),
    title: z.string().nullable().optional(),
    started_at: z.string().nullable().optional(),
    ended_at: z.string().nullable().optional(),
  }),
  'moderation.banned': z.object({
    broadcaster: userSchema,
    moderator: userSchema.nullable().optional(),
    banned_user: userSchema,
    metadata: z
      .object({
        reason: z.string().nullable().optional(),
        created_at: z.string().nullable().optional(),
        expires_at: z.string().nullable().optional(),
      })
      .nullable()
      .optional(),
  }),
} satisfies Record<KickEventName, z.ZodType>;

/** The broadcaster user id of any Kick webhook payload (routing key), or null. */
export function kickBroadcasterId(payload: unknown): string | null {
  const parsed = broadcasterOnly.safeParse(payload);
  return parsed.success ? (parsed.data.broadcaster.user_id ?? null) : null;
}

/** Kick's CDN image of an emote. */
export function kickEmoteUrl(emoteId: string): string {
  return `https://files.kick.com/emotes/${encodeURIComponent(emoteId)}/fullsize`;
}

const emoteMarkup = /\[emote:(\d+):([^\]\s]+)\]/g;

/** Replaces Kick's inline `[emote:ID:NAME]` markup with the names and returns their positions in the new text. */
export function parseKickContent(content: string): { text: string; emotes: ChatEmote[] } {
  const emotes: ChatEmote[] = [];
  let text = '';
  let cursor = 0;
  for (const match of content.matchAll(emoteMarkup)) {
    const [markup, id, name] = match;
    if (id === undefined || name === undefined) continue;
    text += content.slice(cursor, match.index);
    emotes.push({ start: text.length, end: text.length + name.length, name, id, source: 'platform', url: kickEmoteUrl(id) });
    text += name;
    cursor = match.index + markup.length;
  }
  text += content.slice(cursor);
  return { text, emotes };
}

/** Logins mentioned with `@name`, lower case, without duplicates. */
export function mentionsIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:^|\s)@([A-Za-z0-9_]{2,25})/g)) if (match[1]) found.add(match[1].toLowerCase());
  return [...found];
}

function badgesOf(user: KickUser): ChatAuthor['badges'] {
  return (user.identity?.badges ?? []).map((b) => ({ set_id: b.type, id: String(b.count ?? 1), label: b.text }));
}

function rolesOf(user: KickUser): ChatRoles {
  const types = new Set((user.identity?.badges ?? []).map((b) => b.type));
  const subscriber = types.has('subscriber') || types.has('sub_gifter') || types.has('founder');
  return {
    broadcaster: types.has('broadcaster'),
    moderator: types.has('moderator'),
    vip: types.has('vip') || types.has('og'),
    subscriber,
    member: subscriber,
    verified: user.is_verified === true || types.has('verified'),
  };
}

function viewerOf(user: KickUser | null | undefined): { provider_user_id: string; login: string; display_name: string } | null {
  if (!user || user.is_anonymous || user.user_id == null) return null;
  const name = user.username ?? user.channel_slug ?? user.user_id;
  return { provider_user_id: user.user_id, login: (user.channel_slug ?? name).toLowerCase(), display_name: name };
}

function iso(value: string | null | undefined, fallback: string): string {
  if (!value) return fallback;
  const t = Date.parse(value);
  return Number.isNaN(t) ? fallback : new Date(t).toISOString();
}

function secondsUntil(expiresAt: string | null | undefined, from: string): number | null {
  if (!expiresAt) return null;
  const end = Date.parse(expiresAt);
  const start = Date.parse(from);
  if (Number.isNaN(end) || Number.isNaN(start)) return null;
  return Math.max(1, Math.round((end - start) / 1000));
}

/**
 * Maps one verified webhook to normalised events. `messageId` (Kick-Event-Message-Id) is the
 * event id of notifications that carry none; `receivedAt` stands in for missing timestamps.
 */
export function mapKickEvent(eventType: KickEventName, payload: unknown, messageId: string, receivedAt: string): PlatformEvent[] {
  const base = { provider_event_id: messageId, tier: null, months: null, count: null, amount: null, message: null } as const;
  switch (eventType) {
    case 'chat.message.sent': {
      const p = payloads[eventType].parse(payload);
      const { text, emotes } = parseKickContent(p.content);
      const name = p.sender.username ?? p.sender.channel_slug ?? String(p.sender.user_id ?? 'unknown');
      return [
        {
          kind: 'chat',
          message: {
            provider_message_id: p.message_id,
            author: {
              provider_user_id: p.sender.user_id ?? '',
              login: (p.sender.channel_slug ?? name).toLowerCase(),
              display_name: name,
              color: p.sender.identity?.username_color || null,
              avatar_url: p.sender.profile_picture || null,
              badges: badgesOf(p.sender),
              roles: rolesOf(p.sender),
            },
            text,
            emotes,
            reply: p.replies_to
              ? {
                  provider_message_id: p.replies_to.message_id,
                  author_display_name: p.replies_to.sender.username ?? '',
                  text: parseKickContent(p.replies_to.content).text,
                }
              : null,
            mentions: mentionsIn(text),
            highlight: null,
            sent_at: iso(p.created_at, receivedAt),
            deleted: false,
          },
        },
      ];
    }
    case 'channel.followed': {
      const p = payloads[eventType].parse(payload);
      return [{ kind: 'activity', activity: { ...base, type: 'follow', viewer: viewerOf(p.follower), occurred_at: receivedAt } }];
    }
    case 'channel.subscription.new':
    case 'channel.subscription.renewal': {
      const p = payloads[eventType].parse(payload);
      const renewal = eventType === 'channel.subscription.renewal';
      return [
        {
          kind: 'activity',
          activity: {
            ...base,
            type: renewal ? 'resub' : 'sub',
            viewer: viewerOf(p.subscriber),
            months: p.duration ?? (renewal ? null : 1),
            occurred_at: iso(p.created_at, receivedAt),
          },
        },
      ];
    }
    case 'channel.subscription.gifts': {
      const p = payloads[eventType].parse(payload);
      return [
        {
          kind: 'activity',
          activity: {
            ...base,
            type: 'gift',
            viewer: viewerOf(p.gifter),
            count: p.giftees?.length ?? 1,
            occurred_at: iso(p.created_at, receivedAt),
          },
        },
      ];
    }
    case 'kicks.gifted': {
      const p = payloads[eventType].parse(payload);
      return [
        {
          kind: 'activity',
          activity: {
            ...base,
            type: 'kicks',
            viewer: viewerOf(p.sender),
            tier: p.gift.name ?? p.gift.tier ?? null,
            count: Math.round(p.gift.amount),
            amount: `${p.gift.amount} kicks`,
            message: p.gift.message || null,
            occurred_at: iso(p.created_at, receivedAt),
          },
        },
      ];
    }
    case 'livestream.status.updated': {
      const p = payloads[eventType].parse(payload);
      const at = iso(p.is_live ? p.started_at : p.ended_at, receivedAt);
      return [
        {
          kind: 'stream',
          status: {
            is_live: p.is_live,
            viewer_count: null,
            title: p.title ?? null,
            category: null,
            started_at: p.is_live ? iso(p.started_at, receivedAt) : null,
          },
        },
        { kind: 'activity', activity: { ...base, type: p.is_live ? 'stream_online' : 'stream_offline', viewer: null, occurred_at: at } },
      ];
    }
    case 'moderation.banned': {
      const p = payloads[eventType].parse(payload);
      const at = iso(p.metadata?.created_at, receivedAt);
      const duration = secondsUntil(p.metadata?.expires_at, at);
      const target = viewerOf(p.banned_user);
      const moderator = viewerOf(p.moderator);
      return [
        {
          kind: 'moderation',
          event: {
            kind: duration === null ? 'ban' : 'timeout',
            target: target ? { provider_user_id: target.provider_user_id, display_name: target.display_name } : null,
            provider_message_id: null,
            duration_seconds: duration,
            reason: p.metadata?.reason || null,
            moderator: moderator ? { kind: 'platform', user_id: null, display_name: moderator.display_name } : null,
            source: 'platform',
            occurred_at: at,
          },
        },
      ];
    }
  }
}
