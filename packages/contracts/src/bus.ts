/**
 * Every event the server's bus carries, as one versioned discriminated union. In-process today; a
 * Redis implementation will carry the same events between instances, serialised as a
 * `BusEnvelope` (checked with `busEnvelopeSchema` on the receiving side).
 *
 * Adding an event type is a one-place change: add its schema to `busEventSchemas` below (a
 * `type` literal and a `data` payload). Publishers and subscribers get its type from `BusEvent`;
 * subscribers narrow with `event.type`. Changing the shape of an existing event in a way an older
 * instance could not read means raising `BUS_EVENTS_VERSION`.
 *
 * Topics: `channel:<channelId>` (a channel's chat, activity, platforms and staff access) and
 * `user:<userId>` (a user's sessions and account).
 */
import { z } from 'zod';
import { providerUpdateMessageSchema } from './api/channel-providers';
import {
  activityEventSchema,
  activitySchema,
  chatGapEventSchema,
  chatIngestStatusEventSchema,
  chatMessageEventSchema,
  chatModerationEventSchema,
  streamStatusEventSchema,
} from './api/events';
import { giveawayUpdatedEventSchema } from './api/giveaways';
import { queueDeletedEventSchema, queueUpdatedEventSchema } from './api/queues';
import { songRequestEventSchema, spotifyNowPlayingEventSchema } from './api/spotify';

export const BUS_EVENTS_VERSION = 1;

export const busEventSchemas = [
  // Chat log and live chat (channel topic).
  chatMessageEventSchema,
  chatModerationEventSchema,
  activityEventSchema,
  streamStatusEventSchema,
  chatGapEventSchema,
  chatIngestStatusEventSchema,
  /** A stored activity sent again to widgets. */
  z.object({ type: z.literal('activity.replay'), data: activitySchema }),
  /** A sample activity from a widget editor's "Send test event" (widgets only; never stored or counted). */
  z.object({ type: z.literal('widget.test'), data: activitySchema }),
  /** A platform connection was added, changed (health, live status) or removed (providers websocket). */
  z.object({ type: z.literal('provider.update'), data: providerUpdateMessageSchema }),
  // Loyalty: a giveaway or a queue changed (their pages, the giveaway popout).
  giveawayUpdatedEventSchema,
  queueUpdatedEventSchema,
  queueDeletedEventSchema,
  /** What the channel's Spotify plays changed (the now-playing widget; polled while a platform is live). */
  spotifyNowPlayingEventSchema,
  /** A song request was made or changed state (the request queue page). */
  songRequestEventSchema,
  // Access (sockets close when it is lost).
  /** A member's level in the channel changed; `level` null: removed (or left). */
  z.object({
    type: z.literal('access.changed'),
    data: z.object({ channel_id: z.string(), user_id: z.string(), level: z.number().int().nullable() }),
  }),
  /** The channel was deleted. */
  z.object({ type: z.literal('channel.deleted'), data: z.object({ channel_id: z.string() }) }),
  /** A session ended (sign-out, expiry, revoked); user topic. */
  z.object({ type: z.literal('session.ended'), data: z.object({ user_id: z.string(), session_id: z.string() }) }),
  /** The account was deleted; user topic. */
  z.object({ type: z.literal('user.deleted'), data: z.object({ user_id: z.string() }) }),
] as const;

export const busEventSchema = z.discriminatedUnion('type', busEventSchemas);
export type BusEvent = z.infer<typeof busEventSchema>;
export type BusEventType = BusEvent['type'];
export type BusEventOf<T extends BusEventType> = Extract<BusEvent, { type: T }>;

export type BusTopic = `channel:${string}` | `user:${string}`;
export const channelTopic = (channelId: string): BusTopic => `channel:${channelId}`;
export const userTopic = (userId: string): BusTopic => `user:${userId}`;

/** What crosses between instances: the version, the topic and the event. */
export const busEnvelopeSchema = z.object({
  v: z.literal(BUS_EVENTS_VERSION),
  topic: z.string().regex(/^(channel|user):.+$/),
  event: busEventSchema,
});
export type BusEnvelope = z.infer<typeof busEnvelopeSchema>;

export function encodeBusEnvelope(topic: BusTopic, event: BusEvent): string {
  return JSON.stringify({ v: BUS_EVENTS_VERSION, topic, event } satisfies BusEnvelope);
}

/** Parses an envelope from another instance; null for another version or a malformed one (the caller logs and counts it). */
export function decodeBusEnvelope(raw: string): { topic: BusTopic; event: BusEvent } | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = busEnvelopeSchema.safeParse(json);
  return parsed.success ? { topic: parsed.data.topic as BusTopic, event: parsed.data.event } : null;
}
