import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { channels, users } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Invitations to a channel's staff. The invitation id is a 256-bit random secret (the link
 * `/channel-invite/{id}`): only its SHA-256 is used to find the row, and the id itself is kept
 * AES-GCM encrypted (`id_enc`) so Admins can copy the link again while it is pending. `id_enc` is
 * wiped as soon as the invitation is used or revoked.
 */
export const channelUserInvites = pgTable(
  'channel_user_invites',
  {
    idHash: text('id_hash').primaryKey(),
    idEnc: text('id_enc'),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedBy: text('used_by').references(() => users.id, { onDelete: 'set null' }),
    usedAt: ts('used_at'),
    revokedAt: ts('revoked_at'),
    revokedBy: text('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('channel_user_invites_channel').on(t.channelId, t.createdAt)],
);
