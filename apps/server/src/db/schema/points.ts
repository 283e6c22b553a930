import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { LedgerKind, PointSettings } from '@greenroom/contracts/api/points';
import { channels } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const channelRef = () =>
  text('channel_id')
    .notNull()
    .references(() => channels.id, { onDelete: 'cascade' });

/** A channel's loyalty settings (a row exists once saved; until then the defaults apply). */
export const pointSettings = pgTable('point_settings', {
  channelId: channelRef().primaryKey(),
  settings: jsonb('settings').$type<PointSettings>().notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * One wallet per viewer per channel. A new platform identity gets its own wallet, whose id is derived
 * from the identity (so creating it is idempotent under races); linking moves identities onto one
 * wallet and the other wallet's points with them (two ledger rows), leaving it empty. The balance
 * changes only by conditional atomic updates written with a ledger row in the same transaction, and
 * can never go negative (the CHECK is the last line of defence).
 */
export const pointWallets = pgTable(
  'point_wallets',
  {
    id: text('id').primaryKey(),
    channelId: channelRef(),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    /** The name shown for the viewer (the identity that created the wallet, or the one linked first). */
    displayName: text('display_name').notNull(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // The leaderboard's order exactly (`ORDER BY balance DESC, id`; DESC sorts nulls first), so its keyset pages and
    // `!top` read the index in order; and ranks (wallets above a balance) count a range of it.
    index('point_wallets_rank').on(t.channelId, t.balance.desc().nullsFirst(), t.id),
    check('point_wallets_balance', sql`${t.balance} >= 0`),
  ],
);

/** A platform identity of a viewer and the wallet it uses. */
export const pointIdentities = pgTable(
  'point_identities',
  {
    channelId: channelRef(),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    walletId: text('wallet_id')
      .notNull()
      .references(() => pointWallets.id, { onDelete: 'cascade' }),
    login: text('login').notNull(),
    displayName: text('display_name').notNull(),
    /** Banned on its platform (from moderation events): the wallet earns nothing while any of its identities is banned. */
    banned: boolean('banned').notNull().default(false),
    linkedAt: ts('linked_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.provider, t.providerUserId] }),
    index('point_identities_wallet').on(t.walletId),
    // Earning skips wallets with a banned identity: a probe into this (small) index per credit.
    index('point_identities_banned')
      .on(t.walletId)
      .where(sql`${t.banned}`),
    // `!points @name`, `!give @name`: by login or display name, case-blind.
    index('point_identities_login').on(t.channelId, sql`lower(${t.login})`),
    index('point_identities_name').on(t.channelId, sql`lower(${t.displayName})`),
  ],
);

/**
 * Every balance change. `idempotency_key` makes a change happen once however often it is delivered
 * (the pipeline effect's id, `watch:<tick>:<identity>`, a staff request's id …). The rows of a
 * wallet sum exactly to its balance.
 */
export const pointLedger = pgTable(
  'point_ledger',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // No foreign key of its own: a row belongs to its channel through its wallet (deleting the channel deletes
    // the wallets and with them their rows), and earning inserts thousands of rows a second, each checked once.
    channelId: text('channel_id').notNull(),
    walletId: text('wallet_id')
      .notNull()
      .references(() => pointWallets.id, { onDelete: 'cascade' }),
    delta: bigint('delta', { mode: 'number' }).notNull(),
    kind: text('kind').$type<LedgerKind>().notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** For people: the other viewer of a gift, the staff member's reason, a game's outcome. */
    note: text('note'),
    /** The staff member who made a change from the dashboard. */
    actorUserId: text('actor_user_id'),
    /** What a re-delivered change answers again (a game's outcome). */
    data: jsonb('data').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('point_ledger_idempotency').on(t.channelId, t.idempotencyKey), index('point_ledger_wallet').on(t.walletId, t.seq)],
);

/**
 * `!link` codes: made by one identity, used by another on a different platform, then confirmed by
 * the first (a code is said in public chat, so using it alone proves nothing).
 */
export const pointLinkCodes = pgTable(
  'point_link_codes',
  {
    channelId: channelRef(),
    code: text('code').notNull(),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    displayName: text('display_name').notNull(),
    expiresAt: ts('expires_at').notNull(),
    /** The identity that used the code, waiting for the confirmation. */
    usedProvider: text('used_provider'),
    usedProviderUserId: text('used_provider_user_id'),
    usedLogin: text('used_login'),
    usedDisplayName: text('used_display_name'),
    usedAt: ts('used_at'),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.code] }), index('point_link_codes_owner').on(t.channelId, t.provider, t.providerUserId)],
);

/** Watch-time payouts: one row per channel per tick, claimed before paying so a tick pays once. */
export const pointWatchTicks = pgTable(
  'point_watch_ticks',
  {
    channelId: channelRef(),
    tickAt: ts('tick_at').notNull(),
    status: text('status').$type<'running' | 'done'>().notNull(),
    claimedBy: text('claimed_by').notNull(),
    viewers: integer('viewers').notNull().default(0),
    claimedAt: createdAt(),
    finishedAt: ts('finished_at'),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.tickAt] })],
);

/** Net points lost at slots and roulette per wallet per stream (negative: won), for the loss cap. */
export const pointGambleLosses = pgTable(
  'point_gamble_losses',
  {
    walletId: text('wallet_id')
      .notNull()
      .references(() => pointWallets.id, { onDelete: 'cascade' }),
    streamKey: text('stream_key').notNull(),
    netLoss: bigint('net_loss', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.walletId, t.streamKey] })],
);
