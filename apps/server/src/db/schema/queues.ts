import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { QueueStatus } from '@greenroom/contracts/api/queues';
import { channels } from './core';
import { pointWallets } from './points';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Viewer queues. Every change to a queue's line locks the queue row first, so positions stay 1…n. */
export const queues = pgTable(
  'queues',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').$type<QueueStatus>().notNull().default('closed'),
    maxSize: integer('max_size').notNull().default(0),
    autoClose: boolean('auto_close').notNull().default(false),
    joinCooldownSeconds: integer('join_cooldown_seconds').notNull().default(0),
    subPriority: boolean('sub_priority').notNull().default(false),
    size: integer('size').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('queues_channel').on(t.channelId, t.id),
    // Chat commands use the one queue that is open or paused.
    uniqueIndex('queues_one_active')
      .on(t.channelId)
      .where(sql`${t.status} <> 'closed'`),
  ],
);

/** A viewer (wallet) in a queue: waiting with a position, or gone (picked, left, removed) with when. */
export const queueEntries = pgTable(
  'queue_entries',
  {
    id: text('id').primaryKey(),
    queueId: text('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    walletId: text('wallet_id')
      .notNull()
      .references(() => pointWallets.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    displayName: text('display_name').notNull(),
    priority: boolean('priority').notNull().default(false),
    status: text('status').$type<'waiting' | 'picked' | 'left' | 'removed'>().notNull(),
    /** 1 = next; null once gone. */
    position: integer('position'),
    joinedAt: ts('joined_at').notNull().defaultNow(),
    endedAt: ts('ended_at'),
  },
  (t) => [
    uniqueIndex('queue_entries_waiting')
      .on(t.queueId, t.walletId)
      .where(sql`${t.status} = 'waiting'`),
    index('queue_entries_line').on(t.queueId, t.status, t.position),
    index('queue_entries_wallet').on(t.queueId, t.walletId, t.endedAt),
    // The recently picked (newest first, `ORDER BY ended_at DESC`) read in order, however long the queue's history.
    index('queue_entries_picked')
      .on(t.queueId, t.endedAt.desc().nullsFirst())
      .where(sql`${t.status} = 'picked'`),
  ],
);
