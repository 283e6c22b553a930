/**
 * What the viewer card reads, behind a small repository: the Drizzle implementation below, and fakes in unit
 * tests (viewer-card-service.test.ts) so the card's rules are tested without a database.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { ChatBadge, ChatMessage, ChatRoles, ModerationEvent } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders, chatMessages, moderationEvents, viewers } from '../../db/schema';
import { messageFromRow, moderationFromRow } from '../chat';

/** One viewer of one channel on one platform. */
export interface ViewerKey {
  channelId: string;
  provider: ChannelProviderId;
  providerUserId: string;
}

/** The viewer's profile as last seen in chat, with counters. */
export interface ViewerSnapshot {
  login: string;
  displayName: string;
  color: string | null;
  avatarUrl: string | null;
  badges: ChatBadge[];
  roles: ChatRoles;
  firstSeenAt: Date;
  lastSeenAt: Date;
  messageCount: number;
}

export interface ViewerRepository {
  snapshot(key: ViewerKey): Promise<ViewerSnapshot | null>;
  /** The viewer's messages, newest first. */
  recentMessages(key: ViewerKey, limit: number): Promise<ChatMessage[]>;
  /** Moderation events that targeted the viewer, newest first. */
  moderationHistory(key: ViewerKey, limit: number): Promise<ModerationEvent[]>;
  /** The channel's connection of that platform, if any. */
  channelProviderId(channelId: string, provider: ChannelProviderId): Promise<string | null>;
}

export class DbViewerRepository implements ViewerRepository {
  constructor(private readonly db: Db) {}

  async snapshot(k: ViewerKey): Promise<ViewerSnapshot | null> {
    const [row] = await this.db
      .select()
      .from(viewers)
      .where(and(eq(viewers.channelId, k.channelId), eq(viewers.provider, k.provider), eq(viewers.providerUserId, k.providerUserId)))
      .limit(1);
    return row ?? null;
  }

  async recentMessages(k: ViewerKey, limit: number): Promise<ChatMessage[]> {
    const rows = await this.db
      .select()
      .from(chatMessages)
      .where(
        and(eq(chatMessages.channelId, k.channelId), eq(chatMessages.provider, k.provider), eq(chatMessages.authorId, k.providerUserId)),
      )
      .orderBy(desc(chatMessages.seq))
      .limit(limit);
    return rows.map(messageFromRow);
  }

  async moderationHistory(k: ViewerKey, limit: number): Promise<ModerationEvent[]> {
    const rows = await this.db
      .select()
      .from(moderationEvents)
      .where(
        and(
          eq(moderationEvents.channelId, k.channelId),
          eq(moderationEvents.provider, k.provider),
          eq(moderationEvents.targetId, k.providerUserId),
        ),
      )
      .orderBy(desc(moderationEvents.seq))
      .limit(limit);
    return rows.map(moderationFromRow);
  }

  async channelProviderId(channelId: string, provider: ChannelProviderId): Promise<string | null> {
    const [cp] = await this.db
      .select({ id: channelProviders.id })
      .from(channelProviders)
      .where(and(eq(channelProviders.channelId, channelId), eq(channelProviders.provider, provider)))
      .limit(1);
    return cp?.id ?? null;
  }
}
