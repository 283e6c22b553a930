import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { channels } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const channelRef = () =>
  text('channel_id')
    .notNull()
    .references(() => channels.id, { onDelete: 'cascade' });

/**
 * Stats rollups, written as chat and events arrive (never computed from the chat log per page load): one row per
 * connection and minute. `messages`, `follows`, `subs` and `moderation` are added by the rollup job from the rows the
 * chat log gained since its cursor; `viewers` is the connection's viewer count sampled in that minute (null: offline
 * or not sampled). Kept after the chat log's retention purge, and after the connection is removed.
 */
export const statsMinutes = pgTable(
  'stats_minutes',
  {
    channelId: channelRef(),
    channelProviderId: text('channel_provider_id').notNull(),
    provider: text('provider').notNull(),
    minute: ts('minute').notNull(),
    messages: integer('messages').notNull().default(0),
    viewers: integer('viewers'),
    follows: integer('follows').notNull().default(0),
    subs: integer('subs').notNull().default(0),
    moderation: integer('moderation').notNull().default(0),
    /** Chatbot commands answered (built-ins and responses), counted when their reply runs. */
    commands: integer('commands').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.channelProviderId, t.minute] }),
    index('stats_minutes_channel_minute').on(t.channelId, t.minute),
  ],
);

/** One live stream of one connection: from the first time it was seen live to the first time it was seen offline. */
export const statsStreams = pgTable(
  'stats_streams',
  {
    id: text('id').primaryKey(),
    channelId: channelRef(),
    channelProviderId: text('channel_provider_id').notNull(),
    provider: text('provider').notNull(),
    startedAt: ts('started_at').notNull(),
    endedAt: ts('ended_at'),
    peakViewers: integer('peak_viewers'),
  },
  (t) => [
    index('stats_streams_channel_started').on(t.channelId, t.startedAt),
    uniqueIndex('stats_streams_open')
      .on(t.channelProviderId)
      .where(sql`${t.endedAt} IS NULL`),
  ],
);

/** How far the rollup job has read each chat-log table (its `seq`); moved in the same transaction as the rollups. */
export const statsCursors = pgTable('stats_cursors', {
  source: text('source').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull().default(0),
});

/**
 * The points economy per channel and minute, from the points ledger (points belong to the channel, not to one
 * platform). All amounts are points, ≥ 0: `earned` (watch time, chat, follows, subs, cheers … ), `spent` (command
 * costs and giveaway tickets, less refunds), `won` / `lost` (slots, roulette), `given` (viewer to viewer), `adjusted`
 * (staff changes, net; may be negative).
 */
export const statsPoints = pgTable(
  'stats_points',
  {
    channelId: channelRef(),
    minute: ts('minute').notNull(),
    earned: bigint('earned', { mode: 'number' }).notNull().default(0),
    spent: bigint('spent', { mode: 'number' }).notNull().default(0),
    won: bigint('won', { mode: 'number' }).notNull().default(0),
    lost: bigint('lost', { mode: 'number' }).notNull().default(0),
    given: bigint('given', { mode: 'number' }).notNull().default(0),
    adjusted: bigint('adjusted', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.minute] })],
);

/**
 * What the points ledger gained, summed per statement by a trigger on `point_ledger` in the writer's own transaction
 * (so a change is counted exactly once, however it commits, and a rolled-back one never). Insert-only, so concurrent
 * ledger writers never wait on each other here; the rollup job moves the rows into `stats_points` (DELETE … RETURNING
 * and the upsert in one transaction), which sees only committed rows.
 */
export const statsPointsInbox = pgTable('stats_points_inbox', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  channelId: text('channel_id').notNull(),
  minute: ts('minute').notNull(),
  earned: bigint('earned', { mode: 'number' }).notNull().default(0),
  spent: bigint('spent', { mode: 'number' }).notNull().default(0),
  won: bigint('won', { mode: 'number' }).notNull().default(0),
  lost: bigint('lost', { mode: 'number' }).notNull().default(0),
  given: bigint('given', { mode: 'number' }).notNull().default(0),
  adjusted: bigint('adjusted', { mode: 'number' }).notNull().default(0),
});

/** Uses per chatbot command per day (UTC): the most used commands of a date range. */
export const statsCommands = pgTable(
  'stats_commands',
  {
    channelId: channelRef(),
    day: date('day', { mode: 'string' }).notNull(),
    commandId: text('command_id').notNull(),
    uses: integer('uses').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.day, t.commandId] })],
);

/**
 * `stats_minutes` per connection and hour, for the series of long ranges (buckets of an hour or more): recomputed
 * from the hour's minute rows in the transaction that wrote them (so it always equals their sums, viewer samples
 * overwritten included). `viewer_sum` / `viewer_minutes` / `viewer_peak`: sum, count and max of the minutes' samples.
 */
export const statsHours = pgTable(
  'stats_hours',
  {
    channelId: channelRef(),
    channelProviderId: text('channel_provider_id').notNull(),
    provider: text('provider').notNull(),
    hour: ts('hour').notNull(),
    messages: integer('messages').notNull().default(0),
    follows: integer('follows').notNull().default(0),
    subs: integer('subs').notNull().default(0),
    moderation: integer('moderation').notNull().default(0),
    commands: integer('commands').notNull().default(0),
    viewerSum: bigint('viewer_sum', { mode: 'number' }).notNull().default(0),
    viewerMinutes: integer('viewer_minutes').notNull().default(0),
    viewerPeak: integer('viewer_peak'),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.channelProviderId, t.hour] }), index('stats_hours_channel_hour').on(t.channelId, t.hour)],
);

/**
 * The channel per hour (all platforms together): its viewers per minute summed over platforms (sum, minutes with a
 * sample, peak — recomputed from the minute rows when the sampler writes), and the points economy of `stats_points`
 * (added as the inbox is moved, in the same statement).
 */
export const statsChannelHours = pgTable(
  'stats_channel_hours',
  {
    channelId: channelRef(),
    hour: ts('hour').notNull(),
    viewerSum: bigint('viewer_sum', { mode: 'number' }).notNull().default(0),
    viewerMinutes: integer('viewer_minutes').notNull().default(0),
    viewerPeak: integer('viewer_peak'),
    earned: bigint('earned', { mode: 'number' }).notNull().default(0),
    spent: bigint('spent', { mode: 'number' }).notNull().default(0),
    won: bigint('won', { mode: 'number' }).notNull().default(0),
    lost: bigint('lost', { mode: 'number' }).notNull().default(0),
    given: bigint('given', { mode: 'number' }).notNull().default(0),
    adjusted: bigint('adjusted', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.hour] })],
);

/**
 * Messages per chatter per UTC month, day by day and cumulative: `days[d]` is the chatter's messages from the 1st to
 * day d of the month (31 entries; past the month's end they repeat its total). A range of days within a month is
 * `days[last] - days[first - 1]`: one row per chatter and month, so unique and top chatters of a day read one row per
 * chatter of the month and 30 days at most two (instead of thirty per-day rows: `stats_chatters`, dropped in 0021).
 * `author_name`: the last name seen in the month.
 */
export const statsChatterMonths = pgTable(
  'stats_chatter_months',
  {
    channelId: channelRef(),
    month: date('month', { mode: 'string' }).notNull(),
    provider: text('provider').notNull(),
    authorId: text('author_id').notNull(),
    authorName: text('author_name').notNull(),
    days: integer('days').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.month, t.provider, t.authorId] })],
);
