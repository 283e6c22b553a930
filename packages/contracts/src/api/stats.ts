import { z } from 'zod';
import { channelProviderIdSchema } from '../providers';

/** The longest date range the stats page asks for at once. */
export const STATS_MAX_RANGE_DAYS = 93;

/** A date range of the stats page: `from` (inclusive) to `to` (exclusive), ISO date-times. */
export const statsQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true, message: 'A date-time like 2026-01-31T00:00:00Z' }),
    to: z.iso.datetime({ offset: true, message: 'A date-time like 2026-01-31T00:00:00Z' }),
  })
  .refine((q) => Date.parse(q.to) > Date.parse(q.from), { message: 'The range must end after it starts', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= STATS_MAX_RANGE_DAYS * 86_400_000, {
    message: `The range can be at most ${STATS_MAX_RANGE_DAYS} days`,
    path: ['to'],
  });
export type StatsQuery = z.infer<typeof statsQuerySchema>;

/** One connection in one time bucket. */
export const statsPointSchema = z.object({
  at: z.string(),
  channel_provider_id: z.string(),
  provider: channelProviderIdSchema,
  /** Average of the viewer counts sampled in the bucket; null when the stream was offline. */
  viewers: z.number().nullable(),
  messages: z.number().int(),
  follows: z.number().int(),
  subs: z.number().int(),
  moderation: z.number().int(),
  /** Chatbot commands answered. */
  commands: z.number().int(),
});
export type StatsPoint = z.infer<typeof statsPointSchema>;

/** Totals of a range, for the channel or for one connection. */
export const statsTotalsSchema = z.object({
  messages: z.number().int(),
  follows: z.number().int(),
  subs: z.number().int(),
  moderation: z.number().int(),
  commands: z.number().int(),
  peak_viewers: z.number().int().nullable(),
  average_viewers: z.number().nullable(),
  /** Minutes with a viewer sample (the stream was live). */
  minutes_live: z.number().int(),
});
export type StatsTotals = z.infer<typeof statsTotalsSchema>;

export const statsStreamSchema = z.object({
  id: z.string(),
  channel_provider_id: z.string(),
  provider: channelProviderIdSchema,
  started_at: z.string(),
  /** Null while it is live. */
  ended_at: z.string().nullable(),
  peak_viewers: z.number().int().nullable(),
});
export type StatsStream = z.infer<typeof statsStreamSchema>;

/** The points economy of one time bucket or of a whole range (channel-wide: points are not per platform). */
export const statsPointsSchema = z.object({
  /** Earned by watching, chatting, following, subscribing, cheering … */
  earned: z.number().int(),
  /** Paid for commands and giveaway tickets, less refunds. */
  spent: z.number().int(),
  /** Won and lost at the games (slots, roulette). */
  won: z.number().int(),
  lost: z.number().int(),
  /** Given by viewers to other viewers. */
  given: z.number().int(),
  /** Added or removed by staff (net). */
  adjusted: z.number().int(),
});
export type StatsPoints = z.infer<typeof statsPointsSchema>;

export const statsSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Width of a point of `series` (60 s up to 6 hours, wider for longer ranges). */
  bucket_seconds: z.number().int(),
  series: z.array(statsPointSchema),
  totals: statsTotalsSchema.extend({
    /** Distinct chatters over the whole days (UTC) the range touches. */
    unique_chatters: z.number().int(),
  }),
  platforms: z.array(statsTotalsSchema.extend({ channel_provider_id: z.string(), provider: channelProviderIdSchema })),
  top_chatters: z.array(
    z.object({ provider: channelProviderIdSchema, provider_user_id: z.string(), display_name: z.string(), messages: z.number().int() }),
  ),
  streams: z.array(statsStreamSchema),
  /** The points economy per bucket (buckets without points changes left out) and for the whole range. */
  points_series: z.array(statsPointsSchema.extend({ at: z.string() })),
  points_totals: statsPointsSchema,
  /** The most used commands (over the whole days, UTC, the range touches); `name` null: the command was deleted. */
  top_commands: z.array(z.object({ command_id: z.string(), name: z.string().nullable(), uses: z.number().int() })),
});
export type StatsDto = z.infer<typeof statsSchema>;

/** The dashboard's live figures: streams in progress (uptime) and chat messages per minute of the last 30 minutes. */
export const liveStatsSchema = z.object({
  streams: z.array(statsStreamSchema),
  /** One point per minute, oldest first, every platform together (minutes without chat are 0). */
  messages_per_minute: z.array(z.object({ at: z.string(), messages: z.number().int() })),
});
export type LiveStatsDto = z.infer<typeof liveStatsSchema>;
