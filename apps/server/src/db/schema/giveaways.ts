import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { GiveawayEntryMode, GiveawayStatus, WinnerMessage, WinnerStatus } from '@greenroom/contracts/api/giveaways';
import { channels } from './core';
import { pointWallets } from './points';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Giveaways. Entering updates the row's counters with `WHERE status = 'open'` in the entry's
 * transaction, and cancelling flips the status in the refund's transaction, so an entry is either
 * refunded or not accepted — never paid for and lost.
 */
export const giveaways = pgTable(
  'giveaways',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    entryMode: text('entry_mode').$type<GiveawayEntryMode>().notNull(),
    keyword: text('keyword').notNull(),
    ticketCost: bigint('ticket_cost', { mode: 'number' }).notNull(),
    maxTickets: integer('max_tickets').notNull(),
    minLevel: integer('min_level').notNull(),
    platforms: text('platforms')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    subLuck: doublePrecision('sub_luck').notNull(),
    winners: integer('winners').notNull(),
    durationSeconds: integer('duration_seconds').notNull(),
    claimSeconds: integer('claim_seconds').notNull(),
    status: text('status').$type<GiveawayStatus>().notNull(),
    entryCount: integer('entry_count').notNull().default(0),
    ticketCount: integer('ticket_count').notNull().default(0),
    openedAt: ts('opened_at'),
    closesAt: ts('closes_at'),
    closedAt: ts('closed_at'),
    drawnAt: ts('drawn_at'),
    createdBy: text('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('giveaways_channel').on(t.channelId, t.id),
    index('giveaways_closes').on(t.status, t.closesAt),
    // One giveaway takes entries in a channel at a time (its keyword is the one chat uses).
    uniqueIndex('giveaways_one_open')
      .on(t.channelId)
      .where(sql`${t.status} = 'open'`),
  ],
);

/** One entry per viewer (wallet) per giveaway, whichever platform they entered from. */
export const giveawayEntries = pgTable(
  'giveaway_entries',
  {
    giveawayId: text('giveaway_id')
      .notNull()
      .references(() => giveaways.id, { onDelete: 'cascade' }),
    walletId: text('wallet_id')
      .notNull()
      .references(() => pointWallets.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    displayName: text('display_name').notNull(),
    tickets: integer('tickets').notNull(),
    /** Points paid for the tickets (refunded on cancel). */
    paid: bigint('paid', { mode: 'number' }).notNull().default(0),
    subscriber: boolean('subscriber').notNull(),
    enteredAt: ts('entered_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.giveawayId, t.walletId] }),
    // The entries list's order exactly (most tickets first, then earliest, then wallet): keyset pages read it in order.
    index('giveaway_entries_order').on(t.giveawayId, t.tickets.desc().nullsFirst(), t.enteredAt, t.walletId),
  ],
);

export const giveawayWinners = pgTable(
  'giveaway_winners',
  {
    id: text('id').primaryKey(),
    giveawayId: text('giveaway_id')
      .notNull()
      .references(() => giveaways.id, { onDelete: 'cascade' }),
    place: integer('place').notNull(),
    walletId: text('wallet_id')
      .notNull()
      .references(() => pointWallets.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    displayName: text('display_name').notNull(),
    tickets: integer('tickets').notNull(),
    status: text('status').$type<WinnerStatus>().notNull(),
    drawnAt: ts('drawn_at').notNull().defaultNow(),
    claimDeadline: ts('claim_deadline'),
    claimedAt: ts('claimed_at'),
    messages: jsonb('messages').$type<WinnerMessage[]>().notNull().default([]),
  },
  (t) => [index('giveaway_winners_giveaway').on(t.giveawayId, t.id), index('giveaway_winners_claim').on(t.status, t.claimDeadline)],
);
