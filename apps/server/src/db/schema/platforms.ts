import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
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
