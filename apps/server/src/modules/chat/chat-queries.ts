/** Reads of the chat log: history pages (older ones, or what came after a position), and the public popout's lines. */
import { and, asc, desc, eq, getTableColumns, gt, gte, ilike, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { ChatGap, ChatMessage } from '@greenroom/contracts/api/events';
import type { PublicChatMessage } from '@greenroom/contracts/api/chat';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { chatGaps, chatMessages } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { escapeLike, pageOf, parseSeqCursor } from '../../lib/pagination';
import { gapFromRow, messageFromRow } from '../../pipeline/chat-rows';
import { toPublicMessage } from './public-message';

/** Rows a history search walks first, newest first, before it knows anything of how common its term is. */
export const SEARCH_WALK_FIRST = 2_000;
/** Rows a history search walks at most; a term sparser than that finds its matches through the trigram index. */
export const SEARCH_WALK_MAX = 10_000;

/** The span of seq a search for a rare term (see `planTerm`) looks through first, from the page's position. */
export const SEARCH_FIRST_RANGE = 4_096;
/** A search takes the rest of the log at once when it spans at most this many of the next range. */
export const SEARCH_REST_RANGES = 4;
/** Ranges of seq a search takes at most before the rest of the log in one query. */
export const SEARCH_RANGES = 3;
/** How long the sample of texts is kept before it is read again (ANALYZE renews it: autovacuum, PlannerStatisticsJob). */
const TEXT_SAMPLE_MS = 60_000;
/** A term the sample finds in this share of texts or more is walked for; a rarer one is looked up in the trigram index. */
const COMMON_TERM = 0.02;
/** A word of the term the sample finds in this share of texts or more is not looked up in the trigram index. */
const COMMON_WORD = 0.05;

type ChatMessageRow = typeof chatMessages.$inferSelect;

/** How far a search walks and how wide its first range is (tests shrink them, and fix the sample: the way a term takes). */
export interface SearchTuning {
  first: number;
  max: number;
  range?: number;
  sample?: TextSample | null;
}

/** Texts of the log sampled by ANALYZE (its most common values and histogram bounds), each with the share it stands for. */
export interface TextSample {
  texts: { text: string; share: number }[];
}

async function readTextSample(db: Db): Promise<TextSample | null> {
  const result: unknown = await db.execute(sql`
    SELECT most_common_vals::text::text[] AS common, most_common_freqs AS freqs, histogram_bounds::text::text[] AS bounds,
      null_frac AS nulls
    FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'chat_messages' AND attname = 'text'`);
  const [row] = rowsOf<{ common: string[] | null; freqs: number[] | null; bounds: string[] | null; nulls: number }>(result);
  if (!row) return null;
  const common = row.common ?? [];
  const freqs = (row.freqs ?? []).map(Number);
  const bounds = row.bounds ?? [];
  const rest = Math.max(0, 1 - Number(row.nulls) - freqs.reduce((a, b) => a + b, 0));
  const texts = [
    ...common.map((text, i) => ({ text: text.toLowerCase(), share: freqs[i] ?? 0 })),
    ...bounds.map((text) => ({ text: text.toLowerCase(), share: rest / bounds.length })),
  ];
  // Fewer than 50 texts say too little (a small or new log): every term is walked for first.
  return texts.length < 50 ? null : { texts };
}

/**
 * How to search for `text` by the sample: walk for it first when it is common, and which of its words (three letters
 * or digits or more, each in every match) the trigram index looks up — those the sample does not find everywhere; none
 * (the whole term) when it finds them all.
 */
export function planTerm(text: string, sample: TextSample): { common: boolean; words: string[] } {
  const shareOf = (part: string) => {
    const lower = part.toLowerCase();
    return sample.texts.reduce((sum, t) => (t.text.includes(lower) ? sum + t.share : sum), 0);
  };
  const words = [...new Set(text.match(/[\p{L}\p{N}]{3,}/gu) ?? [])].map((word) => ({ word, share: shareOf(word) }));
  return { common: shareOf(text) >= COMMON_TERM, words: words.filter((w) => w.share < COMMON_WORD).map((w) => w.word) };
}

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
  private sample: { at: number; read: Promise<TextSample | null> } | null = null;

  constructor(
    private readonly db: Db,
    /** How far a search walks and its first range (tests shrink them to reach every step in a small log, and fix the sample). */
    private readonly searchWalk: SearchTuning = { first: SEARCH_WALK_FIRST, max: SEARCH_WALK_MAX },
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
   * depends on how common the term is in this channel, which the planner does not know (its estimate of a substring's
   * selectivity is a guess from the pattern's length):
   * - a term found often among the newest messages: walking the channel's log in page order and filtering (the LIMIT
   *   stops the walk after a few hundred or thousand rows);
   * - a rare term: the trigram index (`chat_messages_text_trgm`) — but GIN has no order, so a search through it
   *   fetches every match of the log to sort the first `want` (10,000 row reads for a word in one message of a
   *   thousand at 10,000,000 messages); ANDed with the BRIN index on seq (`chat_messages_seq_brin`) it fetches only
   *   the matches in a range of seq.
   * The table's sample of texts (`pg_stats`, `TextSample`) says which: a term it finds in 1 text of 50 or more is
   * walked for first, a bounded number of rows, walking on while the density seen says the rest is near; a rarer one
   * goes to the trigram index at once, in ranges of seq from the page's position, each sized from the density of the
   * ones before. Words of the term that the sample finds everywhere are left out of what the index looks up (the
   * whole term still filters the rows): intersecting their entries would cost what reading millions of them costs.
   */
  private async search(channelId: string, text: string, at: SearchPosition, want: number): Promise<ChatMessageRow[]> {
    const pattern = `%${escapeLike(text)}%`;
    const matches = ilike(chatMessages.text, pattern);
    // Without three letters or digits in a row the term has no trigram to look up: the walk is the only way.
    if (!/[\p{L}\p{N}]{3}/u.test(text)) return this.walk(channelId, at, want, matches);
    const sample = await this.textSample();
    const term = sample ? planTerm(text, sample) : { common: true, words: [] };
    // What the trigram index looks up: the words the sample does not find everywhere (each is in every match); the
    // whole term then filters the rows (`text || ''` is not the indexed expression, so the planner cannot look its
    // trigrams up too).
    const indexed =
      term.words.length === 0 || (term.words.length === 1 && term.words[0] === text)
        ? matches
        : and(
            ...term.words.map((word) => ilike(chatMessages.text, `%${escapeLike(word)}%`)),
            sql`(${chatMessages.text} || '') ILIKE ${pattern}`,
          );
    const ascending = at.after !== null;
    const found: ChatMessageRow[] = [];
    let position = at;
    // The span of seq searched so far, and the size of the next range (null: to the end of the log).
    let span = 0;
    let range: number | null;
    if (term.common) {
      const walked = await this.walkFirst(channelId, position, want, pattern, found);
      if (walked === null) return found;
      position = walked.position;
      span = walked.span;
      // Beyond the walked rows, the trigram index: their density says which range of seq holds the rest (twice it).
      // When the walk saw no match (the term is rarer there than one in SEARCH_WALK_FIRST), the rest of the log.
      range = found.length > 0 ? Math.ceil(((want - found.length) / found.length) * span * 2) : null;
    } else {
      range = this.searchWalk.range ?? SEARCH_FIRST_RANGE;
    }
    // Each query asks for all the matches in its range in no order (OFFSET 0 keeps the planner from pushing the page's
    // ORDER BY … LIMIT into it), then sorts them: the planner picks the cheapest way to find every match — the trigram
    // index, ANDed with the BRIN index for a range — instead of the walk along (channel_id, seq) it would estimate cheap
    // for a LIMIT and a term it cannot know is rare. The newest range of a first page ends at the channel's newest
    // message, which the same query looks up (and returns with each match: where the next range starts).
    const newest = sql<string>`(SELECT max(${chatMessages.seq}) FROM ${chatMessages} WHERE ${chatMessages.channelId} = ${channelId})`;
    const take = async (bound: number | { fromNewest: number } | null) => {
      const all = this.db
        .select({
          ...getTableColumns(chatMessages),
          newest: (typeof bound === 'object' && bound !== null ? newest : sql<null>`null`).as('newest'),
        })
        .from(chatMessages)
        .where(
          and(
            ...positionWhere(channelId, position),
            bound === null
              ? undefined
              : typeof bound === 'object'
                ? gte(chatMessages.seq, sql`${newest} - ${bound.fromNewest}`)
                : ascending
                  ? lte(chatMessages.seq, bound)
                  : gte(chatMessages.seq, bound),
            indexed,
          ),
        )
        // A literal OFFSET 0: drizzle leaves out `offset(0)`, and this is the fence.
        .offset(sql`0` as unknown as number)
        .as('m');
      const rows = await this.db
        .select()
        .from(all)
        .orderBy(ascending ? asc(all.seq) : desc(all.seq))
        .limit(want - found.length);
      return { rows: rows.map(({ newest: _, ...row }) => row), newest: rows[0]?.newest ?? null };
    };
    // Ranges sized from the density seen (twice what it predicts), at most SEARCH_RANGES; the rest of the log in one
    // query when a range held no match (the term is rarer than that range says: the log holds few of its matches).
    for (let ranges = 0; ; ranges++) {
      const last = range === null || ranges >= SEARCH_RANGES;
      let bound: number | { fromNewest: number } | null = last
        ? null
        : ascending
          ? position.after! + range!
          : position.before === null
            ? { fromNewest: range! - 1 }
            : position.before - range!;
      // Below the first seq there is nothing left: the rest of the log.
      if (typeof bound === 'number' && !ascending && bound <= 1) bound = null;
      const taken = await take(bound);
      found.push(...taken.rows);
      if (found.length >= want || bound === null || found.length === 0) {
        if (found.length >= want || bound === null) return found;
        // Nothing in the range: the rest of the log (the range included, which held nothing to find twice).
        found.push(...(await take(null)).rows);
        return found;
      }
      if (typeof bound === 'object') bound = Number(taken.newest) + 1 - range!;
      span += range!;
      position = ascending ? { ...position, after: bound } : { ...position, before: bound };
      range = Math.ceil(((want - found.length) / found.length) * span * 2);
      // When the whole log below holds at most a few ranges like it, one query for all of it: its matches are fetched
      // row by row, a range's pages whole (the BRIN index's bitmap is of pages: each row of a page with a match in
      // range is read again and matched) — at 200,000 rows, 200 matches fetched in 1.1 ms, 79 pages of a range in 2.5.
      if (!ascending && position.before! <= range * SEARCH_REST_RANGES) range = null;
    }
  }

  /**
   * The walk of a common term: the channel's rows from `at` in page order, filtered, a bounded number at a time while
   * the density seen says the rest is near. Pushes the matches onto `found`; null when it is done (enough matches, or
   * the end of the log), else where the walk stopped and the span of seq it covered.
   */
  private async walkFirst(
    channelId: string,
    at: SearchPosition,
    want: number,
    pattern: string,
    found: ChatMessageRow[],
  ): Promise<{ position: SearchPosition; span: number } | null> {
    const ascending = at.after !== null;
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
        .where(ilike(window_.text, pattern))
        .orderBy(ascending ? asc(window_.seq) : desc(window_.seq))
        .limit(want - found.length);
      found.push(...hits);
      if (found.length >= want) return null;
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
      if (!bounds || bounds.rows < window) return null;
      walked += window;
      span += Number(bounds.high) - Number(bounds.low) + 1;
      const edge = Number(ascending ? bounds.high : bounds.low);
      position = ascending ? { ...position, after: edge } : { ...position, before: edge };
      // Rows a walk would still read at the density seen so far (infinite when nothing matched yet).
      const ahead = found.length === 0 ? Infinity : ((want - found.length) * walked) / found.length;
      if (walked + ahead > this.searchWalk.max) return { position, span };
      window = Math.min(this.searchWalk.max - walked, Math.ceil(ahead * 1.25));
    }
  }

  /** The planner's sample of the log's texts (`pg_stats`), read again after TEXT_SAMPLE_MS; null when there is none. */
  private textSample(): Promise<TextSample | null> {
    if (this.searchWalk.sample !== undefined) return Promise.resolve(this.searchWalk.sample);
    const now = Date.now();
    if (!this.sample || now - this.sample.at > TEXT_SAMPLE_MS) {
      const read = readTextSample(this.db).catch(() => null);
      this.sample = { at: now, read };
    }
    return this.sample.read;
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
