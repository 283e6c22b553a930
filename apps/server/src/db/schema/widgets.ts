import { customType, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { channels } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** Binary content (PGlite reads it as a Uint8Array, node-postgres as a Buffer: both become a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

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

/**
 * Alerts that are not platform activities (tests from the editor, replays from the activity feed), kept a few
 * minutes so a widget page that reconnects — after a network drop or a server restart, on any instance — gets
 * the ones it missed. Platform activities are durable in `activities` already; both are read together.
 */
export const widgetAlerts = pgTable(
  'widget_alerts',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    /** The widget event as pages receive it. */
    event: jsonb('event').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('widget_alerts_channel_created').on(t.channelId, t.createdAt)],
);

/**
 * Images, GIFs and sounds uploaded for alerts, stored in the database so every instance serves them and an embedded
 * install needs nothing else. `sha256` is the content hash: the public URL, the ETag, one copy per channel.
 */
export const widgetMedia = pgTable(
  'widget_media',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull(),
    /** 'image' or 'sound'. */
    kind: text('kind').notNull(),
    /** Detected from the content, never from the name. */
    contentType: text('content_type').notNull(),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('widget_media_channel_hash').on(t.channelId, t.sha256), index('widget_media_hash').on(t.sha256)],
);
