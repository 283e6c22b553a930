/** Reads of the chat log: history pages (older ones, or what came after a position), and the public popout's lines. */
import { and, asc, desc, eq, gt, gte, ilike, inArray, isNull, lt, lte, type SQL } from 'drizzle-orm';
import type { ChatGap, ChatMessage } from '@greenroom/contracts/api/events';
import type { PublicChatMessage } from '@greenroom/contracts/api/chat';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { chatGaps, chatMessages } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { escapeLike, pageOf, parseSeqCursor } from '../../lib/pagination';
import { gapFromRow, messageFromRow } from '../../pipeline/chat-rows';
import { toPublicMessage } from './public-message';

/** What a catch-up (`after`) returns at most per call to the public popout. */
export const PUBLIC_CATCH_UP_LIMIT = 200;

export interface ChatHistoryPage {
  records: ChatMessage[];
  cursor: string | null;
  head: string | null;
  gaps: ChatGap[];
}

export class ChatQueries {
  constructor(private readonly db: Db) {}

  /**
   * Without `after`: newest first, `cursor` = the `seq` of the oldest record returned (pass as
   * `before`). With `after`: the messages stored after that position, oldest first, `cursor` = pass
   * as `after` for the next ones. `head` is the position of the newest record returned; `gaps` are
   * the gap lines of the time the page spans.
   */
  async history(
    channelId: string,
    q: { before?: string; after?: string; limit: number; provider?: ChannelProviderId; q?: string },
  ): Promise<ChatHistoryPage> {
    const before = parseSeqCursor(q.before);
    const after = parseSeqCursor(q.after);
    if (before !== null && after !== null) throw badRequest('Use either before or after, not both');
    const where: SQL[] = [eq(chatMessages.channelId, channelId)];
    if (before !== null) where.push(lt(chatMessages.seq, before));
    if (after !== null) where.push(gt(chatMessages.seq, after));
    if (q.provider) where.push(eq(chatMessages.provider, q.provider));
    const text = q.q?.trim();
    if (text) where.push(ilike(chatMessages.text, `%${escapeLike(text)}%`));
    const rows = await this.db
      .select()
      .from(chatMessages)
      .where(and(...where))
      .orderBy(after !== null ? asc(chatMessages.seq) : desc(chatMessages.seq))
      .limit(q.limit + 1);
    const page = pageOf(rows, q.limit, (last) => String(last.seq));
    const more = page.cursor !== null;
    const last = page.rows.at(-1);
    const newest = after !== null ? last : page.rows[0];
    const oldest = after !== null ? page.rows[0] : last;
    // The time the page spans: from its oldest message (the very start when it is the last page)
    // to its newest (now, for the newest page or a catch-up that reached the end).
    const reachesNow = after !== null ? !more : before === null;
    const reachesStart = after === null && !more;
    const gaps = text
      ? []
      : await this.gaps(
          channelId,
          reachesStart || !oldest ? null : oldest.sentAt,
          reachesNow || !newest ? null : newest.sentAt,
          q.provider,
          page.rows.length === 0 && !reachesNow,
        );
    return {
      records: page.rows.map(messageFromRow),
      cursor: page.cursor,
      head: newest ? String(newest.seq) : after !== null ? String(after) : null,
      gaps,
    };
  }

  private async gaps(
    channelId: string,
    from: Date | null,
    to: Date | null,
    provider: ChannelProviderId | undefined,
    none: boolean,
  ): Promise<ChatGap[]> {
    if (none) return [];
    const where: SQL[] = [eq(chatGaps.channelId, channelId)];
    if (from) where.push(gte(chatGaps.endedAt, from));
    if (to) where.push(lte(chatGaps.endedAt, to));
    if (provider) where.push(eq(chatGaps.provider, provider));
    const rows = await this.db
      .select()
      .from(chatGaps)
      .where(and(...where))
      .orderBy(desc(chatGaps.endedAt))
      .limit(100);
    return rows.map(gapFromRow);
  }

  /**
   * The public popout's lines, oldest first: the last `limit` messages that are neither deleted nor
   * filtered, or — with `after` — those stored after that position (a reconnect's catch-up, at most
   * PUBLIC_CATCH_UP_LIMIT). `head` is the position of the newest one.
   */
  async publicRecent(
    channelId: string,
    providers: ChannelProviderId[] | null,
    options: { limit?: number; after?: string } = {},
  ): Promise<{ records: PublicChatMessage[]; head: string | null }> {
    const after = parseSeqCursor(options.after);
    const where: SQL[] = [eq(chatMessages.channelId, channelId), isNull(chatMessages.deletedAt), isNull(chatMessages.filterStage)];
    if (providers) where.push(inArray(chatMessages.provider, providers));
    if (after !== null) where.push(gt(chatMessages.seq, after));
    const rows = await this.db
      .select()
      .from(chatMessages)
      .where(and(...where))
      .orderBy(after !== null ? asc(chatMessages.seq) : desc(chatMessages.seq))
      .limit(after !== null ? PUBLIC_CATCH_UP_LIMIT : (options.limit ?? 50));
    const ordered = after !== null ? rows : rows.reverse();
    const newest = ordered[ordered.length - 1];
    return { records: ordered.map((r) => toPublicMessage(messageFromRow(r))), head: newest ? String(newest.seq) : (options.after ?? null) };
  }
}
