import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { channels } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();
const channelRef = () =>
  text('channel_id')
    .notNull()
    .references(() => channels.id, { onDelete: 'cascade' });
const textArray = (name: string) =>
  text(name)
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);

/** Chat commands of a channel. Names and aliases are unique per channel (checked under the channel's row lock). */
export const chatCommands = pgTable(
  'chat_commands',
  {
    id: text('id').primaryKey(),
    channelId: channelRef(),
    name: text('name').notNull(),
    aliases: textArray('aliases'),
    /** A built-in handler's key (`addcom`, `quote` …); null for commands answering with their responses. */
    builtin: text('builtin'),
    responses: jsonb('responses').$type<string[]>().notNull(),
    responseMode: text('response_mode').$type<'random' | 'in_turn'>().notNull().default('random'),
    level: integer('level').notNull().default(0),
    globalCooldownSeconds: integer('global_cooldown_seconds').notNull().default(0),
    userCooldownSeconds: integer('user_cooldown_seconds').notNull().default(0),
    platforms: textArray('platforms'),
    replyMode: text('reply_mode').$type<'say' | 'mention' | 'reply'>().notNull().default('say'),
    enabled: boolean('enabled').notNull().default(true),
    /** Uses so far; `$(count)` renders it (incremented atomically per use). */
    useCount: bigint('use_count', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('chat_commands_channel_name').on(t.channelId, t.name)],
);

/** Timers: messages posted every interval when chat was active enough. `next_run_at` is the claim (fires once). */
export const chatTimers = pgTable(
  'chat_timers',
  {
    id: text('id').primaryKey(),
    channelId: channelRef(),
    name: text('name').notNull(),
    messages: jsonb('messages').$type<string[]>().notNull(),
    intervalMinutes: integer('interval_minutes').notNull(),
    minLines: integer('min_lines').notNull().default(0),
    onlineOnly: boolean('online_only').notNull().default(true),
    platforms: textArray('platforms'),
    enabled: boolean('enabled').notNull().default(true),
    /** The message posted next (in turn). */
    nextIndex: integer('next_index').notNull().default(0),
    nextRunAt: ts('next_run_at'),
    lastRunAt: ts('last_run_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('chat_timers_due').on(t.nextRunAt), index('chat_timers_channel').on(t.channelId)],
);

/** Spam filters of a channel, checked in `position` order. */
export const chatFilters = pgTable(
  'chat_filters',
  {
    id: text('id').primaryKey(),
    channelId: channelRef(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    exemptLevel: integer('exempt_level').notNull(),
    action: text('action').$type<'delete' | 'timeout' | 'ban'>().notNull(),
    durationSeconds: integer('duration_seconds').notNull(),
    warnFirst: boolean('warn_first').notNull(),
    message: text('message').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('chat_filters_channel').on(t.channelId, t.position)],
);

/** What the filters did and why (kept with the chat log's retention). */
export const chatFilterLog = pgTable(
  'chat_filter_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channelId: channelRef(),
    /** The pipeline effect that wrote it: a retried effect never logs twice. */
    effectId: text('effect_id'),
    filterId: text('filter_id'),
    filterName: text('filter_name').notNull(),
    filterType: text('filter_type').notNull(),
    provider: text('provider').notNull(),
    channelProviderId: text('channel_provider_id').notNull(),
    viewerId: text('viewer_id').notNull(),
    viewerName: text('viewer_name').notNull(),
    messageText: text('message_text').notNull(),
    reason: text('reason').notNull(),
    requested: text('requested').notNull(),
    action: text('action'),
    durationSeconds: integer('duration_seconds'),
    note: text('note'),
    ok: boolean('ok').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_filter_log_channel').on(t.channelId, t.id),
    index('chat_filter_log_created').on(t.createdAt),
    uniqueIndex('chat_filter_log_effect').on(t.effectId),
  ],
);

/** Quotes, numbered per channel from `chatbot_channels.next_quote_number`. */
export const quotes = pgTable(
  'quotes',
  {
    id: text('id').primaryKey(),
    channelId: channelRef(),
    number: integer('number').notNull(),
    text: text('text').notNull(),
    addedBy: text('added_by').notNull(),
    addedOnProvider: text('added_on_provider'),
    game: text('game'),
    quotedOn: date('quoted_on', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('quotes_channel_number').on(t.channelId, t.number)],
);

/** Per-channel chatbot counters. */
export const chatbotChannels = pgTable('chatbot_channels', {
  channelId: text('channel_id')
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  nextQuoteNumber: integer('next_quote_number').notNull().default(1),
});

/** Operators' command templates: enabled ones are added to new channels; any can be added from the gallery. */
export const commandTemplates = pgTable('command_templates', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  aliases: textArray('aliases'),
  description: text('description').notNull().default(''),
  responses: jsonb('responses').$type<string[]>().notNull(),
  responseMode: text('response_mode').$type<'random' | 'in_turn'>().notNull().default('random'),
  level: integer('level').notNull().default(0),
  globalCooldownSeconds: integer('global_cooldown_seconds').notNull().default(0),
  userCooldownSeconds: integer('user_cooldown_seconds').notNull().default(0),
  replyMode: text('reply_mode').$type<'say' | 'mention' | 'reply'>().notNull().default('say'),
  enabled: boolean('enabled').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * What a chatbot reply effect did, keyed by the effect: written in the same transaction (or statement) as the
 * reply's side effect (a quote added, `$(count)` moved, a command added from chat …). A retried effect finds it,
 * skips the side effect and sends the stored reply. `rendered` false: only the count is taken (the response is
 * rendered again from it). Kept two days (retries end within minutes).
 */
export const chatbotReplyOutcomes = pgTable(
  'chatbot_reply_outcomes',
  {
    effectId: text('effect_id').primaryKey(),
    channelId: channelRef(),
    /** The command's use count this reply took (`$(count)`). */
    count: bigint('count', { mode: 'number' }),
    /** The reply to send; null with `rendered`: say nothing. */
    reply: text('reply'),
    rendered: boolean('rendered').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('chatbot_reply_outcomes_created').on(t.createdAt)],
);

/**
 * Versions of a channel's whole chatbot configuration (commands, timers, filters, quotes), one after every change
 * that altered it (`digest` of the document: a save that changed nothing adds none); the newest 50 are kept.
 */
export const chatbotConfigVersions = pgTable(
  'chatbot_config_versions',
  {
    id: text('id').primaryKey(),
    channelId: channelRef(),
    number: integer('number').notNull(),
    document: jsonb('document').$type<Record<string, unknown>>().notNull(),
    digest: text('digest').notNull(),
    counts: jsonb('counts').$type<{ commands: number; timers: number; filters: number; quotes: number }>().notNull(),
    reason: text('reason').notNull(),
    actorUserId: text('actor_user_id'),
    actorName: text('actor_name'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('chatbot_config_versions_number').on(t.channelId, t.number)],
);
