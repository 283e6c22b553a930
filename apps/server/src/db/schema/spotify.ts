import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { BlockedTrack, SongRequestStatus, SpotifyTrackDto } from '@greenroom/contracts/api/spotify';
import { channels } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A channel's song request rules (no row: the defaults, requests off). */
export const songRequestSettings = pgTable('song_request_settings', {
  channelId: text('channel_id')
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  level: integer('level').notNull().default(0),
  cost: bigint('cost', { mode: 'number' }).notNull().default(0),
  maxDurationSeconds: integer('max_duration_seconds').notNull().default(600),
  maxPerUser: integer('max_per_user').notNull().default(2),
  blocked: jsonb('blocked').$type<BlockedTrack[]>().notNull().default([]),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * A song request accepted from chat. `effect_key` is the chat command's effect id: a retried effect finds its row
 * instead of paying twice. The payment and its refund are ledger rows written in the same transactions as the
 * status changes (`wallet_id` null: nothing was paid).
 */
export const songRequests = pgTable(
  'song_requests',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    effectKey: text('effect_key').notNull(),
    walletId: text('wallet_id'),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    displayName: text('display_name').notNull(),
    trackId: text('track_id').notNull(),
    track: jsonb('track').$type<SpotifyTrackDto>().notNull(),
    cost: bigint('cost', { mode: 'number' }).notNull().default(0),
    status: text('status').$type<SongRequestStatus>().notNull(),
    reason: text('reason'),
    /** Removed while in Spotify's queue: Spotify cannot take it out, so it is skipped when it starts playing. */
    skipWhenPlaying: boolean('skip_when_playing').notNull().default(false),
    requestedAt: ts('requested_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('song_requests_effect').on(t.channelId, t.effectKey),
    index('song_requests_channel').on(t.channelId, t.requestedAt, t.id),
    index('song_requests_viewer').on(t.channelId, t.provider, t.providerUserId, t.status),
  ],
);
