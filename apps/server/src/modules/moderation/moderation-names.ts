/** Names and texts a moderation action is about, read from the chat log (so the audit log says names, not ids). */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatMessages, viewers } from '../../db/schema';

export interface ModerationNames {
  /** The viewer's name as last seen in the channel's chat on that platform, or null. */
  viewerName(channelId: string, provider: string, providerViewerId: string): Promise<string | null>;
  /** The author and text of a message in the chat log (nulls when it is not there). */
  message(channelId: string, provider: string, providerMessageId: string): Promise<{ author: string | null; text: string | null }>;
}

export class ChatLogModerationNames implements ModerationNames {
  constructor(private readonly db: Db) {}

  async viewerName(channelId: string, provider: string, providerViewerId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ name: viewers.displayName })
      .from(viewers)
      .where(and(eq(viewers.channelId, channelId), eq(viewers.provider, provider), eq(viewers.providerUserId, providerViewerId)))
      .limit(1);
    return row?.name ?? null;
  }

  async message(channelId: string, provider: string, providerMessageId: string): Promise<{ author: string | null; text: string | null }> {
    const [row] = await this.db
      .select({ author: chatMessages.authorName, text: chatMessages.text })
      .from(chatMessages)
      .where(
        and(
          eq(chatMessages.channelId, channelId),
          eq(chatMessages.provider, provider),
          eq(chatMessages.providerMessageId, providerMessageId),
        ),
      )
      .limit(1);
    return { author: row?.author ?? null, text: row?.text ?? null };
  }
}
