import { z } from 'zod';
import { channelProviderIdSchema } from '../providers';
import {
  activityEventSchema,
  activitySchema,
  activityTypeSchema,
  chatAuthorSchema,
  chatGapEventSchema,
  chatGapSchema,
  chatIngestStatusEventSchema,
  chatMessageEventSchema,
  chatMessageSchema,
  chatModerationEventSchema,
  moderationEventSchema,
  streamStatusEventSchema,
} from './events';

/**
 * Unified chat. Staff websocket `/api/2/channels/{channelId}/chat-ws` (Mod): the server sends
 * `ChatSocketMessage`s; the client sends `{type:'ping'}` every 2 s and gets `{type:'pong'}`.
 * The public popout websocket `/api/2/public/channels/{channelId}/chat-ws` sends only
 * `chat.message` (public fields) and `chat.removed` (ids of messages to hide).
 * Stored events carry `seq`: after a reconnect a client fetches what it missed with `after`.
 */
export const chatSocketMessageSchema = z.discriminatedUnion('type', [
  chatMessageEventSchema,
  chatModerationEventSchema,
  activityEventSchema,
  streamStatusEventSchema,
  chatGapEventSchema,
  chatIngestStatusEventSchema,
  z.object({ type: z.literal('pong') }),
]);
export type ChatSocketMessage = z.infer<typeof chatSocketMessageSchema>;

/**
 * Without `after`: newest first; `cursor` = pass as `before` for older messages. With `after` (a
 * `seq` from a socket frame or a page's `head`): the messages stored after it, oldest first;
 * `cursor` = pass as `after` for the next ones. `head` is the position of the newest record
 * returned (null when empty): what a client passes as `after` after a reconnect.
 */
export const chatHistoryQuerySchema = z.object({
  before: z.string().max(200).optional(),
  after: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  provider: channelProviderIdSchema.optional(),
  /** Case-insensitive text search over the log. */
  q: z.string().max(200).optional(),
});
export const chatHistorySchema = z.object({
  records: z.array(chatMessageSchema),
  cursor: z.string().nullable(),
  head: z.string().nullable(),
  /** Breaks in a platform's chat within the time these records span (the newest page: up to now). */
  gaps: z.array(chatGapSchema),
});

export const CHAT_MESSAGE_MAX = 500;
export const sendChatBodySchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Write a message first')
    .max(CHAT_MESSAGE_MAX, `A chat message has at most ${CHAT_MESSAGE_MAX} characters`),
  /** Channel provider ids to send to; empty = every connected platform that supports chat write. */
  channel_provider_ids: z.array(z.string().max(64)).max(10).default([]),
  /**
   * The account it goes out as. Absent: the streamer's for those who may post as the streamer (see
   * `canPostAsStreamer`), the bot for everyone else; asking for the streamer's without the right is refused.
   */
  as: z.enum(['broadcaster', 'bot']).optional(),
  /** Reply to a message (platforms with chatReplyMessage only). */
  reply_to: z.object({ channel_provider_id: z.string().max(64), provider_message_id: z.string().max(200) }).optional(),
});
export const sendChatResultSchema = z.object({
  results: z.array(
    z.object({
      channel_provider_id: z.string(),
      provider: channelProviderIdSchema,
      ok: z.boolean(),
      provider_message_id: z.string().nullable(),
      /** Why the platform refused (rate limit, not live, unsupported …). */
      error: z.string().nullable(),
    }),
  ),
});

/** Like chat history: newest first by `cursor`; with `after` the activities stored after it, oldest first. */
export const activityQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  after: z.string().max(200).optional(),
  per_page: z.coerce.number().int().min(1).max(200).default(50),
  /** Comma-separated activity types / providers. */
  types: z.string().max(500).optional(),
  providers: z.string().max(200).optional(),
});
export const activityListSchema = z.object({
  records: z.array(activitySchema),
  cursor: z.string().nullable(),
  total: z.number().int().optional(),
  /** Position of the newest activity returned (null when empty): pass as `after` after a reconnect. */
  head: z.string().nullable(),
});
export { activityTypeSchema };

/** A viewer as the chat shows them (author fields), plus what Greenroom knows of them in this channel. */
export const viewerCardSchema = chatAuthorSchema.extend({
  provider: channelProviderIdSchema,
  first_seen_at: z.string().nullable(),
  last_seen_at: z.string().nullable(),
  message_count: z.number().int(),
  /** Current state on the platform as far as Greenroom knows. */
  banned: z.boolean(),
  timed_out_until: z.string().nullable(),
  recent_messages: z.array(chatMessageSchema),
  moderation: z.array(moderationEventSchema),
  channel_provider_id: z.string().nullable(),
});
export type ViewerCard = z.infer<typeof viewerCardSchema>;

/** What the public popout may show of a message: no moderation data, no staff information. */
export const publicChatMessageSchema = chatMessageSchema.pick({
  id: true,
  provider: true,
  author: true,
  text: true,
  emotes: true,
  reply: true,
  sent_at: true,
  highlight: true,
});
export type PublicChatMessage = z.infer<typeof publicChatMessageSchema>;
export const publicChatSocketMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('chat.message'), seq: z.number().int(), data: publicChatMessageSchema }),
  z.object({ type: z.literal('chat.removed'), data: z.object({ ids: z.array(z.string()) }) }),
  z.object({ type: z.literal('pong') }),
]);
/**
 * The last 50 messages that are not deleted, oldest first (display order); `?providers=twitch,kick`
 * filters; `?after=<seq>` returns those stored after that position instead (a reconnect's catch-up,
 * at most 200). `head`: the position of the newest record (null when empty).
 */
export const publicChatQuerySchema = z.object({ providers: z.string().max(200).optional(), after: z.string().max(200).optional() });
export const publicChatHistorySchema = z.object({ records: z.array(publicChatMessageSchema), head: z.string().nullable() });
