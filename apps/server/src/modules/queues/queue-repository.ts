/**
 * Viewer queues in the database. Every change to a queue's line (join, leave, pick, remove, move,
 * clear, status) runs in a transaction that first locks the queue's row, so changes to one queue
 * happen one at a time: positions stay 1…n without gaps or duplicates, the size and the maximum
 * hold, and a viewer waits at most once (also a unique index).
 */
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { QueueSettings, QueueStatus } from '@greenroom/contracts/api/queues';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { queueEntries, queues } from '../../db/schema';
import { newId } from '../../lib/ids';
import type { RandomSource } from '../../lib/random';

export type QueueRow = typeof queues.$inferSelect;
export type QueueEntryRow = typeof queueEntries.$inferSelect;

export type JoinResult =
  | { status: 'joined'; position: number; size: number; closedWhenFull: boolean }
  | { status: 'already'; position: number; size: number }
  | { status: 'closed' }
  | { status: 'paused' }
  | { status: 'full'; max: number }
  | { status: 'cooldown'; seconds: number };

export interface JoinInput {
  walletId: string;
  provider: ChannelProviderId;
  providerUserId: string;
  displayName: string;
  subscriber: boolean;
  now: Date;
}

export type PickMode = { mode: 'next' } | { mode: 'random' } | { mode: 'name'; name: string };

class Refused<T> extends Error {
  constructor(readonly result: T) {
    super('refused');
  }
}

export class QueueRepository {
  constructor(private readonly db: Db) {}

