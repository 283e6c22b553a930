import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { channels } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Stream widgets (OBS browser sources). The public URL carries a 256-bit token: the table keeps its SHA-256 (the
 * lookup key) and the token sealed with the token cipher (`token_enc`), so Editors can copy the URL again while a
 * database dump alone yields no working URL. Rotating replaces both.
 */
export const widgets = pgTable(
  'widgets',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    name: text('name').notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    tokenHash: text('token_hash').notNull(),
    tokenEnc: text('token_enc').notNull(),
    /** Automatic goals count the channel's activities from this time on. */
    countedSince: ts('counted_since').notNull().defaultNow(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('widgets_token_hash').on(t.tokenHash), index('widgets_channel').on(t.channelId, t.createdAt)],
);
