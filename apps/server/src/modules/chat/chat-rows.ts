/**
 * The chat log's rows ⇄ the contract shapes, in one place: chat messages, moderation events and activities.
 * `…Row` builds an insert row from a normalised event (ChatLogStore); `…FromRow` maps a selected row back
 * (history, viewer cards, the activity feed).
 */
import type { Activity, ActivityType, ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { activities, chatMessages, moderationEvents } from '../../db/schema';

// ── chat messages ──────────────────────────────────────────────────────────

export function messageRow(m: ChatMessage): typeof chatMessages.$inferInsert {
  return {
    id: m.id,
    channelId: m.channel_id,
    channelProviderId: m.channel_provider_id,
    provider: m.provider,
    providerMessageId: m.provider_message_id,
    authorId: m.author.provider_user_id,
    authorLogin: m.author.login,
    authorName: m.author.display_name,
    authorColor: m.author.color,
    authorAvatarUrl: m.author.avatar_url,
    authorBadges: m.author.badges,
    authorRoles: m.author.roles,
    text: m.text,
    emotes: m.emotes,
    reply: m.reply,
    mentions: m.mentions,
    highlight: m.highlight,
    sentAt: new Date(m.sent_at),
    deletedAt: m.deleted ? new Date() : null,
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
    },
    text: r.text,
    emotes: r.emotes,
    reply: r.reply ?? null,
    mentions: r.mentions,
    highlight: r.highlight,
    sent_at: r.sentAt.toISOString(),
    deleted: r.deletedAt !== null,
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
      r.moderatorName !== null || r.moderatorUserId !== null ? { user_id: r.moderatorUserId, display_name: r.moderatorName ?? '' } : null,
    source: r.source,
    occurred_at: r.occurredAt.toISOString(),
  };
}

// ── activities ─────────────────────────────────────────────────────────────

export function activityRow(a: Activity): typeof activities.$inferInsert {
  return {
    id: a.id,
    channelId: a.channel_id,
    channelProviderId: a.channel_provider_id,
    provider: a.provider,
    providerEventId: a.provider_event_id,
    type: a.type,
    viewerId: a.viewer?.provider_user_id ?? null,
    viewerLogin: a.viewer?.login ?? null,
    viewerName: a.viewer?.display_name ?? null,
    tier: a.tier,
    months: a.months,
    count: a.count,
    amount: a.amount,
    message: a.message,
    occurredAt: new Date(a.occurred_at),
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
