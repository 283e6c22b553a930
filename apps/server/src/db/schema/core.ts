import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  displayName: text('display_name').notNull(),
  avatarUrl: text('avatar_url'),
  isOperator: boolean('is_operator').notNull().default(false),
  createdAt: createdAt(),
});

/** Encrypted OAuth credentials, shared shape of user, channel, bot and system-bot connections. */
const tokenColumns = () => ({
  accessTokenEnc: text('access_token_enc'),
  refreshTokenEnc: text('refresh_token_enc'),
  tokenExpiresAt: ts('token_expires_at'),
  scopes: text('scopes')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  scopeNeeded: boolean('scope_needed').notNull().default(false),
});

export const userProviders = pgTable(
  'user_providers',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    login: text('login').notNull(),
    displayName: text('display_name').notNull(),
    ...tokenColumns(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_providers_identity').on(t.provider, t.providerUserId), index('user_providers_user').on(t.userId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    /** No foreign key: a deleted user's sessions stay (revoked) so the browser hears `user_no_longer_exists`. */
    userId: text('user_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('sessions_token_hash').on(t.tokenHash), index('sessions_user').on(t.userId)],
);

export const userSettings = pgTable('user_settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Pending OAuth flows: `state` is bound to the browser by a signed cookie holding the same value. */
export const oauthStates = pgTable('oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  purpose: text('purpose').$type<'signin' | 'link' | 'channel' | 'channel_bot' | 'system_bot'>().notNull(),
  provider: text('provider').notNull(),
  codeVerifier: text('code_verifier'),
  redirectTo: text('redirect_to').notNull(),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  channelId: text('channel_id'),
  createdAt: createdAt(),
  expiresAt: ts('expires_at').notNull(),
});

export const channels = pgTable(
  'channels',
  {
    id: text('id').primaryKey(),
    displayName: text('display_name').notNull(),
    /** The Owner lets Editors post in chat as the broadcaster's own account (Admins and the Owner always may). */
    editorsPostAsStreamer: boolean('editors_post_as_streamer').notNull().default(false),
    createdAt: createdAt(),
  },
  // Name search (`ILIKE '%…%'`, case-insensitive) through trigrams (pg_trgm), whatever the number of channels. No
  // pending list (fastupdate): it is merged only by VACUUM, which PGlite never runs, and every search reads it whole.
  (t) => [index('channels_display_name_trgm').using('gin', t.displayName.op('gin_trgm_ops')).with({ fastupdate: false })],
);

export const channelUsers = pgTable(
  'channel_users',
  {
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
    addedBy: text('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /**
     * `lower(channels.display_name)`, kept by database triggers (on insert here, on rename of the channel): a user's
     * channel list is ordered by name, and this copy lets one index walk it in that order from any position.
     */
    sortName: text('sort_name').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.userId] }), index('channel_users_user_name').on(t.userId, t.sortName, t.channelId)],
);

export const channelProviders = pgTable(
  'channel_providers',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerChannelId: text('provider_channel_id').notNull(),
    providerChannelName: text('provider_channel_name').notNull(),
    liveStreamId: text('live_stream_id'),
    isLive: boolean('is_live').notNull().default(false),
    viewerCount: integer('viewer_count'),
    ...tokenColumns(),
    /** The channel's own bot account for this platform (ownBot). */
    botProviderUserId: text('bot_provider_user_id'),
    botDisplayName: text('bot_display_name'),
    botAccessTokenEnc: text('bot_access_token_enc'),
    botRefreshTokenEnc: text('bot_refresh_token_enc'),
    botTokenExpiresAt: ts('bot_token_expires_at'),
    botScopes: text('bot_scopes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    botScopeNeeded: boolean('bot_scope_needed').notNull().default(false),
    /** Platform-specific state (e.g. YouTube live chat id and page token, Kick subscription ids). */
    state: jsonb('state').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('channel_providers_channel_provider').on(t.channelId, t.provider),
    index('channel_providers_identity').on(t.provider, t.providerChannelId),
    // The public watch page finds a channel by platform and channel name, in any case.
    index('channel_providers_name').on(t.provider, sql`lower(${t.providerChannelName})`),
  ],
);

export const systemBots = pgTable('system_bots', {
  provider: text('provider').primaryKey(),
  providerUserId: text('provider_user_id').notNull(),
  displayName: text('display_name').notNull(),
  ...tokenColumns(),
  createdAt: createdAt(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    actorUserId: text('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** 'user' (actor_user_id, null once their account is gone), 'bot' (the channel's bot) or 'system' (Greenroom itself). */
    actorKind: text('actor_kind').$type<'user' | 'bot' | 'system'>().notNull().default('user'),
    action: text('action').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_channel').on(t.channelId, t.id),
    // The audit log filtered by who acted, newest first.
    index('audit_log_actor').on(t.channelId, t.actorUserId, t.id),
  ],
);
