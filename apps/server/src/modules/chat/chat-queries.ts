/** Reads of the chat log: history pages (older ones, or what came after a position), and the public popout's lines. */
import { and, asc, desc, eq, gt, gte, ilike, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { ChatGap, ChatMessage } from '@greenroom/contracts/api/events';
import type { PublicChatMessage } from '@greenroom/contracts/api/chat';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { chatGaps, chatMessages } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { escapeLike, pageOf, parseSeqCursor } from '../../lib/pagination';
import { gapFromRow, messageFromRow } from '../../pipeline/chat-rows';
import { toPublicMessage } from './public-message';

/** Rows a history search walks first, newest first, before it knows anything of how common its term is. */
export const SEARCH_WALK_FIRST = 2_000;
/** Rows a history search walks at most; a term sparser than that finds its matches through the trigram index. */
export const SEARCH_WALK_MAX = 10_000;

type ChatMessageRow = typeof chatMessages.$inferSelect;

interface SearchPosition {
  before: number | null;
  after: number | null;
  provider: ChannelProviderId | undefined;
}

function positionWhere(channelId: string, at: SearchPosition): SQL[] {
  const where: SQL[] = [eq(chatMessages.channelId, channelId)];
  if (at.before !== null) where.push(lt(chatMessages.seq, at.before));
  if (at.after !== null) where.push(gt(chatMessages.seq, at.after));
  if (at.provider) where.push(eq(chatMessages.provider, at.provider));
  return where;
}

/** What a catch-up (`after`) returns at most per call to the public popout. */
export const PUBLIC_CATCH_UP_LIMIT = 200;

export interface ChatHistoryPage {
  records: ChatMessage[];
  cursor: string | null;
  head: string | null;
  gaps: ChatGap[];
}

export class ChatQueries {
  constructor(
    private readonly db: Db,
    /** How far a search walks (tests shrink it to reach the trigram index's ranges in a small log). */
    private readonly searchWalk = { first: SEARCH_WALK_FIRST, max: SEARCH_WALK_MAX },
  ) {}

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
    const text = q.q?.trim();
    const rows = text
      ? await this.search(channelId, text, { before, after, provider: q.provider }, q.limit + 1)
      : await this.walk(channelId, { before, after, provider: q.provider }, q.limit + 1);
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

  /** The channel's messages after (`after`: oldest first) or before a position (newest first), at most `limit`. */
  private walk(channelId: string, at: SearchPosition, limit: number, also?: SQL): Promise<ChatMessageRow[]> {
    return this.db
      .select()
      .from(chatMessages)
      .where(and(...positionWhere(channelId, at), also))
      .orderBy(at.after !== null ? asc(chatMessages.seq) : desc(chatMessages.seq))
      .limit(limit);
  }

  /**
   * The first `want` messages containing `text` (case-insensitively) in the order of a page. Which way finds them fast
   * depends on how common the term is in this channel, which neither the planner nor this code knows beforehand (the
   * planner's estimate of a substring's selectivity is a guess from the pattern's length):
   * - a term found often among the newest messages: walking the channel's log in page order and filtering (the LIMIT
   *   stops the walk after a few hundred or thousand rows);
   * - a rare term: the trigram index (`chat_messages_text_trgm`) — but GIN has no order, so a search through it
   *   fetches every match of the log to sort the first `want` (10,000 row reads for a word in one message of a
   *   thousand at 10,000,000 messages); ANDed with the BRIN index on seq (`chat_messages_seq_brin`) it fetches only
   *   the matches in a range of seq.
   * So: walk a bounded number of rows first and stop there if they held enough matches; walk on while the density seen
   * says the rest is near; otherwise search the trigram index in ranges of seq sized from that density, widening.
   */
  private async search(channelId: string, text: string, at: SearchPosition, want: number): Promise<ChatMessageRow[]> {
    const matches = ilike(chatMessages.text, `%${escapeLike(text)}%`);
    // Without three letters or digits in a row the term has no trigram to look up: the walk is the only way.
    if (!/[\p{L}\p{N}]{3}/u.test(text)) return this.walk(channelId, at, want, matches);
    const ascending = at.after !== null;
    const found: ChatMessageRow[] = [];
    let position = at;
    let walked = 0;
    let span = 0;
    let window = this.searchWalk.first;
    for (;;) {
      const window_ = this.db
        .select()
        .from(chatMessages)
        .where(and(...positionWhere(channelId, position)))
        .orderBy(ascending ? asc(chatMessages.seq) : desc(chatMessages.seq))
        .limit(window)
        .as('w');
      const hits = await this.db
        .select()
        .from(window_)
        .where(ilike(window_.text, `%${escapeLike(text)}%`))
        .orderBy(ascending ? asc(window_.seq) : desc(window_.seq))
        .limit(want - found.length);
      found.push(...hits);
      if (found.length >= want) return found;
      // The rows the window held (fewer than asked: the walk reached the end of the log) and the span of seq they cover.
      const walkedRows = this.db
        .select({ seq: chatMessages.seq })
        .from(chatMessages)
        .where(and(...positionWhere(channelId, position)))
        .orderBy(ascending ? asc(chatMessages.seq) : desc(chatMessages.seq))
        .limit(window)
        .as('walked');
      const [bounds] = await this.db
        .select({
          low: sql<string>`min(${walkedRows.seq})`,
          high: sql<string>`max(${walkedRows.seq})`,
          rows: sql<number>`count(*)::int`,
        })
        .from(walkedRows);
      if (!bounds || bounds.rows < window) return found;
      walked += window;
      span += Number(bounds.high) - Number(bounds.low) + 1;
      const edge = Number(ascending ? bounds.high : bounds.low);
      position = ascending ? { ...position, after: edge } : { ...position, before: edge };
      // Rows a walk would still read at the density seen so far (infinite when nothing matched yet).
      const ahead = found.length === 0 ? Infinity : ((want - found.length) * walked) / found.length;
      if (walked + ahead > this.searchWalk.max) break;
      window = Math.min(this.searchWalk.max - walked, Math.ceil(ahead * 1.25));
    }
    // Beyond the walked rows, the trigram index. When the walk saw matches, their density says which range of seq
    // holds the rest: a first query takes the matches in twice that range (a BitmapAnd of the trigram index and the
    // BRIN index on seq), so it fetches about as many rows as it returns, not every match of the log. A last query
    // (the only one when the walk saw no match: the term is rarer than one in SEARCH_WALK_FIRST, so the log holds
    // few) takes the rest, to the end of the log. Never more than two: each reads its trigrams' whole entries.
    // Each query asks for all the matches in its range in no order (OFFSET 0 keeps the planner from pushing the page's
    // ORDER BY … LIMIT into it), then sorts them: the planner picks the cheapest way to find every match — the trigram
    // index — instead of the walk along (channel_id, seq) it would estimate cheap for a LIMIT and a term it cannot know
    // is rare.
    const range = found.length > 0 ? Math.ceil(((want - found.length) / found.length) * span * 2) : null;
    const take = (bound: number | null) => {
      const all = this.db
        .select()
        .from(chatMessages)
        .where(
          and(
            ...positionWhere(channelId, position),
            bound === null ? undefined : ascending ? lte(chatMessages.seq, bound) : gte(chatMessages.seq, bound),
            matches,
          ),
        )
        // A literal OFFSET 0: drizzle leaves out `offset(0)`, and this is the fence.
        .offset(sql`0` as unknown as number)
        .as('m');
      return this.db
        .select()
        .from(all)
        .orderBy(ascending ? asc(all.seq) : desc(all.seq))
        .limit(want - found.length);
    };
    if (range !== null) {
      const bound = ascending ? position.after! + range : position.before! - range;
      found.push(...(await take(bound)));
      if (found.length >= want) return found;
      position = ascending ? { ...position, after: bound } : { ...position, before: bound };
    }
    found.push(...(await take(null)));
    return found;
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
