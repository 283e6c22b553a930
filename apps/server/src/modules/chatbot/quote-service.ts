/**
 * Quotes: numbered per channel from an atomic counter (numbers are never reused), each keeping its
 * text, who added it, the game and the date at the time. Added and removed from chat (`!addquote`,
 * `!delquote`) or the Quotes page; read with `!quote`, `!quote 12`, `!quote word`.
 */
import { and, asc, eq, ilike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Quote, quoteBodySchema, quoteCreateBodySchema } from '@greenroom/contracts/api/chatbot';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { chatbotChannels, quotes } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Tx } from './reply-outcomes';

type Row = typeof quotes.$inferSelect;

export function toQuoteDto(row: Row): Quote {
  return {
    id: row.id,
    number: row.number,
    text: row.text,
    added_by: row.addedBy,
    added_on_provider: (row.addedOnProvider as ChannelProviderId | null) ?? null,
    game: row.game,
    quoted_on: row.quotedOn,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const longDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** `#12: "text" [Game] (January 5, 2026)` */
export function formatQuote(q: Pick<Row, 'number' | 'text' | 'game' | 'quotedOn'>): string {
  const date = longDate.format(new Date(`${q.quotedOn}T00:00:00Z`));
  return `#${q.number}: "${q.text}"${q.game ? ` [${q.game}]` : ''} (${date})`;
}

const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

export class QuoteService {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(channelId: string): Promise<Quote[]> {
    const rows = await this.db.select().from(quotes).where(eq(quotes.channelId, channelId)).orderBy(asc(quotes.number));
    return rows.map(toQuoteDto);
  }

  async get(channelId: string, id: string): Promise<Quote> {
    const [row] = await this.db
      .select()
      .from(quotes)
      .where(and(eq(quotes.channelId, channelId), eq(quotes.id, id)));
    if (!row) throw notFound('This quote does not exist.');
    return toQuoteDto(row);
  }

  /** Adds a quote with the next number of the channel (in `exec`, a transaction of the caller, when given). */
  async add(
    channelId: string,
    input: { text: string; addedBy: string; provider: ChannelProviderId | null; game: string | null; quotedOn?: string },
    exec: Db | Tx = this.db,
  ): Promise<Row> {
    return exec.transaction(async (tx) => {
      const [counter] = await tx
        .insert(chatbotChannels)
        .values({ channelId, nextQuoteNumber: 2 })
        .onConflictDoUpdate({ target: chatbotChannels.channelId, set: { nextQuoteNumber: sql`${chatbotChannels.nextQuoteNumber} + 1` } })
        .returning({ next: chatbotChannels.nextQuoteNumber });
      const [row] = await tx
        .insert(quotes)
        .values({
          id: newId(),
          channelId,
          number: counter!.next - 1,
          text: input.text,
          addedBy: input.addedBy,
          addedOnProvider: input.provider,
          game: input.game,
          quotedOn: input.quotedOn ?? new Date(this.clock()).toISOString().slice(0, 10),
        })
        .returning();
      return row!;
    });
  }

  async create(channelId: string, body: z.output<typeof quoteCreateBodySchema>, byName: string): Promise<Quote> {
    const row = await this.add(channelId, {
      text: body.text,
      addedBy: body.added_by || byName,
      provider: null,
      game: body.game,
      ...(body.quoted_on ? { quotedOn: body.quoted_on } : {}),
    });
    return toQuoteDto(row);
  }

  async update(channelId: string, id: string, body: z.output<typeof quoteBodySchema>): Promise<Quote> {
    const [row] = await this.db
      .update(quotes)
      .set({ text: body.text, game: body.game, quotedOn: body.quoted_on, addedBy: body.added_by, updatedAt: new Date() })
      .where(and(eq(quotes.channelId, channelId), eq(quotes.id, id)))
      .returning();
    if (!row) throw notFound('This quote does not exist.');
    return toQuoteDto(row);
  }

  async remove(channelId: string, id: string): Promise<void> {
    const deleted = await this.db
      .delete(quotes)
      .where(and(eq(quotes.channelId, channelId), eq(quotes.id, id)))
      .returning({ id: quotes.id });
    if (deleted.length === 0) throw notFound('This quote does not exist.');
  }

  async removeNumber(channelId: string, number: number, exec: Db | Tx = this.db): Promise<boolean> {
    const deleted = await exec
      .delete(quotes)
      .where(and(eq(quotes.channelId, channelId), eq(quotes.number, number)))
      .returning({ id: quotes.id });
    return deleted.length > 0;
  }

  /** `!quote` (random), `!quote 12` (by number), `!quote word` (a random match). */
  async find(channelId: string, query: string): Promise<Row | null> {
    const q = query.trim().replace(/^#/, '');
    if (/^\d{1,9}$/.test(q)) {
      const [row] = await this.db
        .select()
        .from(quotes)
        .where(and(eq(quotes.channelId, channelId), eq(quotes.number, Number(q))));
      return row ?? null;
    }
    const where = q
      ? and(eq(quotes.channelId, channelId), ilike(quotes.text, `%${escapeLike(q.slice(0, 100))}%`))
      : eq(quotes.channelId, channelId);
    const [row] = await this.db
      .select()
      .from(quotes)
      .where(where)
      .orderBy(sql`random()`)
      .limit(1);
    return row ?? null;
  }
}
