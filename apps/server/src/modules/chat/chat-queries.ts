/** Reads of the chat log: history pages and the public popout's recent lines. */
import { and, desc, eq, ilike, inArray, isNull, lt, type SQL } from 'drizzle-orm';
import type { ChatMessage } from '@greenroom/contracts/api/events';
import type { PublicChatMessage } from '@greenroom/contracts/api/chat';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { chatMessages } from '../../db/schema';
import { escapeLike, pageOf, parseSeqCursor } from '../../lib/pagination';
import { messageFromRow } from './chat-rows';
import { toPublicMessage } from './public-message';

export class ChatQueries {
  constructor(private readonly db: Db) {}

  /** Newest first; the cursor is the `seq` of the oldest record returned (pass as `before`). */
  async history(
    channelId: string,
    q: { before?: string; limit: number; provider?: ChannelProviderId; q?: string },
  ): Promise<{ records: ChatMessage[]; cursor: string | null }> {
    const before = parseSeqCursor(q.before);
    const where: SQL[] = [eq(chatMessages.channelId, channelId)];
    if (before !== null) where.push(lt(chatMessages.seq, before));
    if (q.provider) where.push(eq(chatMessages.provider, q.provider));
    const text = q.q?.trim();
    if (text) where.push(ilike(chatMessages.text, `%${escapeLike(text)}%`));
    const rows = await this.db
      .select()
      .from(chatMessages)
      .where(and(...where))
      .orderBy(desc(chatMessages.seq))
      .limit(q.limit + 1);
    const page = pageOf(rows, q.limit, (last) => String(last.seq));
    return { records: page.rows.map(messageFromRow), cursor: page.cursor };
  }

  /** The last `limit` messages that are not deleted, in display order (oldest first). */
  async publicRecent(channelId: string, providers: ChannelProviderId[] | null, limit = 50): Promise<PublicChatMessage[]> {
    const where: SQL[] = [eq(chatMessages.channelId, channelId), isNull(chatMessages.deletedAt)];
    if (providers) where.push(inArray(chatMessages.provider, providers));
    const rows = await this.db
      .select()
      .from(chatMessages)
      .where(and(...where))
      .orderBy(desc(chatMessages.seq))
      .limit(limit);
    return rows.reverse().map((r) => toPublicMessage(messageFromRow(r)));
  }
}
