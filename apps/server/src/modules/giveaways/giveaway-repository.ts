/**
 * Giveaways, entries and winners in the database. Every state change is a conditional UPDATE on the
 * giveaway's (or winner's) status, so it happens once however many instances or requests race:
 * opening, closing (by hand or by the timer), drawing, re-rolling, claiming, expiring, cancelling.
 * A ticket purchase locks the giveaway row and pays in the same transaction as the entry; a
 * cancellation flips the status and refunds every entry in one transaction — no ticket is both
 * paid and lost.
 */
import { and, asc, desc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { GiveawaySettings, GiveawayStatus, WinnerMessage, WinnerStatus } from '@greenroom/contracts/api/giveaways';
import { WINNER_MESSAGES_MAX } from '@greenroom/contracts/api/giveaways';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { giveawayEntries, giveaways, giveawayWinners } from '../../db/schema';
import { newId } from '../../lib/ids';
import { InsufficientPoints, type PointsLedger } from '../points';

export type GiveawayRow = typeof giveaways.$inferSelect;
export type EntryRow = typeof giveawayEntries.$inferSelect;
export type WinnerRow = typeof giveawayWinners.$inferSelect;

export type EnterResult =
  | { status: 'entered'; tickets: number; bought: number }
  | { status: 'already_entered'; tickets: number }
  | { status: 'at_max'; tickets: number }
  | { status: 'insufficient'; balance: number; cost: number }
  | { status: 'closed' };

export interface EnterInput {
  giveawayId: string;
  walletId: string;
  provider: ChannelProviderId;
  providerUserId: string;
  displayName: string;
  subscriber: boolean;
  /** Tickets wanted (keyword entries: 1). */
  tickets: number;
  /** Idempotency key of the payment (the effect id). */
  key: string;
  now: Date;
}

export interface NewWinner {
  place: number;
  walletId: string;
  provider: string;
  providerUserId: string;
  displayName: string;
  tickets: number;
}

class Refused<T> extends Error {
  constructor(readonly result: T) {
    super('refused');
  }
}

export class GiveawayRepository {
  constructor(
    private readonly db: Db,
    private readonly ledger: PointsLedger,
  ) {}

  private async tx<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(async (tx) => work(tx as unknown as Db));
    } catch (error) {
      if (error instanceof Refused) return error.result as T;
      throw error;
    }
  }

  async create(channelId: string, s: GiveawaySettings, createdBy: string): Promise<GiveawayRow> {
    const [row] = await this.db
      .insert(giveaways)
      .values({ id: newId(), channelId, ...columns(s), status: 'draft', createdBy })
      .returning();
    return row!;
  }

  /** Changes a giveaway that has not opened yet; null when it has. */
  async update(channelId: string, id: string, s: GiveawaySettings): Promise<GiveawayRow | null> {
    const [row] = await this.db
      .update(giveaways)
      .set({ ...columns(s), updatedAt: sql`now()` })
      .where(and(eq(giveaways.channelId, channelId), eq(giveaways.id, id), eq(giveaways.status, 'draft')))
      .returning();
    return row ?? null;
  }

  /** Deletes a giveaway that holds no points (not opened, cancelled, or drawn); false otherwise. */
  async delete(channelId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(giveaways)
      .where(and(eq(giveaways.channelId, channelId), eq(giveaways.id, id), inArray(giveaways.status, ['draft', 'cancelled', 'drawn'])))
      .returning({ id: giveaways.id });
    return rows.length > 0;
  }

  async get(channelId: string, id: string): Promise<GiveawayRow | null> {
    const [row] = await this.db
      .select()
      .from(giveaways)
      .where(and(eq(giveaways.channelId, channelId), eq(giveaways.id, id)));
    return row ?? null;
  }

  /** Newest first; `before` is the id of the last row of the previous page. */
  async list(channelId: string, q: { before?: string; limit: number }): Promise<GiveawayRow[]> {
    return this.db
      .select()
      .from(giveaways)
      .where(and(eq(giveaways.channelId, channelId), q.before ? lt(giveaways.id, q.before) : undefined))
      .orderBy(desc(giveaways.id))
      .limit(q.limit);
  }

  /** Giveaways taking entries, and drawn ones whose winners may still be claiming (loaded at start). */
  async active(): Promise<GiveawayRow[]> {
    return this.db
      .select()
      .from(giveaways)
      .where(inArray(giveaways.status, ['open', 'drawn']));
  }

  async winners(giveawayIds: string[]): Promise<WinnerRow[]> {
    if (giveawayIds.length === 0) return [];
    return this.db.select().from(giveawayWinners).where(inArray(giveawayWinners.giveawayId, giveawayIds)).orderBy(asc(giveawayWinners.id));
  }

  async winner(id: string): Promise<WinnerRow | null> {
    const [row] = await this.db.select().from(giveawayWinners).where(eq(giveawayWinners.id, id));
    return row ?? null;
  }

  /**
   * A page of entries, most tickets first, then earliest, then by wallet, after `after` (the previous
   * page's last row): read in the order of `giveaway_entries_order`. `key` is each row's place in that
   * order at full precision (the entry time to the microsecond), for the next page's `after`.
   */
  async entries(
    giveawayId: string,
    q: { after?: { tickets: number; enteredAt: string; walletId: string }; limit: number },
  ): Promise<(EntryRow & { enteredAtKey: string })[]> {
    const after = q.after
      ? [
          lte(giveawayEntries.tickets, q.after.tickets),
          or(
            lt(giveawayEntries.tickets, q.after.tickets),
            sql`(${giveawayEntries.enteredAt}, ${giveawayEntries.walletId}) > (${q.after.enteredAt}::timestamptz, ${q.after.walletId})`,
          ),
        ]
      : [];
    const rows = await this.db
      .select({
        entry: giveawayEntries,
        enteredAtKey: sql<string>`to_char(${giveawayEntries.enteredAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      })
      .from(giveawayEntries)
      .where(and(eq(giveawayEntries.giveawayId, giveawayId), ...after))
      .orderBy(desc(giveawayEntries.tickets), asc(giveawayEntries.enteredAt), asc(giveawayEntries.walletId))
      .limit(q.limit);
    return rows.map((r) => ({ ...r.entry, enteredAtKey: r.enteredAtKey }));
  }

  /** Every entry's weight ×10 summed (tickets × 10, or × the subscriber luck ×10 for subscribers). */
  async totalWeight10(giveawayId: string, subLuck10: number): Promise<number> {
    const [row] = await this.db
      .select({
        w: sql<string>`coalesce(sum(${giveawayEntries.tickets}::bigint * CASE WHEN ${giveawayEntries.subscriber} THEN ${subLuck10}::int ELSE 10 END), 0)`,
      })
      .from(giveawayEntries)
      .where(eq(giveawayEntries.giveawayId, giveawayId));
    return Number(row?.w ?? 0);
  }

  /** Every entry (the draw). */
  async allEntries(giveawayId: string): Promise<EntryRow[]> {
    return this.db.select().from(giveawayEntries).where(eq(giveawayEntries.giveawayId, giveawayId));
  }

  async open(channelId: string, id: string, now: Date, closesAt: Date | null): Promise<GiveawayRow | null> {
    const [row] = await this.db
      .update(giveaways)
      .set({ status: 'open', openedAt: now, closesAt, updatedAt: now })
      .where(and(eq(giveaways.channelId, channelId), eq(giveaways.id, id), eq(giveaways.status, 'draft')))
      .returning();
    return row ?? null;
  }

  async openOne(channelId: string): Promise<GiveawayRow | null> {
    const [row] = await this.db
      .select()
      .from(giveaways)
      .where(and(eq(giveaways.channelId, channelId), eq(giveaways.status, 'open')));
    return row ?? null;
  }

  async close(channelId: string, id: string, now: Date): Promise<GiveawayRow | null> {
    const [row] = await this.db
      .update(giveaways)
      .set({ status: 'closed', closedAt: now, updatedAt: now })
      .where(and(eq(giveaways.channelId, channelId), eq(giveaways.id, id), eq(giveaways.status, 'open')))
      .returning();
    return row ?? null;
  }

  /** Closes every giveaway whose timer ran out; each is returned by exactly one caller. */
  async closeDue(now: Date): Promise<GiveawayRow[]> {
    return this.db
      .update(giveaways)
      .set({ status: 'closed', closedAt: now, updatedAt: now })
      .where(and(eq(giveaways.status, 'open'), lte(giveaways.closesAt, now)))
      .returning();
  }

  /**
   * An entry from chat. Keyword giveaways: one entry per viewer. Ticket giveaways: buys up to the
   * tickets wanted within the maximum, paid in the same transaction (refused whole if the balance
   * does not cover it); the same key never pays twice.
   */
  async enter(input: EnterInput): Promise<EnterResult> {
    return this.tx(async (tx): Promise<EnterResult> => {
      const [g] = await tx.select().from(giveaways).where(eq(giveaways.id, input.giveawayId)).for('update');
      if (!g || g.status !== 'open' || (g.closesAt && g.closesAt <= input.now)) return { status: 'closed' };
      const [existing] = await tx
        .select()
        .from(giveawayEntries)
        .where(and(eq(giveawayEntries.giveawayId, g.id), eq(giveawayEntries.walletId, input.walletId)));
      const have = existing?.tickets ?? 0;
      if (g.entryMode === 'keyword') {
        if (existing) return { status: 'already_entered', tickets: have };
        await tx.insert(giveawayEntries).values(entryValues(input, 1, 0));
        await tx
          .update(giveaways)
          .set({ entryCount: sql`${giveaways.entryCount} + 1`, ticketCount: sql`${giveaways.ticketCount} + 1`, updatedAt: input.now })
          .where(eq(giveaways.id, g.id));
        return { status: 'entered', tickets: 1, bought: 1 };
      }
      const buy = Math.min(input.tickets, g.maxTickets - have);
      if (buy <= 0) return { status: 'at_max', tickets: have };
      const cost = buy * Number(g.ticketCost);
      let paid: 'applied' | 'duplicate';
      try {
        paid = await this.ledger.debit(tx, {
          channelId: g.channelId,
          walletId: input.walletId,
          amount: cost,
          kind: 'ticket',
          key: input.key,
          note: `${buy} ticket${buy === 1 ? '' : 's'} for “${g.title}”`,
        });
      } catch (error) {
        if (error instanceof InsufficientPoints) throw new Refused<EnterResult>({ status: 'insufficient', balance: error.balance, cost });
        throw error;
      }
      if (paid === 'duplicate') return { status: 'entered', tickets: have, bought: 0 };
      if (existing) {
        await tx
          .update(giveawayEntries)
          .set({
            tickets: sql`${giveawayEntries.tickets} + ${buy}`,
            paid: sql`${giveawayEntries.paid} + ${cost}`,
            subscriber: existing.subscriber || input.subscriber,
          })
          .where(and(eq(giveawayEntries.giveawayId, g.id), eq(giveawayEntries.walletId, input.walletId)));
      } else await tx.insert(giveawayEntries).values(entryValues(input, buy, cost));
      await tx
        .update(giveaways)
        .set({
          entryCount: sql`${giveaways.entryCount} + ${existing ? 0 : 1}`,
          ticketCount: sql`${giveaways.ticketCount} + ${buy}`,
          updatedAt: input.now,
        })
        .where(eq(giveaways.id, g.id));
      return { status: 'entered', tickets: have + buy, bought: buy };
    });
  }

  /** Records the drawn winners if the giveaway is still undrawn (open or closed); null when it is not. */
  async drawn(channelId: string, id: string, now: Date, winners: NewWinner[], claimSeconds: number): Promise<GiveawayRow | null> {
    return this.tx(async (tx) => {
      const [g] = await tx
        .update(giveaways)
        .set({
          status: 'drawn',
          drawnAt: now,
          closedAt: sql`coalesce(${giveaways.closedAt}, ${now.toISOString()}::timestamptz)`,
          updatedAt: now,
        })
        .where(and(eq(giveaways.channelId, channelId), eq(giveaways.id, id), inArray(giveaways.status, ['open', 'closed'])))
        .returning();
      if (!g) return null;
      if (winners.length > 0) await tx.insert(giveawayWinners).values(winners.map((w) => winnerValues(id, w, now, claimSeconds)));
      return g;
    });
  }

  /**
   * Replaces a winner who did not claim (or whom staff re-roll) by `next`, in the same place. Null
   * when the winner was already claimed or replaced.
   */
  async reroll(giveawayId: string, winnerId: string, next: NewWinner | null, now: Date, claimSeconds: number): Promise<WinnerRow | null> {
    return this.tx(async (tx) => {
      const [old] = await tx
        .update(giveawayWinners)
        .set({ status: 'rerolled' })
        .where(
          and(
            eq(giveawayWinners.id, winnerId),
            eq(giveawayWinners.giveawayId, giveawayId),
            inArray(giveawayWinners.status, ['pending', 'expired', 'claimed']),
          ),
        )
        .returning();
      if (!old) return null;
      if (next) await tx.insert(giveawayWinners).values(winnerValues(giveawayId, next, now, claimSeconds));
      await tx.update(giveaways).set({ updatedAt: now }).where(eq(giveaways.id, giveawayId));
      return old;
    });
  }

  /**
   * A winner wrote in chat: their line is kept (at most the last few), and a pending claim made
   * before its deadline is claimed. The winner as it now is, and whether this line claimed it.
   */
  async winnerChat(winnerId: string, message: WinnerMessage): Promise<{ winner: WinnerRow; claimed: boolean } | null> {
    const at = new Date(message.at);
    const [claimed] = await this.db
      .update(giveawayWinners)
      .set({ status: 'claimed', claimedAt: at, messages: appendMessage(message) })
      .where(
        and(
          eq(giveawayWinners.id, winnerId),
          eq(giveawayWinners.status, 'pending'),
          sql`${giveawayWinners.claimDeadline} >= ${at.toISOString()}::timestamptz`,
        ),
      )
      .returning();
    if (claimed) return { winner: claimed, claimed: true };
    const [kept] = await this.db
      .update(giveawayWinners)
      .set({ messages: appendMessage(message) })
      .where(and(eq(giveawayWinners.id, winnerId), inArray(giveawayWinners.status, ['pending', 'claimed', 'expired'])))
      .returning();
    return kept ? { winner: kept, claimed: false } : null;
  }

  /** Pending claims past their deadline become expired; each returned once. */
  async expireDue(now: Date): Promise<WinnerRow[]> {
    return this.db
      .update(giveawayWinners)
      .set({ status: 'expired' })
      .where(and(eq(giveawayWinners.status, 'pending'), lt(giveawayWinners.claimDeadline, now)))
      .returning();
  }

  async giveawayOf(id: string): Promise<GiveawayRow | null> {
    const [row] = await this.db.select().from(giveaways).where(eq(giveaways.id, id));
    return row ?? null;
  }

  /** Cancels a giveaway that is not drawn and refunds every ticket, in one transaction; the refunds made. */
  async cancel(channelId: string, id: string, now: Date): Promise<{ giveaway: GiveawayRow; refunded: number } | null> {
    return this.tx(async (tx) => {
      const [g] = await tx
        .update(giveaways)
        .set({ status: 'cancelled', closedAt: sql`coalesce(${giveaways.closedAt}, ${now.toISOString()}::timestamptz)`, updatedAt: now })
        .where(and(eq(giveaways.channelId, channelId), eq(giveaways.id, id), inArray(giveaways.status, ['draft', 'open', 'closed'])))
        .returning();
      if (!g) return null;
      const paid = await tx
        .select()
        .from(giveawayEntries)
        .where(and(eq(giveawayEntries.giveawayId, id), sql`${giveawayEntries.paid} > 0`));
      for (const e of paid) {
        await this.ledger.credit(tx, {
          channelId,
          walletId: e.walletId,
          amount: Number(e.paid),
          kind: 'refund',
          key: `refund:${id}:${e.walletId}`,
          note: `Tickets for “${g.title}” (cancelled)`,
        });
      }
      return { giveaway: g, refunded: paid.length };
    });
  }

  /** Two wallets became one: their entries and wins follow (entries in the same giveaway are added together). */
  async walletsMerged(tx: Db, m: { from: string; to: string }): Promise<void> {
    await tx.execute(sql`
      UPDATE ${giveawayEntries} AS t SET tickets = t.tickets + f.tickets, paid = t.paid + f.paid, subscriber = t.subscriber OR f.subscriber
      FROM ${giveawayEntries} AS f
      WHERE f.wallet_id = ${m.from} AND t.wallet_id = ${m.to} AND t.giveaway_id = f.giveaway_id`);
    await tx.execute(sql`
      DELETE FROM ${giveawayEntries} AS f
      WHERE f.wallet_id = ${m.from} AND EXISTS (SELECT 1 FROM ${giveawayEntries} t WHERE t.giveaway_id = f.giveaway_id AND t.wallet_id = ${m.to})`);
    await tx.update(giveawayEntries).set({ walletId: m.to }).where(eq(giveawayEntries.walletId, m.from));
    await tx.update(giveawayWinners).set({ walletId: m.to }).where(eq(giveawayWinners.walletId, m.from));
  }
}

function columns(s: GiveawaySettings) {
  return {
    title: s.title,
    entryMode: s.entry_mode,
    keyword: s.keyword,
    ticketCost: s.ticket_cost,
    maxTickets: s.max_tickets,
    minLevel: s.min_level,
    platforms: s.platforms,
    subLuck: s.sub_luck,
    winners: s.winners,
    durationSeconds: s.duration_seconds,
    claimSeconds: s.claim_seconds,
  };
}

function entryValues(input: EnterInput, tickets: number, paid: number): typeof giveawayEntries.$inferInsert {
  return {
    giveawayId: input.giveawayId,
    walletId: input.walletId,
    provider: input.provider,
    providerUserId: input.providerUserId,
    displayName: input.displayName,
    tickets,
    paid,
    subscriber: input.subscriber,
    enteredAt: input.now,
  };
}

function winnerValues(giveawayId: string, w: NewWinner, now: Date, claimSeconds: number): typeof giveawayWinners.$inferInsert {
  const status: WinnerStatus = claimSeconds > 0 ? 'pending' : 'claimed';
  return {
    id: newId(now.getTime()),
    giveawayId,
    place: w.place,
    walletId: w.walletId,
    provider: w.provider,
    providerUserId: w.providerUserId,
    displayName: w.displayName,
    tickets: w.tickets,
    status,
    drawnAt: now,
    claimDeadline: claimSeconds > 0 ? new Date(now.getTime() + claimSeconds * 1000) : null,
    claimedAt: claimSeconds > 0 ? null : now,
  };
}

/** Appends a line to a winner's messages, keeping the last few. */
function appendMessage(m: WinnerMessage) {
  return sql`(
    SELECT coalesce(jsonb_agg(x ORDER BY n), '[]'::jsonb) FROM (
      SELECT x, n FROM jsonb_array_elements(${giveawayWinners.messages} || ${JSON.stringify([m])}::jsonb) WITH ORDINALITY AS a(x, n)
      ORDER BY n DESC LIMIT ${WINNER_MESSAGES_MAX}
    ) kept
  )`;
}

export type { GiveawayStatus };
