/** A viewer's card in one channel: profile snapshot, counters, recent messages, moderation history, ban state. */
import type { ModerationEvent } from '@greenroom/contracts/api/events';
import type { ViewerCard } from '@greenroom/contracts/api/chat';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { notFound } from '../../lib/errors';
import type { ViewerRepository } from './viewer-repository';

const noRoles = { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false };

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
  constructor(
    private readonly repository: ViewerRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The card of a viewer seen in the channel (a profile, a message or a moderation event); 404 otherwise. The
   * profile comes from the viewer snapshot, else from their latest message, else from the moderation history.
   */
  async card(
    channelId: string,
    provider: ChannelProviderId,
    providerUserId: string,
    limits = { messages: 50, moderation: 50 },
  ): Promise<ViewerCard> {
    const key = { channelId, provider, providerUserId };
    const [viewer, messages, history] = await Promise.all([
      this.repository.snapshot(key),
      this.repository.recentMessages(key, limits.messages),
      this.repository.moderationHistory(key, limits.moderation),
    ]);
    if (!viewer && messages.length === 0 && history.length === 0) throw notFound('This viewer has not been seen in this channel.');
    const moderation = withoutEchoedClears(history);
    const latest = messages[0]?.author;
    return {
      provider,
      provider_user_id: providerUserId,
      login: viewer?.login ?? latest?.login ?? providerUserId,
      display_name: viewer?.displayName ?? latest?.display_name ?? (moderation[0]?.target?.display_name || null) ?? providerUserId,
      color: viewer?.color ?? latest?.color ?? null,
      avatar_url: viewer?.avatarUrl ?? latest?.avatar_url ?? null,
      badges: viewer?.badges ?? latest?.badges ?? [],
      roles: viewer?.roles ?? latest?.roles ?? noRoles,
      first_seen_at: viewer?.firstSeenAt.toISOString() ?? null,
      last_seen_at: viewer?.lastSeenAt.toISOString() ?? null,
      message_count: viewer?.messageCount ?? 0,
      ...banState(moderation, this.now()),
      recent_messages: messages,
      moderation,
      channel_provider_id: await this.repository.channelProviderId(channelId, provider),
    };
  }
}
