/** A viewer's card in one channel: profile snapshot, counters, recent messages, moderation history, ban state. */
import { and, desc, eq } from 'drizzle-orm';
import type { ModerationEvent } from '@greenroom/contracts/api/events';
import type { ViewerCard } from '@greenroom/contracts/api/chat';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders, chatMessages, moderationEvents, viewers } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { messageFromRow, moderationFromRow } from '../chat/chat-rows';

/** Ban state from the moderation history (newest first): the latest ban/unban/timeout decides. */
export function banState(history: ModerationEvent[], now = Date.now()): { banned: boolean; timed_out_until: string | null } {
  for (const e of history) {
    if (e.kind === 'unban') return { banned: false, timed_out_until: null };
    if (e.kind === 'ban') return { banned: true, timed_out_until: null };
    if (e.kind === 'timeout') {
      const until = new Date(e.occurred_at).getTime() + (e.duration_seconds ?? 0) * 1000;
      return { banned: false, timed_out_until: until > now ? new Date(until).toISOString() : null };
    }
  }
  return { banned: false, timed_out_until: null };
}

/** How far apart a ban or timeout and the platform's "messages cleared" for it may arrive. */
const CLEAR_ECHO_MS = 15_000;

/**
 * The moderation history without the platforms' "messages cleared" that only echo a ban or timeout (Twitch
 * clears a user's messages whenever they are banned or timed out, by anyone): one action, one entry. A clear
 * with no ban or timeout next to it stays.
 */
export function withoutEchoedClears(history: ModerationEvent[]): ModerationEvent[] {
  const bans = history.filter((e) => e.kind === 'ban' || e.kind === 'timeout').map((e) => new Date(e.occurred_at).getTime());
  return history.filter((e) => {
    if (e.kind !== 'clear') return true;
    const at = new Date(e.occurred_at).getTime();
    return !bans.some((b) => Math.abs(b - at) <= CLEAR_ECHO_MS);
  });
}

export class ViewerCardService {
  constructor(private readonly db: Db) {}

  async card(
    channelId: string,
    provider: ChannelProviderId,
    providerUserId: string,
    limits = { messages: 50, moderation: 50 },
  ): Promise<ViewerCard> {
    const [viewer] = await this.db
      .select()
      .from(viewers)
      .where(and(eq(viewers.channelId, channelId), eq(viewers.provider, provider), eq(viewers.providerUserId, providerUserId)))
      .limit(1);
    const messages = await this.db
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.channelId, channelId), eq(chatMessages.provider, provider), eq(chatMessages.authorId, providerUserId)))
      .orderBy(desc(chatMessages.seq))
      .limit(limits.messages);
    const modRows = await this.db
      .select()
      .from(moderationEvents)
      .where(
        and(
          eq(moderationEvents.channelId, channelId),
          eq(moderationEvents.provider, provider),
          eq(moderationEvents.targetId, providerUserId),
        ),
      )
      .orderBy(desc(moderationEvents.seq))
      .limit(limits.moderation);
    if (!viewer && messages.length === 0 && modRows.length === 0) throw notFound('This viewer has not been seen in this channel.');
    const [cp] = await this.db
      .select({ id: channelProviders.id })
      .from(channelProviders)
      .where(and(eq(channelProviders.channelId, channelId), eq(channelProviders.provider, provider)))
      .limit(1);
    const moderation = withoutEchoedClears(modRows.map(moderationFromRow));
    const latest = messages[0];
    return {
      provider,
      provider_user_id: providerUserId,
      login: viewer?.login ?? latest?.authorLogin ?? providerUserId,
      display_name: viewer?.displayName ?? latest?.authorName ?? modRows[0]?.targetName ?? providerUserId,
      color: viewer?.color ?? latest?.authorColor ?? null,
      avatar_url: viewer?.avatarUrl ?? latest?.authorAvatarUrl ?? null,
      badges: viewer?.badges ?? latest?.authorBadges ?? [],
      roles: viewer?.roles ??
        latest?.authorRoles ?? { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false },
      first_seen_at: viewer?.firstSeenAt.toISOString() ?? null,
      last_seen_at: viewer?.lastSeenAt.toISOString() ?? null,
      message_count: viewer?.messageCount ?? 0,
      ...banState(moderation),
      recent_messages: messages.map(messageFromRow),
      moderation,
      channel_provider_id: cp?.id ?? null,
    };
  }
}
