/**
 * Timers: the editor's CRUD and the schedule. A timer's next run is a row field (`next_run_at`), so
 * schedules survive restarts; a run is claimed with one conditional UPDATE (`… WHERE next_run_at <=
 * now() RETURNING`), so it fires once even with several workers. The timers of a channel are
 * staggered: a new run time is moved until it is at least `STAGGER_MS` from every other timer of the
 * channel, so they never fire together.
 */
import { and, asc, eq, isNotNull, lte, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { ChatTimer, timerBodySchema } from '@greenroom/contracts/api/chatbot';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { chatTimers } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { lockChannel } from './command-service';
import { messageLimitOf } from './domain/commands';
import type { TimerImportContext } from './domain/timer-import';

export type TimerInput = z.output<typeof timerBodySchema>;
type Row = typeof chatTimers.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Least time between two timers of a channel. */
export const STAGGER_MS = 30_000;
/** When a due timer is skipped (too few lines, offline), it is looked at again after this. */
export const RECHECK_MS = 60_000;

export function toTimerDto(row: Row): ChatTimer {
  return {
    id: row.id,
    name: row.name,
    messages: row.messages,
    interval_minutes: row.intervalMinutes,
    min_lines: row.minLines,
    online_only: row.onlineOnly,
    platforms: row.platforms as ChannelProviderId[],
    enabled: row.enabled,
    next_run_at: row.nextRunAt?.toISOString() ?? null,
    last_run_at: row.lastRunAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The first time at or after `wanted` that is `STAGGER_MS` away from every time in `taken`. */
export function staggered(wanted: number, taken: readonly number[]): number {
  let at = wanted;
  for (let i = 0; i < 200; i++) {
    const clash = taken.find((t) => Math.abs(t - at) < STAGGER_MS);
    if (clash === undefined) return at;
    at = clash + STAGGER_MS;
  }
  return at;
}

export class TimerService {
  constructor(
    private readonly db: Db,
    /** Platforms connected to the channel (a timer's messages must fit the smallest limit of theirs). */
    private readonly connectedProviders: (channelId: string, exec?: Db | Tx) => Promise<ChannelProviderId[]>,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(channelId: string): Promise<ChatTimer[]> {
    const rows = await this.db.select().from(chatTimers).where(eq(chatTimers.channelId, channelId)).orderBy(asc(chatTimers.name));
    return rows.map(toTimerDto);
  }

  async get(channelId: string, id: string): Promise<ChatTimer> {
    return toTimerDto(await this.row(channelId, id));
  }

  private async row(channelId: string, id: string): Promise<Row> {
    const [row] = await this.db
      .select()
      .from(chatTimers)
      .where(and(eq(chatTimers.channelId, channelId), eq(chatTimers.id, id)));
    if (!row) throw notFound('This timer does not exist.');
    return row;
  }

  async create(channelId: string, input: TimerInput): Promise<ChatTimer> {
    return toTimerDto(await this.db.transaction((tx) => this.insert(tx, channelId, input)));
  }

  async update(channelId: string, id: string, input: TimerInput): Promise<ChatTimer> {
    const current = await this.row(channelId, id);
    const row = await this.db.transaction(async (tx) => {
      // A changed interval or a timer switched on starts a fresh wait; otherwise the schedule stays.
      const reschedule = input.enabled && (!current.enabled || current.intervalMinutes !== input.interval_minutes || !current.nextRunAt);
      const nextRunAt = !input.enabled
        ? null
        : reschedule
          ? await this.nextRun(tx, channelId, id, input.interval_minutes * 60_000)
          : current.nextRunAt;
      const [updated] = await tx
        .update(chatTimers)
        .set({
          ...this.values(input),
          nextRunAt,
          nextIndex: current.nextIndex % Math.max(1, input.messages.length),
          updatedAt: new Date(),
        })
        .where(and(eq(chatTimers.channelId, channelId), eq(chatTimers.id, id)))
        .returning();
      return updated!;
    });
    return toTimerDto(row);
  }

  /** What an import preview checks against: the channel's timer names and the message limit of its platforms. */
  async importContext(channelId: string, exec: Db | Tx = this.db): Promise<TimerImportContext> {
    const names = await exec.select({ name: chatTimers.name }).from(chatTimers).where(eq(chatTimers.channelId, channelId));
    return { takenNames: names.map((n) => n.name), messageLimit: messageLimitOf([], await this.connectedProviders(channelId, exec)) };
  }

  /**
   * Saves imported timers in one transaction, staggered like new ones, or none: `check` is given the context read
   * under the channel's lock and returns the field errors (`items.{n}…`) of the lines that clash now (a name taken
   * since the preview); any → 400 with all of them.
   */
  async importTimers(
    channelId: string,
    timers: readonly TimerInput[],
    check: (context: TimerImportContext) => Record<string, string>,
  ): Promise<ChatTimer[]> {
    const rows = await this.db.transaction(async (tx) => {
      await lockChannel(tx, channelId);
      const fields = check(await this.importContext(channelId, tx));
      const clashes = Object.values(fields);
      if (clashes.length > 0) {
        const more = clashes.length > 1 ? ` (and ${clashes.length - 1} more)` : '';
        throw badRequest(`Nothing was imported: ${clashes[0]}${more}.`, fields);
      }
      const saved: Row[] = [];
      for (const input of timers) saved.push(await this.insert(tx, channelId, input));
      return saved;
    });
    return rows.map(toTimerDto);
  }

  async remove(channelId: string, id: string): Promise<void> {
    const deleted = await this.db
      .delete(chatTimers)
      .where(and(eq(chatTimers.channelId, channelId), eq(chatTimers.id, id)))
      .returning({ id: chatTimers.id });
    if (deleted.length === 0) throw notFound('This timer does not exist.');
  }

  /** A new timer, its first run staggered from the channel's others (the ones inserted before it in `tx` too). */
  private async insert(tx: Tx, channelId: string, input: TimerInput): Promise<Row> {
    const id = newId();
    const nextRunAt = input.enabled ? await this.nextRun(tx, channelId, id, input.interval_minutes * 60_000) : null;
    const [created] = await tx
      .insert(chatTimers)
      .values({ id, channelId, ...this.values(input), nextRunAt })
      .returning();
    return created!;
  }

  private values(input: TimerInput) {
    return {
      name: input.name,
      messages: input.messages,
      intervalMinutes: input.interval_minutes,
      minLines: input.min_lines,
      onlineOnly: input.online_only,
      platforms: [...new Set(input.platforms)],
      enabled: input.enabled,
    };
  }

  /** A staggered run time `afterMs` from now. */
  private async nextRun(tx: Db | Tx, channelId: string, selfId: string, afterMs: number): Promise<Date> {
    const others = await tx
      .select({ at: chatTimers.nextRunAt })
      .from(chatTimers)
      .where(
        and(eq(chatTimers.channelId, channelId), ne(chatTimers.id, selfId), eq(chatTimers.enabled, true), isNotNull(chatTimers.nextRunAt)),
      );
    return new Date(
      staggered(
        this.clock() + afterMs,
        others.map((o) => o.at!.getTime()),
      ),
    );
  }

  /** Enabled timers whose run time has come (any channel). */
  async due(limit = 200): Promise<Row[]> {
    return this.db
      .select()
      .from(chatTimers)
      .where(and(eq(chatTimers.enabled, true), lte(chatTimers.nextRunAt, new Date(this.clock()))))
      .orderBy(asc(chatTimers.nextRunAt))
      .limit(limit);
  }

  /**
   * Claims a due run: moves `next_run_at` on (one interval for a run, `RECHECK_MS` for a skip) only if
   * it is still due. Exactly one caller gets the row back; for a run, the message index advances.
   */
  async claim(timer: Row, fire: boolean): Promise<Row | null> {
    const now = this.clock();
    const next = await this.nextRun(this.db, timer.channelId, timer.id, fire ? timer.intervalMinutes * 60_000 : RECHECK_MS);
    const [claimed] = await this.db
      .update(chatTimers)
      .set(
        fire
          ? { nextRunAt: next, lastRunAt: new Date(now), nextIndex: (timer.nextIndex + 1) % Math.max(1, timer.messages.length) }
          : { nextRunAt: next },
      )
      .where(and(eq(chatTimers.id, timer.id), eq(chatTimers.enabled, true), lte(chatTimers.nextRunAt, new Date(now))))
      .returning();
    return claimed ?? null;
  }
}
