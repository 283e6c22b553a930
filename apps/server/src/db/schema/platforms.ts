import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { channelProviders } from './core';

/** Platform ban ids kept for unban (YouTube needs the id liveChatBans.insert returned). */
export const platformBans = pgTable(
  'platform_bans',
  {
    channelProviderId: text('channel_provider_id')
      .notNull()
      .references(() => channelProviders.id, { onDelete: 'cascade' }),
    providerViewerId: text('provider_viewer_id').notNull(),
    providerBanId: text('provider_ban_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channelProviderId, t.providerViewerId] })],
);

/**
 * YouTube Data API units spent per project (OAuth client id) per quota day (YYYY-MM-DD, Pacific time), and when
 * YouTube first answered quotaExceeded that day.
 */
export const youtubeQuota = pgTable(
  'youtube_quota',
  {
    project: text('project').notNull(),
    day: text('day').notNull(),
    units: integer('units').notNull().default(0),
    exhaustedAt: timestamp('exhausted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.project, t.day] })],
);