  /** Runs `work` holding the queue's row lock; null when the queue is not in the channel. */
  private async locked<T>(channelId: string, queueId: string, work: (tx: Db, q: QueueRow) => Promise<T>): Promise<T | null> {
    try {
      return await this.db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [q] = await tx
          .select()
          .from(queues)
          .where(and(eq(queues.channelId, channelId), eq(queues.id, queueId)))
          .for('update');
        if (!q) return null;
        return work(tx, q);
      });
    } catch (error) {
      if (error instanceof Refused) return error.result as T;
      throw error;
    }
  }

  async list(channelId: string): Promise<QueueRow[]> {
    return this.db.select().from(queues).where(eq(queues.channelId, channelId)).orderBy(desc(queues.id));
  }

  async get(channelId: string, id: string): Promise<QueueRow | null> {
    const [row] = await this.db
      .select()
      .from(queues)
      .where(and(eq(queues.channelId, channelId), eq(queues.id, id)));
    return row ?? null;
  }

  /** The queue chat commands use: the one open or paused. */
  async active(channelId: string): Promise<QueueRow | null> {
    const [row] = await this.db
      .select()
      .from(queues)
      .where(and(eq(queues.channelId, channelId), ne(queues.status, 'closed')))
      .limit(1);
    return row ?? null;
  }

  async create(channelId: string, s: QueueSettings): Promise<QueueRow> {
    const [row] = await this.db
      .insert(queues)
      .values({
        id: newId(),
        channelId,
        name: s.name,
        maxSize: s.max_size,
        autoClose: s.auto_close,
        joinCooldownSeconds: s.join_cooldown_seconds,
        subPriority: s.sub_priority,
      })
      .returning();
    return row!;
  }

  async update(channelId: string, id: string, s: QueueSettings): Promise<QueueRow | null> {
    const [row] = await this.db
      .update(queues)
      .set({
        name: s.name,
        maxSize: s.max_size,
        autoClose: s.auto_close,
        joinCooldownSeconds: s.join_cooldown_seconds,
        subPriority: s.sub_priority,
        updatedAt: sql`now()`,
      })
      .where(and(eq(queues.channelId, channelId), eq(queues.id, id)))
      .returning();
    return row ?? null;
  }

  async delete(channelId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(queues)
      .where(and(eq(queues.channelId, channelId), eq(queues.id, id)))
      .returning({ id: queues.id });
    return rows.length > 0;
  }

  /** Sets the status (the one-active-queue index refuses a second open or paused queue: the caller explains). */
  async setStatus(channelId: string, id: string, status: QueueStatus): Promise<QueueRow | null> {
    return this.locked(channelId, id, async (tx) => {
      const [row] = await tx
        .update(queues)
        .set({ status, updatedAt: sql`now()` })
        .where(eq(queues.id, id))
        .returning();
      return row!;
    });
  }

  async waiting(queueId: string, limit: number): Promise<QueueEntryRow[]> {
    return this.db
      .select()
      .from(queueEntries)
      .where(and(eq(queueEntries.queueId, queueId), eq(queueEntries.status, 'waiting')))
      .orderBy(asc(queueEntries.position))
      .limit(limit);
  }

  async picked(queueId: string, limit: number): Promise<QueueEntryRow[]> {
    return this.db
      .select()
      .from(queueEntries)
      .where(and(eq(queueEntries.queueId, queueId), eq(queueEntries.status, 'picked')))
      .orderBy(desc(queueEntries.endedAt))
      .limit(limit);
  }

  async waitingEntryOf(queueId: string, walletId: string): Promise<QueueEntryRow | null> {
    const [row] = await this.db
      .select()
      .from(queueEntries)
      .where(and(eq(queueEntries.queueId, queueId), eq(queueEntries.walletId, walletId), eq(queueEntries.status, 'waiting')));
    return row ?? null;
  }

  /**
   * A viewer joins: refused when the queue is closed or paused, full, or the viewer's cooldown
   * (since they last left or were picked) runs. Subscribers join after the other subscribers
   * waiting when the queue gives them priority. A full queue that auto-closes closes here.
   */
  async join(channelId: string, queueId: string, input: JoinInput): Promise<JoinResult | null> {
    return this.locked(channelId, queueId, async (tx, q): Promise<JoinResult> => {
      const [mine] = await tx
        .select()
        .from(queueEntries)
        .where(and(eq(queueEntries.queueId, queueId), eq(queueEntries.walletId, input.walletId), eq(queueEntries.status, 'waiting')));
      if (mine) return { status: 'already', position: mine.position!, size: q.size };
      if (q.status === 'closed') return { status: 'closed' };
      if (q.status === 'paused') return { status: 'paused' };
      if (q.maxSize > 0 && q.size >= q.maxSize) return { status: 'full', max: q.maxSize };
      if (q.joinCooldownSeconds > 0) {
        const [last] = await tx
          .select({ endedAt: queueEntries.endedAt })
          .from(queueEntries)
          .where(
            and(
              eq(queueEntries.queueId, queueId),
              eq(queueEntries.walletId, input.walletId),
              inArray(queueEntries.status, ['left', 'picked']),
              isNotNull(queueEntries.endedAt),
            ),
          )
          .orderBy(desc(queueEntries.endedAt))
          .limit(1);
        const until = last?.endedAt ? last.endedAt.getTime() + q.joinCooldownSeconds * 1000 : 0;
        if (until > input.now.getTime()) return { status: 'cooldown', seconds: Math.ceil((until - input.now.getTime()) / 1000) };
      }
      const priority = q.subPriority && input.subscriber;
      let position = q.size + 1;
      if (priority) {
        const [count] = await tx
          .select({ n: sql<number>`count(*)` })
          .from(queueEntries)
          .where(and(eq(queueEntries.queueId, queueId), eq(queueEntries.status, 'waiting'), eq(queueEntries.priority, true)));
        position = Number(count?.n ?? 0) + 1;
        await tx
          .update(queueEntries)
          .set({ position: sql`${queueEntries.position} + 1` })
          .where(and(eq(queueEntries.queueId, queueId), eq(queueEntries.status, 'waiting'), gte(queueEntries.position, position)));
      }
      await tx.insert(queueEntries).values({
        id: newId(input.now.getTime()),
        queueId,
        walletId: input.walletId,
        provider: input.provider,
        providerUserId: input.providerUserId,
        displayName: input.displayName,
        priority,
        status: 'waiting',
        position,
        joinedAt: input.now,
      });
      const size = q.size + 1;
      const closedWhenFull = q.autoClose && q.maxSize > 0 && size >= q.maxSize;
      await tx
        .update(queues)
        .set({ size, ...(closedWhenFull ? { status: 'closed' as const } : {}), updatedAt: sql`now()` })
        .where(eq(queues.id, queueId));
      return { status: 'joined', position, size, closedWhenFull };
    });
  }

  /** Takes a waiting entry out of the line (left, picked or removed); the entry, or null if it was not waiting. */
  private async takeOut(
    tx: Db,
    q: QueueRow,
    entry: QueueEntryRow,
    status: 'left' | 'picked' | 'removed',
    now: Date,
  ): Promise<QueueEntryRow> {
    const [gone] = await tx
      .update(queueEntries)
      .set({ status, position: null, endedAt: now })
      .where(eq(queueEntries.id, entry.id))
      .returning();
    await tx
      .update(queueEntries)
      .set({ position: sql`${queueEntries.position} - 1` })
      .where(and(eq(queueEntries.queueId, q.id), eq(queueEntries.status, 'waiting'), gt(queueEntries.position, entry.position!)));
    await tx
      .update(queues)
      .set({ size: sql`${queues.size} - 1`, updatedAt: sql`now()` })
      .where(eq(queues.id, q.id));
    return gone!;
  }

  async leave(channelId: string, queueId: string, walletId: string, now: Date): Promise<QueueEntryRow | null> {
    return this.locked(channelId, queueId, async (tx, q) => {
      const [mine] = await tx
        .select()
        .from(queueEntries)
        .where(and(eq(queueEntries.queueId, queueId), eq(queueEntries.walletId, walletId), eq(queueEntries.status, 'waiting')));
      return mine ? this.takeOut(tx, q, mine, 'left', now) : null;
    });
  }

  /** Picks the next viewer, one at random, or one by name; null when the queue is not in the channel. */
  async pick(
    channelId: string,
    queueId: string,
    mode: PickMode,
    random: RandomSource,
    now: Date,
  ): Promise<{ status: 'picked'; entry: QueueEntryRow } | { status: 'none' } | null> {
    return this.locked(channelId, queueId, async (tx, q): Promise<{ status: 'picked'; entry: QueueEntryRow } | { status: 'none' }> => {
      let entry: QueueEntryRow | undefined;
      const waiting = and(eq(queueEntries.queueId, queueId), eq(queueEntries.status, 'waiting'));
      if (mode.mode === 'next') {
        [entry] = await tx
          .select()
          .from(queueEntries)
          .where(and(waiting, eq(queueEntries.position, 1)));
      } else if (mode.mode === 'random') {
        if (q.size > 0)
          [entry] = await tx
            .select()
            .from(queueEntries)
            .where(and(waiting, eq(queueEntries.position, 1 + random.int(q.size))));
      } else {
        const name = mode.name.replace(/^@+/u, '').toLowerCase();
        [entry] = await tx
          .select()
          .from(queueEntries)
          .where(and(waiting, sql`lower(${queueEntries.displayName}) = ${name}`))
          .orderBy(asc(queueEntries.position))
          .limit(1);
      }
      if (!entry) return { status: 'none' };
      return { status: 'picked', entry: await this.takeOut(tx, q, entry, 'picked', now) };
    });
  }

  async remove(channelId: string, queueId: string, entryId: string, now: Date): Promise<QueueEntryRow | null> {
    return this.locked(channelId, queueId, async (tx, q) => {
      const [entry] = await tx
        .select()
        .from(queueEntries)
        .where(and(eq(queueEntries.queueId, queueId), eq(queueEntries.id, entryId), eq(queueEntries.status, 'waiting')));
      return entry ? this.takeOut(tx, q, entry, 'removed', now) : null;
    });
  }

  /** Moves a waiting entry to `position` (clamped to the line); the others shift by one. */
  async move(channelId: string, queueId: string, entryId: string, position: number): Promise<boolean> {
    const moved = await this.locked(channelId, queueId, async (tx, q) => {
      const [entry] = await tx
        .select()
        .from(queueEntries)
        .where(and(eq(queueEntries.queueId, queueId), eq(queueEntries.id, entryId), eq(queueEntries.status, 'waiting')));
      if (!entry) return false;
      const from = entry.position!;
      const to = Math.max(1, Math.min(position, q.size));
      if (to === from) return true;
      const waiting = and(eq(queueEntries.queueId, queueId), eq(queueEntries.status, 'waiting'), ne(queueEntries.id, entryId));
      if (to < from)
        await tx
          .update(queueEntries)
          .set({ position: sql`${queueEntries.position} + 1` })
          .where(and(waiting, gte(queueEntries.position, to), lte(queueEntries.position, from - 1)));
      else
        await tx
          .update(queueEntries)
          .set({ position: sql`${queueEntries.position} - 1` })
          .where(and(waiting, gte(queueEntries.position, from + 1), lte(queueEntries.position, to)));
      await tx.update(queueEntries).set({ position: to }).where(eq(queueEntries.id, entryId));
      await tx
        .update(queues)
        .set({ updatedAt: sql`now()` })
        .where(eq(queues.id, queueId));
      return true;
    });
    return moved === true;
  }

  /** Empties the line (everyone removed). */
  async clear(channelId: string, queueId: string, now: Date): Promise<boolean> {
    const done = await this.locked(channelId, queueId, async (tx) => {
      await tx
        .update(queueEntries)
        .set({ status: 'removed', position: null, endedAt: now })
        .where(and(eq(queueEntries.queueId, queueId), eq(queueEntries.status, 'waiting')));
      await tx
        .update(queues)
        .set({ size: 0, updatedAt: sql`now()` })
        .where(eq(queues.id, queueId));
      return true;
    });
    return done === true;
  }

  /** Two wallets became one: a waiting place follows (if both wait in one queue, the later place goes). */
  async walletsMerged(tx: Db, m: { from: string; to: string }): Promise<void> {
    const both = await tx.execute(sql`
      SELECT f.id AS from_id, t.id AS to_id, f.queue_id, f.position AS from_pos, t.position AS to_pos
      FROM ${queueEntries} f JOIN ${queueEntries} t ON t.queue_id = f.queue_id AND t.wallet_id = ${m.to} AND t.status = 'waiting'
      WHERE f.wallet_id = ${m.from} AND f.status = 'waiting'`);
    for (const r of (both as { rows: { from_id: string; to_id: string; queue_id: string; from_pos: number; to_pos: number }[] }).rows) {
      const drop = Number(r.from_pos) > Number(r.to_pos) ? r.from_id : r.to_id;
      const pos = Math.max(Number(r.from_pos), Number(r.to_pos));
      await tx
        .update(queueEntries)
        .set({ status: 'removed', position: null, endedAt: sql`now()` })
        .where(eq(queueEntries.id, drop));
      await tx
        .update(queueEntries)
        .set({ position: sql`${queueEntries.position} - 1` })
        .where(and(eq(queueEntries.queueId, r.queue_id), eq(queueEntries.status, 'waiting'), gt(queueEntries.position, pos)));
      await tx
        .update(queues)
        .set({ size: sql`${queues.size} - 1` })
        .where(eq(queues.id, r.queue_id));
    }
    await tx.update(queueEntries).set({ walletId: m.to }).where(eq(queueEntries.walletId, m.from));
  }
}
