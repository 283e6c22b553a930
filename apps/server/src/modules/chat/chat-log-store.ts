/**
 * Chat log persistence: one batch of normalised events → a few multi-row statements in one
 * transaction (messages, viewers upsert, moderation events + "mark deleted", activities).
 */
import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Activity, ChannelStreamEvent, ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import { activityRow, messageRow, moderationRow } from './chat-rows';
import type { Db } from '../../db/client';
import { activities, chatMessages, moderationEvents, viewers } from '../../db/schema';

/** Rows per INSERT statement (well under PostgreSQL's 65,535 bind parameters). */
const CHUNK = 500;
/** A ban/timeout/clear hides the target's messages of this recent window. */
export const REMOVE_WINDOW_MS = 24 * 60 * 60 * 1000;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export class ChatLogStore {
  constructor(private readonly db: Db) {}

  /** Persists one batch (in order: messages, then moderation, so a deletion in the same batch applies). */
  async writeBatch(events: readonly ChannelStreamEvent[]): Promise<void> {
    const messages: ChatMessage[] = [];
    const moderation: ModerationEvent[] = [];
    const acts: Activity[] = [];
    for (const e of events) {
      if (e.type === 'chat.message') messages.push(e.data);
      else if (e.type === 'chat.moderation') moderation.push(e.data);
      else if (e.type === 'activity') acts.push(e.data);
    }
    if (messages.length + moderation.length + acts.length === 0) return;
    await this.db.transaction(async (tx) => {
      if (messages.length) await this.insertMessages(tx, messages);
      if (moderation.length) await this.applyModeration(tx, moderation);
      for (const part of chunks(acts)) await tx.insert(activities).values(part.map(activityRow)).onConflictDoNothing();
    });
  }

  private async insertMessages(tx: Tx, messages: ChatMessage[]): Promise<void> {
    // Only rows actually inserted count towards viewers (a replayed duplicate does not).
    const inserted = new Set<string>();
    for (const part of chunks(messages)) {
      const rows = await tx
        .insert(chatMessages)
        .values(part.map(messageRow))
        .onConflictDoNothing()
        .returning({ id: chatMessages.id, channelId: chatMessages.channelId });
      for (const r of rows) inserted.add(`${r.channelId}\u0000${r.id}`);
    }
    // One row per viewer per batch (ON CONFLICT cannot touch the same row twice in one statement).
    const byViewer = new Map<string, typeof viewers.$inferInsert>();
    for (const m of messages) {
      if (!inserted.has(`${m.channel_id}\u0000${m.id}`)) continue;
      const key = `${m.channel_id}\u0000${m.provider}\u0000${m.author.provider_user_id}`;
      const at = new Date(m.sent_at);
      const v = byViewer.get(key);
      const snapshot = {
        login: m.author.login,
        displayName: m.author.display_name,
        color: m.author.color,
        avatarUrl: m.author.avatar_url,
        badges: m.author.badges,
        roles: m.author.roles,
      };
      if (v) {
        Object.assign(v, snapshot);
        v.messageCount = (v.messageCount ?? 0) + 1;
        if (at < v.firstSeenAt) v.firstSeenAt = at;
        if (at > v.lastSeenAt) v.lastSeenAt = at;
      } else {
        byViewer.set(key, {
          channelId: m.channel_id,
          provider: m.provider,
          providerUserId: m.author.provider_user_id,
          ...snapshot,
          firstSeenAt: at,
          lastSeenAt: at,
          messageCount: 1,
        });
      }
    }
    for (const part of chunks([...byViewer.values()])) {
      await tx
        .insert(viewers)
        .values(part)
        .onConflictDoUpdate({
          target: [viewers.channelId, viewers.provider, viewers.providerUserId],
          set: {
            login: sql`excluded.login`,
            displayName: sql`excluded.display_name`,
            color: sql`excluded.color`,
            avatarUrl: sql`coalesce(excluded.avatar_url, ${viewers.avatarUrl})`,
            badges: sql`excluded.badges`,
            roles: sql`excluded.roles`,
            firstSeenAt: sql`least(${viewers.firstSeenAt}, excluded.first_seen_at)`,
            lastSeenAt: sql`greatest(${viewers.lastSeenAt}, excluded.last_seen_at)`,
            messageCount: sql`${viewers.messageCount} + excluded.message_count`,
          },
        });
    }
  }

  private async applyModeration(tx: Tx, events: ModerationEvent[]): Promise<void> {
    const rows = events.map(moderationRow);
    // A message deletion names the message only: attribute it to its author (viewer card history).
    for (const row of rows) {
      if (row.kind !== 'delete' || row.targetId || !row.providerMessageId) continue;
      const [author] = await tx
        .select({ id: chatMessages.authorId, name: chatMessages.authorName })
        .from(chatMessages)
        .where(
          and(
            eq(chatMessages.channelId, row.channelId),
            eq(chatMessages.provider, row.provider),
            eq(chatMessages.providerMessageId, row.providerMessageId),
          ),
        )
        .limit(1);
      if (author) {
        row.targetId = author.id;
        row.targetName = author.name;
      }
    }
    for (const part of chunks(rows)) await tx.insert(moderationEvents).values(part).onConflictDoNothing();
    const now = new Date();
    for (const e of events) {
      const base = and(eq(chatMessages.channelId, e.channel_id), eq(chatMessages.provider, e.provider), isNull(chatMessages.deletedAt));
      switch (e.kind) {
        case 'delete':
          if (e.provider_message_id)
            await tx
              .update(chatMessages)
              .set({ deletedAt: now })
              .where(and(base, eq(chatMessages.providerMessageId, e.provider_message_id)));
          break;
        case 'ban':
        case 'timeout':
          if (e.target) {
            const since = new Date(new Date(e.occurred_at).getTime() - REMOVE_WINDOW_MS);
            await tx
              .update(chatMessages)
              .set({ deletedAt: now })
              .where(and(base, eq(chatMessages.authorId, e.target.provider_user_id), gt(chatMessages.sentAt, since)));
          }
          break;
        case 'clear': {
          // With a target only that viewer's lines were cleared (Twitch clear_user_messages); without, the whole chat.
          const since = new Date(new Date(e.occurred_at).getTime() - REMOVE_WINDOW_MS);
          const who = e.target ? eq(chatMessages.authorId, e.target.provider_user_id) : undefined;
          await tx
            .update(chatMessages)
            .set({ deletedAt: now })
            .where(and(base, eq(chatMessages.channelProviderId, e.channel_provider_id), gt(chatMessages.sentAt, since), who));
          break;
        }
        case 'unban':
          break;
      }
    }
  }

  /** Deletes chat messages and moderation events older than `days`, in bounded batches (returns rows removed). */
  async purgeOlderThan(days: number, now = new Date(), batch = 5000): Promise<number> {
    const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
    let total = 0;
    for (;;) {
      const old = this.db.select({ seq: chatMessages.seq }).from(chatMessages).where(lt(chatMessages.receivedAt, cutoff)).limit(batch);
      const n = (await this.db.delete(chatMessages).where(inArray(chatMessages.seq, old)).returning({ seq: chatMessages.seq })).length;
      total += n;
      if (n < batch) break;
    }
    for (;;) {
      const old = this.db
        .select({ seq: moderationEvents.seq })
        .from(moderationEvents)
        .where(lt(moderationEvents.occurredAt, cutoff))
        .limit(batch);
      const n = (await this.db.delete(moderationEvents).where(inArray(moderationEvents.seq, old)).returning({ seq: moderationEvents.seq }))
        .length;
      total += n;
      if (n < batch) break;
    }
    return total;
  }
}
