import { z } from 'zod';
import { channelProviderIdSchema } from '../providers';

/**
 * Normalised platform events: what every adapter turns its platform's chat and notifications into,
 * what the server persists, and what staff websockets receive. Platform ids are kept as strings.
 */

export const chatBadgeSchema = z.object({ set_id: z.string(), id: z.string(), label: z.string() });
export type ChatBadge = z.infer<typeof chatBadgeSchema>;

export const chatRolesSchema = z.object({
  broadcaster: z.boolean(),
  moderator: z.boolean(),
  vip: z.boolean(),
  subscriber: z.boolean(),
  /** YouTube membership / Kick subscriber badge. */
  member: z.boolean(),
  verified: z.boolean(),
});
export type ChatRoles = z.infer<typeof chatRolesSchema>;

export const chatAuthorSchema = z.object({
  provider_user_id: z.string(),
  login: z.string(),
  display_name: z.string(),
  /** CSS colour or null (the UI picks one from the name). */
  color: z.string().nullable(),
  avatar_url: z.string().nullable(),
  badges: z.array(chatBadgeSchema),
  roles: chatRolesSchema,
});
export type ChatAuthor = z.infer<typeof chatAuthorSchema>;

/** An emote occurrence in a message: UTF-16 code unit range [start, end). */
export const chatEmoteSchema = z.object({
  start: z.number().int(),
  end: z.number().int(),
  name: z.string(),
  id: z.string(),
  source: z.enum(['platform', '7tv', 'betterttv']),
  url: z.string(),
});
export type ChatEmote = z.infer<typeof chatEmoteSchema>;

/** The author of a message in the chat log: `is_self` marks what Greenroom itself wrote (the channel's bot, the system bot, or a message sent from Greenroom), so nothing answers itself. */
export const chatMessageAuthorSchema = chatAuthorSchema.extend({ is_self: z.boolean() });
export type ChatMessageAuthor = z.infer<typeof chatMessageAuthorSchema>;

/** A message a moderation stage (a spam filter) removed before anyone saw it: shown to staff as removed by the filter, never to the public. */
export const chatFilterVerdictSchema = z.object({ stage: z.string(), reason: z.string() });
export type ChatFilterVerdict = z.infer<typeof chatFilterVerdictSchema>;

