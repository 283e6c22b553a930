import { jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { channels } from './core';

/** Slots and roulette settings of a channel (a row once saved; the defaults until then). */
export const gameSettings = pgTable(
  'game_settings',
  {
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    game: text('game').$type<'slots' | 'roulette'>().notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.game] })],
);
