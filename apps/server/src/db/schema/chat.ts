import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ChatBadge, ChatEmote, ChatRoles } from '@greenroom/contracts/api/events';
import { channels } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const seq = () => bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const channelRef = () =>
  text('channel_id')
    .notNull()
    .references(() => channels.id, { onDelete: 'cascade' });

/**
 * The chat log. `seq` is the commit order and the history cursor; `id` is the contract id
 * (`${provider}:${provider_message_id}`), unique per channel and platform. The hot table of the
 * ingest pipeline (written in multi-row batches): it keeps only the indexes reads need, and
 * `received_at` (the retention purge) is a BRIN index, which an append-only table maintains for
 * almost nothing.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    seq: seq(),
    id: text('id').notNull(),
    channelId: channelRef(),
    channelProviderId: text('channel_provider_id').notNull(),
    provider: text('provider').notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    authorId: text('author_id').notNull(),
    authorLogin: text('author_login').notNull(),
    authorName: text('author_name').notNull(),
    authorColor: text('author_color'),
    authorAvatarUrl: text('author_avatar_url'),
    authorBadges: jsonb('author_badges').$type<ChatBadge[]>().notNull(),
    authorRoles: jsonb('author_roles').$type<ChatRoles>().notNull(),
    /** Written by Greenroom itself (the connection's bot, or a message sent from Greenroom). */
    authorIsSelf: boolean('author_is_self').notNull().default(false),
    text: text('text').notNull(),
    emotes: jsonb('emotes').$type<ChatEmote[]>().notNull(),
    reply: jsonb('reply').$type<{ provider_message_id: string; author_display_name: string; text: string } | null>(),
    mentions: jsonb('mentions').$type<string[]>().notNull(),
    highlight: text('highlight'),
    sentAt: ts('sent_at').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
    /** Removed by a moderation stage (a spam filter) before anyone saw it: shown to staff as such, never to the public. */
    filterStage: text('filter_stage'),
    filterReason: text('filter_reason'),
  },
  (t) => [
    uniqueIndex('chat_messages_provider_message').on(t.channelId, t.provider, t.providerMessageId),
    index('chat_messages_channel_seq').on(t.channelId, t.seq),
    // History filtered by platform (`?provider=`): one range walk whatever the platform's share of the channel's log
    // (with the channel's index and a filter, a rare platform in a busy log read the whole log for a page).
    index('chat_messages_channel_provider_seq').on(t.channelId, t.provider, t.seq),
    index('chat_messages_author').on(t.channelId, t.provider, t.authorId, t.seq),
    index('chat_messages_received').using('brin', t.receivedAt),
    // History search (`ILIKE '%…%'`): trigrams of the text (pg_trgm), so a search reads the entries of its words, not
    // the channel's whole log; the planner still walks the channel's newest messages for a word found everywhere. New
    // rows go to a pending list of at most 1 MB (merged when full, or by autovacuum): ingest's batch inserts stay
    // cheap, and a search reads little besides the index.
    index('chat_messages_text_trgm').using('gin', t.text.op('gin_trgm_ops')).with({ gin_pending_list_limit: 1024 }),
    // A search for a sparse term takes the trigram index's matches in a range of seq (ANDed with this): it fetches
    // about the rows it returns, not every match of the log. Rows are appended in seq order, so a BRIN index (a few
    // pages for millions of rows, next to nothing per insert) narrows a range of seq to its pages.
    index('chat_messages_seq_brin').using('brin', t.seq),
  ],
);

/** Moderation actions, from Greenroom (source 'greenroom') or seen on the platform ('platform'). */
export const moderationEvents = pgTable(
  'moderation_events',
  {
    seq: seq(),
    id: text('id').notNull(),
    channelId: channelRef(),
    channelProviderId: text('channel_provider_id').notNull(),
    provider: text('provider').notNull(),
    kind: text('kind').$type<'timeout' | 'ban' | 'unban' | 'delete' | 'clear'>().notNull(),
    targetId: text('target_id'),
    targetName: text('target_name'),
    providerMessageId: text('provider_message_id'),
    durationSeconds: integer('duration_seconds'),
    reason: text('reason'),
    /** Who acted: 'user' (moderator_user_id), 'bot', 'system' or 'platform' (a moderator in the platform's own chat). */
    moderatorKind: text('moderator_kind').$type<'user' | 'bot' | 'system' | 'platform'>().notNull().default('user'),
    moderatorUserId: text('moderator_user_id'),
    moderatorName: text('moderator_name'),
    source: text('source').$type<'greenroom' | 'platform'>().notNull(),
    occurredAt: ts('occurred_at').notNull(),
  },
  (t) => [
    uniqueIndex('moderation_events_id').on(t.channelId, t.id),
    index('moderation_events_target').on(t.channelId, t.provider, t.targetId, t.seq),
    index('moderation_events_occurred').on(t.occurredAt),
  ],
);

/** The activity feed: follows, subs, raids … (`provider_event_id` is the platform's dedupe key). */
export const activities = pgTable(
  'activities',
  {
    seq: seq(),
    id: text('id').notNull(),
    channelId: channelRef(),
    channelProviderId: text('channel_provider_id').notNull(),
    provider: text('provider').notNull(),
    providerEventId: text('provider_event_id').notNull(),
    type: text('type').notNull(),
    viewerId: text('viewer_id'),
    viewerLogin: text('viewer_login'),
    viewerName: text('viewer_name'),
    tier: text('tier'),
    months: integer('months'),
    count: integer('count'),
    amount: text('amount'),
    message: text('message'),
    occurredAt: ts('occurred_at').notNull(),
  },
  (t) => [
    uniqueIndex('activities_provider_event').on(t.channelId, t.provider, t.providerEventId),
    uniqueIndex('activities_id').on(t.channelId, t.id),
    index('activities_channel_seq').on(t.channelId, t.seq),
    // The feed's order: newest first by when it happened.
    index('activities_channel_occurred').on(t.channelId, t.occurredAt.desc(), t.seq.desc()),
    // The feed filtered by type (`?types=`): one range walk per type asked for (activity-service.ts merges them).
    index('activities_channel_type_occurred').on(t.channelId, t.type, t.occurredAt.desc(), t.seq.desc()),
  ],
);

/** Every chatter seen in a channel, per platform; counters updated atomically in the sink's batches. */
export const viewers = pgTable(
  'viewers',
  {
    channelId: channelRef(),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    login: text('login').notNull(),
    displayName: text('display_name').notNull(),
    color: text('color'),
    avatarUrl: text('avatar_url'),
    badges: jsonb('badges').$type<ChatBadge[]>().notNull(),
    roles: jsonb('roles').$type<ChatRoles>().notNull(),
    firstSeenAt: ts('first_seen_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    messageCount: integer('message_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.provider, t.providerUserId] })],
);

/**
 * Breaks in a platform connection's chat: the connection dropped and resumed (reason 'platform'), or
 * Greenroom had to give up messages it could not hold while the database refused writes ('lost').
 * Shown as a line in the staff chat; read by chat history beside the messages of the same time.
 */
export const chatGaps = pgTable(
  'chat_gaps',
  {
    seq: seq(),
    id: text('id').notNull().unique(),
    channelId: channelRef(),
    channelProviderId: text('channel_provider_id').notNull(),
    provider: text('provider').notNull(),
    reason: text('reason').$type<'platform' | 'lost'>().notNull(),
    startedAt: ts('started_at').notNull(),
    endedAt: ts('ended_at').notNull(),
    lost: integer('lost').notNull().default(0),
  },
  (t) => [index('chat_gaps_channel_ended').on(t.channelId, t.endedAt)],
);
