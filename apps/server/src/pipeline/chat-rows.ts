/**
 * The chat log's rows ⇄ the contract shapes, in one place: chat messages, moderation events,
 * activities and gaps. `…Record` builds what the pipeline's writer sends to the database (a flat
 * object keyed by column name, read there with `json_to_recordset`); `…FromRow` maps a selected row
 * back (history, viewer cards, the activity feed).
 */
import type { Activity, ActivityType, ChatGap, ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { activities, chatGaps, chatMessages, moderationEvents } from '../db/schema';

// ── chat messages ──────────────────────────────────────────────────────────

/** The columns of `chat_messages` the writer fills, with their SQL types (for `json_to_recordset`). */
export const messageColumns = [
  ['id', 'text'],
  ['channel_id', 'text'],
  ['channel_provider_id', 'text'],
  ['provider', 'text'],
  ['provider_message_id', 'text'],
  ['author_id', 'text'],
  ['author_login', 'text'],
  ['author_name', 'text'],
  ['author_color', 'text'],
  ['author_avatar_url', 'text'],
  ['author_badges', 'jsonb'],
  ['author_roles', 'jsonb'],
  ['author_is_self', 'boolean'],
  ['text', 'text'],
  ['emotes', 'jsonb'],
  ['reply', 'jsonb'],
  ['mentions', 'jsonb'],
  ['highlight', 'text'],
  ['sent_at', 'timestamptz'],
  ['deleted', 'boolean'],
  ['filter_stage', 'text'],
  ['filter_reason', 'text'],
] as const;

export function messageRecord(m: ChatMessage): Record<(typeof messageColumns)[number][0], unknown> {
  return {
    id: m.id,
    channel_id: m.channel_id,
    channel_provider_id: m.channel_provider_id,
    provider: m.provider,
    provider_message_id: m.provider_message_id,
    author_id: m.author.provider_user_id,
    author_login: m.author.login,
    author_name: m.author.display_name,
    author_color: m.author.color,
    author_avatar_url: m.author.avatar_url,
    author_badges: m.author.badges,
    author_roles: m.author.roles,
    author_is_self: m.author.is_self,
    text: m.text,
    emotes: m.emotes,
    reply: m.reply,
    mentions: m.mentions,
    highlight: m.highlight,
    sent_at: m.sent_at,
    deleted: m.deleted,
    filter_stage: m.filtered?.stage ?? null,
    filter_reason: m.filtered?.reason ?? null,
  };
}

export function messageFromRow(r: typeof chatMessages.$inferSelect): ChatMessage {
  return {
    id: r.id,
    channel_id: r.channelId,
    channel_provider_id: r.channelProviderId,
    provider: r.provider as ChannelProviderId,
    provider_message_id: r.providerMessageId,
    author: {
      provider_user_id: r.authorId,
      login: r.authorLogin,
      display_name: r.authorName,
      color: r.authorColor,
      avatar_url: r.authorAvatarUrl,
      badges: r.authorBadges,
      roles: r.authorRoles,
      is_self: r.authorIsSelf,
    },
    text: r.text,
    emotes: r.emotes,
    reply: r.reply ?? null,
    mentions: r.mentions,
    highlight: r.highlight,
    sent_at: r.sentAt.toISOString(),
    deleted: r.deletedAt !== null,
    filtered: r.filterStage !== null ? { stage: r.filterStage, reason: r.filterReason ?? '' } : null,
  };
}

// ── moderation events ──────────────────────────────────────────────────────

export function moderationRow(e: ModerationEvent): typeof moderationEvents.$inferInsert {
  return {
    id: e.id,
    channelId: e.channel_id,
    channelProviderId: e.channel_provider_id,
    provider: e.provider,
    kind: e.kind,
    targetId: e.target?.provider_user_id ?? null,
    targetName: e.target?.display_name ?? null,
    providerMessageId: e.provider_message_id,
    durationSeconds: e.duration_seconds,
    reason: e.reason,
    moderatorKind: e.moderator?.kind ?? (e.source === 'platform' ? 'platform' : 'system'),
    moderatorUserId: e.moderator?.user_id ?? null,
    moderatorName: e.moderator?.display_name ?? null,
    source: e.source,
    occurredAt: new Date(e.occurred_at),
  };
}

export function moderationFromRow(r: typeof moderationEvents.$inferSelect): ModerationEvent {
  return {
    id: r.id,
    channel_id: r.channelId,
    channel_provider_id: r.channelProviderId,
    provider: r.provider as ChannelProviderId,
    kind: r.kind,
    target: r.targetId !== null ? { provider_user_id: r.targetId, display_name: r.targetName ?? '' } : null,
    provider_message_id: r.providerMessageId,
    duration_seconds: r.durationSeconds,
    reason: r.reason,
    moderator:
      r.moderatorName !== null || r.moderatorUserId !== null
        ? { kind: r.moderatorKind, user_id: r.moderatorUserId, display_name: r.moderatorName ?? '' }
        : null,
    source: r.source,
    occurred_at: r.occurredAt.toISOString(),
  };
}

// ── activities ─────────────────────────────────────────────────────────────

export const activityColumns = [
  ['id', 'text'],
  ['channel_id', 'text'],
  ['channel_provider_id', 'text'],
  ['provider', 'text'],
  ['provider_event_id', 'text'],
  ['type', 'text'],
  ['viewer_id', 'text'],
  ['viewer_login', 'text'],
  ['viewer_name', 'text'],
  ['tier', 'text'],
  ['months', 'integer'],
  ['count', 'integer'],
  ['amount', 'text'],
  ['message', 'text'],
  ['occurred_at', 'timestamptz'],
] as const;

export function activityRecord(a: Activity): Record<(typeof activityColumns)[number][0], unknown> {
  return {
    id: a.id,
    channel_id: a.channel_id,
    channel_provider_id: a.channel_provider_id,
    provider: a.provider,
    provider_event_id: a.provider_event_id,
    type: a.type,
    viewer_id: a.viewer?.provider_user_id ?? null,
    viewer_login: a.viewer?.login ?? null,
    viewer_name: a.viewer?.display_name ?? null,
    tier: a.tier,
    months: a.months,
    count: a.count,
    amount: a.amount,
    message: a.message,
    occurred_at: a.occurred_at,
  };
}

export function activityFromRow(r: typeof activities.$inferSelect): Activity {
  return {
    id: r.id,
    channel_id: r.channelId,
    channel_provider_id: r.channelProviderId,
    provider: r.provider as ChannelProviderId,
    provider_event_id: r.providerEventId,
    type: r.type as ActivityType,
    viewer: r.viewerId !== null ? { provider_user_id: r.viewerId, login: r.viewerLogin ?? '', display_name: r.viewerName ?? '' } : null,
    tier: r.tier,
    months: r.months,
    count: r.count,
    amount: r.amount,
    message: r.message,
    occurred_at: r.occurredAt.toISOString(),
  };
}

// ── gaps ───────────────────────────────────────────────────────────────────

export function gapFromRow(r: typeof chatGaps.$inferSelect): ChatGap {
  return {
    id: r.id,
    channel_id: r.channelId,
    channel_provider_id: r.channelProviderId,
    provider: r.provider as ChannelProviderId,
    reason: r.reason,
    started_at: r.startedAt.toISOString(),
    ended_at: r.endedAt.toISOString(),
    lost: r.lost,
  };
}

/** `json_to_recordset` column list: `r(id text, …)`. */
export function recordsetColumns(columns: readonly (readonly [string, string])[]): string {
  return columns.map(([name, type]) => `"${name}" ${type}`).join(', ');
}