export const chatMessageSchema = z.object({
  /** `${provider}:${provider_message_id}` — unique across platforms. */
  id: z.string(),
  channel_id: z.string(),
  channel_provider_id: z.string(),
  provider: channelProviderIdSchema,
  provider_message_id: z.string(),
  author: chatMessageAuthorSchema,
  text: z.string(),
  emotes: z.array(chatEmoteSchema),
  reply: z.object({ provider_message_id: z.string(), author_display_name: z.string(), text: z.string() }).nullable(),
  /** Who the message mentions (logins, lower case). */
  mentions: z.array(z.string()),
  /** Cheer bits, Super Chat amount etc. attached to the message, in display form. */
  highlight: z.string().nullable(),
  sent_at: z.string(),
  deleted: z.boolean(),
  filtered: chatFilterVerdictSchema.nullable(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const activityTypes = [
  'follow',
  'sub',
  'resub',
  'gift',
  /**
   * A viewer received one of the subs of a `gift` (Twitch sends `channel.subscribe` with `is_gift` per recipient
   * beside the one `channel.subscription.gift`). Not a new sub of its own: the gift's `count` already counts it.
   */
  'gift_received',
  'raid',
  'cheer',
  'superchat',
  'supersticker',
  'membership',
  'membership_gift',
  /**
   * A viewer received one of the memberships of a `membership_gift` (YouTube sends one per recipient). Not a new
   * membership of its own: the gift's `count` already counts it.
   */
  'membership_gift_received',
  'kicks',
  'tiktok_gift',
  'stream_online',
  'stream_offline',
] as const;
export const activityTypeSchema = z.enum(activityTypes);
export type ActivityType = z.infer<typeof activityTypeSchema>;

export const activitySchema = z.object({
  id: z.string(),
  channel_id: z.string(),
  channel_provider_id: z.string(),
  provider: channelProviderIdSchema,
  /** The platform's id of the event (dedupe key). */
  provider_event_id: z.string(),
  type: activityTypeSchema,
  /** The viewer (absent for stream online/offline and anonymous gifts). */
  viewer: z.object({ provider_user_id: z.string(), login: z.string(), display_name: z.string() }).nullable(),
  /** Tier ("1000"/"2000"/"3000" or a level name), months, count of gifts, bits, viewers of a raid… */
  tier: z.string().nullable(),
  months: z.number().int().nullable(),
  count: z.number().int().nullable(),
  /** Money-like amount in display form ("$5.00", "100 bits", "50 kicks"). */
  amount: z.string().nullable(),
  message: z.string().nullable(),
  occurred_at: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

export const moderationKinds = ['timeout', 'ban', 'unban', 'delete', 'clear'] as const;
/** Who acted: a Greenroom user, the channel's bot (a chatbot stage), Greenroom itself (system), or someone on the platform. */
export const actorKinds = ['user', 'bot', 'system', 'platform'] as const;
export type ActorKind = (typeof actorKinds)[number];
export const moderationEventSchema = z.object({
  id: z.string(),
  channel_id: z.string(),
  channel_provider_id: z.string(),
  provider: channelProviderIdSchema,
  kind: z.enum(moderationKinds),
  /** The viewer acted on (absent for a whole-chat clear). */
  target: z.object({ provider_user_id: z.string(), display_name: z.string() }).nullable(),
  provider_message_id: z.string().nullable(),
  duration_seconds: z.number().int().nullable(),
  reason: z.string().nullable(),
  /** Who did it: a Greenroom user, the channel's bot, Greenroom itself (system), or a moderator on the platform (its own chat / another tool). */
  moderator: z.object({ kind: z.enum(actorKinds), user_id: z.string().nullable(), display_name: z.string() }).nullable(),
  source: z.enum(['greenroom', 'platform']),
  occurred_at: z.string(),
});
export type ModerationEvent = z.infer<typeof moderationEventSchema>;

export const streamStatusSchema = z.object({
  channel_id: z.string(),
  channel_provider_id: z.string(),
  provider: channelProviderIdSchema,
  is_live: z.boolean(),
  viewer_count: z.number().int().nullable(),
  title: z.string().nullable(),
  category: z.string().nullable(),
  started_at: z.string().nullable(),
  /** YouTube: the live video id (for the embedded player) while live; null otherwise and on other platforms. */
  live_stream_id: z.string().nullable(),
});
export type StreamStatus = z.infer<typeof streamStatusSchema>;

/**
 * A break in one platform connection's chat: the connection dropped at `started_at` and resumed at
 * `ended_at` (reason `platform`), or Greenroom could not hold what arrived meanwhile and lost `lost`
 * messages (reason `lost`). Shown as a line in the staff chat.
 */
export const chatGapSchema = z.object({
  id: z.string(),
  channel_id: z.string(),
  channel_provider_id: z.string(),
  provider: channelProviderIdSchema,
  reason: z.enum(['platform', 'lost']),
  started_at: z.string(),
  ended_at: z.string(),
  /** Messages Greenroom received but could not keep (reason `lost`); 0 otherwise. */
  lost: z.number().int(),
});
export type ChatGap = z.infer<typeof chatGapSchema>;

/**
 * Whether the chat log is keeping up: `delayed` while the database refuses writes (messages are held
 * and shown once stored), with how many are held and how many had to be given up so far.
 */
export const chatIngestStatusSchema = z.object({
  state: z.enum(['ok', 'delayed']),
  since: z.string(),
  held: z.number().int(),
  lost: z.number().int(),
});
export type ChatIngestStatus = z.infer<typeof chatIngestStatusSchema>;

/**
 * The chat events of a channel (bus topic `channel:<channelId>`, relayed to staff sockets). Stored
 * events carry `seq`, their position in the chat log (messages) or activity feed: the cursor a
 * client passes as `after` to fetch what it missed.
 */
export const chatMessageEventSchema = z.object({ type: z.literal('chat.message'), seq: z.number().int(), data: chatMessageSchema });
export const chatModerationEventSchema = z.object({ type: z.literal('chat.moderation'), data: moderationEventSchema });
export const activityEventSchema = z.object({ type: z.literal('activity'), seq: z.number().int(), data: activitySchema });
export const streamStatusEventSchema = z.object({ type: z.literal('stream.status'), data: streamStatusSchema });
export const chatGapEventSchema = z.object({ type: z.literal('chat.gap'), data: chatGapSchema });
export const chatIngestStatusEventSchema = z.object({ type: z.literal('chat.ingest_status'), data: chatIngestStatusSchema });

export type ChannelStreamEvent =
  | z.infer<typeof chatMessageEventSchema>
  | z.infer<typeof chatModerationEventSchema>
  | z.infer<typeof activityEventSchema>
  | z.infer<typeof streamStatusEventSchema>;
export type ChannelStreamEventType = ChannelStreamEvent['type'];
