import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { channels } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const channelRef = () =>
  text('channel_id')
    .notNull()
    .references(() => channels.id, { onDelete: 'cascade' });

/** A channel's Discord go-live announcements: the webhook (its token encrypted: it lets anyone post), template, role. */
export const discordAnnouncements = pgTable('discord_announcements', {
  channelId: channelRef().primaryKey(),
  webhookId: text('webhook_id').notNull(),
  webhookTokenEnc: text('webhook_token_enc').notNull(),
  template: text('template').notNull(),
  roleId: text('role_id'),
  enabled: boolean('enabled').notNull().default(true),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * One go-live announcement per stream of the channel (a stream: from the first platform live to every platform
 * offline for two minutes). The row is claimed (`sending`, one open row per channel) before the post, and the
 * message id stored after, so a restart never posts a stream twice; a post interrupted mid-request is not retried
 * (Discord may have taken it). `offline_since`: every platform was seen offline from then on.
 */
export const discordPosts = pgTable(
  'discord_posts',
  {
    id: text('id').primaryKey(),
    channelId: channelRef(),
    state: text('state').$type<'sending' | 'posted' | 'failed' | 'interrupted' | 'ended'>().notNull(),
    messageId: text('message_id'),
    /** The webhook the message was posted with (an edit goes to the same one). */
    webhookId: text('webhook_id').notNull(),
    startedAt: ts('started_at').notNull(),
    endedAt: ts('ended_at'),
    offlineSince: ts('offline_since'),
    /** What was announced (the ended edit repeats it). */
    content: jsonb('content').$type<{ content: string; embed: Record<string, unknown> }>(),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('discord_posts_open')
      .on(t.channelId)
      .where(sql`${t.endedAt} IS NULL`),
    index('discord_posts_channel_started').on(t.channelId, t.startedAt),
  ],
);
