/**
 * Runs the effects stages stored with their message (table `pipeline_effects`) after the commit, by
 * the handler registered for each kind.
 *
 * Exactly once: an effect is CLAIMED (status `running`, in its own committed UPDATE) before its
 * handler runs, and marked `done` after. If the process dies between the two, the outcome is
 * unknown: at the next start the effect is run again only if its handler declares itself
 * `idempotent` (running it twice does no harm, e.g. a deletion on the platform); otherwise it is
 * marked `interrupted` and never run again — a bot reply is never sent twice. The same holds for a
 * run that outlives `timeoutMs`. With several instances on one database (`alone: false`), another
 * instance's claim is settled so only once it is older than any live run can be (the longest
 * handler timeout plus a grace), looked for at every backstop poll; a live instance's claims are
 * never touched. Statements are shared: one claim takes every due effect it has room for; `done`
 * is written for the effects finishing within a few ms (`DONE_LINGER_MS`) in one statement, or in
 * the next claim's statement if one comes first; a run that ends looks for more only when the last
 * claim filled its room (anything stored later nudges the outbox itself).
 *
 * Effects a handler applies in the statement that stores their messages (`applyInStatement`, e.g. points credits) never come here
 * unless their batch had to be written row by row; the outbox holds what calls a platform.
 *
 * A handler that THROWS is telling us the effect did not happen: it is retried with backoff
 * (1 s, 2 s, 4 s … at most 5 min) up to `maxAttempts` (default 5), then marked `failed` and logged.
 * A handler that throws `EffectRefused` says it can never happen: it is marked `failed` at once, with that reason.
 * Effects never block chat: they run beside the pipeline, a few at a time, and an effect whose kind
 * has no handler waits untouched until one is registered (logged at start) without holding others back.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { pipelineEffects } from '../db/schema';
import { newId } from '../lib/ids';
import { EffectRefused, type EffectHandler, type PipelineEffect } from './stage';

export interface OutboxOptions {
  /** Effects run at once (default 8). */
  concurrency?: number;
  /** Default attempts before an effect is marked failed (default 5; a handler may set its own). */
  maxAttempts?: number;
  /** A run still going after this long counts as interrupted (default 30 s). */
  timeoutMs?: number;
  /**
   * How often due effects are looked for without a nudge (default 30 s): a backstop for effects
   * stored by another instance (a channel that moved) and, with other instances, for their orphaned
   * claims. This process's own retries are woken by a timer at their due time, and a commit that
   * stored effects nudges at once, so an idle outbox costs the database nothing in between.
   */
  pollMs?: number;
  /**
   * Whether this process is the only one running effects on this database (default true). Alone,
   * every claim not made by this process at its start is an orphan of a stopped process. With other
   * instances, a claim of another instance is an orphan only once it is older than the longest
   * handler timeout plus `orphanGraceMs` (a live instance settles every claim within its timeout),
   * and orphans are looked for at every backstop poll.
   */
  alone?: boolean;
  /** See `alone` (default 10 s). */
  orphanGraceMs?: number;
  backoff?: { baseMs?: number; maxMs?: number };
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

interface Row {
  id: string;
  channelId: string;
  kind: string;
  payload: unknown;
  attempts: number;
}

export interface OutboxStats {
  done: number;
  retried: number;
  failed: number;
  interrupted: number;
  requeued: number;
}

/** How long a finished effect's `done` waits for others (or a claim) to share its statement. */
export const DONE_LINGER_MS = 5;

/** `done` of effects finished meanwhile, written together by a timer or the next claim. */
interface PendingDone {
  ids: string[];
  timer: NodeJS.Timeout;
  written: Promise<void>;
  settle: (error?: unknown) => void;
}

export class EffectOutbox {
  private readonly handlers = new Map<string, EffectHandler>();
  /** This process: effects it claims carry it, so a later process knows which claims died. */
  readonly instanceId = newId();
  private running = 0;
  private pumping: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Effects run to completion whose `done` is not written yet: written together, one statement for all. */
  private pendingDone: PendingDone | null = null;
  /** The last claim filled its room: more may be due, so a run that ends looks again. */
  private backlog = false;
  /** A timer at the earliest retry this process scheduled. */
  private dueTimer: NodeJS.Timeout | null = null;
  private dueAt = Infinity;
  private readonly missingLogged = new Set<string>();
  readonly stats: OutboxStats = { done: 0, retried: 0, failed: 0, interrupted: 0, requeued: 0 };

  constructor(
    private readonly db: Db,
    private readonly options: OutboxOptions,
  ) {}

  /** Registers the handler of one effect kind (at construction of the feature that owns it). */
  addHandler(handler: EffectHandler): void {
    if (this.handlers.has(handler.kind)) throw new Error(`An effect handler for "${handler.kind}" is already registered`);
    this.handlers.set(handler.kind, handler);
  }

  /**
   * Starts running effects: first settles the claims a previous process left behind (see the file
   * comment), then runs what is due, and keeps polling for retries.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.recover();
    await this.unhandledKinds();
    this.timer = setInterval(() => {
      if (this.options.alone === false)
        void this.recover().catch((error: unknown) => this.options.log.warn({ err: error }, 'looking for orphaned effects failed'));
      this.nudge();
    }, this.options.pollMs ?? 30_000);
    this.timer.unref();
    this.nudge();
  }

  /** A live instance settles a claim within its handler's timeout: older claims of others are orphans. */
  private orphanAgeMs(): number {
    let longest = this.options.timeoutMs ?? 30_000;
    for (const h of this.handlers.values()) longest = Math.max(longest, h.timeoutMs ?? 0);
    return longest + (this.options.orphanGraceMs ?? 10_000);
  }

  private async recover(): Promise<void> {
    const idempotent = [...this.handlers.values()].filter((h) => h.idempotent).map((h) => h.kind);
    const notMine = sql`${pipelineEffects.claimedBy} IS DISTINCT FROM ${this.instanceId}`;
    // With other instances running, only a claim older than any live run may be settled here.
    const dead =
      this.options.alone === false
        ? and(
            notMine,
            sql`(${pipelineEffects.claimedAt} IS NULL OR ${pipelineEffects.claimedAt} < now() - ${this.orphanAgeMs()} * interval '1 millisecond')`,
          )
        : notMine;
    const orphans = await this.db
      .select({ id: pipelineEffects.id, kind: pipelineEffects.kind })
      .from(pipelineEffects)
      .where(and(eq(pipelineEffects.status, 'running'), dead));
    if (orphans.length === 0) return;
    const again = orphans.filter((o) => idempotent.includes(o.kind)).map((o) => o.id);
    const lost = orphans.filter((o) => !idempotent.includes(o.kind)).map((o) => o.id);
    if (again.length) {
      await this.db
        .update(pipelineEffects)
        .set({ status: 'pending', claimedAt: null, claimedBy: null, runAfter: new Date() })
        .where(and(inArray(pipelineEffects.id, again), eq(pipelineEffects.status, 'running'), dead));
      this.stats.requeued += again.length;
    }
    if (lost.length) {
      await this.db
        .update(pipelineEffects)
        .set({ status: 'interrupted', finishedAt: new Date(), lastError: 'The process stopped while this effect ran; not run again.' })
        .where(and(inArray(pipelineEffects.id, lost), eq(pipelineEffects.status, 'running'), dead));
      this.stats.interrupted += lost.length;
    }
    this.options.log.warn(
      { requeued: again.length, interrupted: lost.length },
      'effects claimed by a stopped process: idempotent ones run again, the others are not',
    );
  }

  /** Looks for due effects now (called after every commit that stored some). */
  nudge(): void {
    if (!this.started || this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'looking for due effects failed'))
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  private async pump(): Promise<void> {
    const concurrency = this.options.concurrency ?? 8;
    while (!this.stopped) {
      // Full: what was nudged is claimed when a run ends.
      if (this.running >= concurrency) {
        this.backlog = true;
        return;
      }
      const kinds = [...this.handlers.keys()];
      if (kinds.length === 0) return;
      const room = concurrency - this.running;
      const claimed = await this.claim(kinds, room);
      this.backlog = claimed.length === room;
      if (claimed.length === 0) return;
      for (const row of claimed) this.launch(row);
    }
  }

  /**
   * Claims up to `limit` due effects of kinds with a handler, in one committed statement, which also
   * writes the `done` of the effects finished meanwhile (one statement for both).
   */
  private async claim(kinds: string[], limit: number): Promise<Row[]> {
    const done = this.takeDone();
    const raw: unknown = await this.db
      .execute(
        sql`${done ? sql`WITH done AS (${this.doneUpdate(done.ids)}) ` : sql``}
      UPDATE pipeline_effects SET status = 'running', claimed_at = now(), claimed_by = ${this.instanceId}, attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM pipeline_effects
        WHERE status = 'pending' AND run_after <= now() AND kind IN (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})
        ORDER BY run_after, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, channel_id, kind, payload, attempts`,
      )
      .then(
        (r) => {
          done?.settle();
          return r;
        },
        (error: unknown) => {
          done?.settle(error);
          throw error;
        },
      );
    const result = raw as { rows: { id: string; channel_id: string; kind: string; payload: unknown; attempts: number }[] };
    return result.rows.map((r) => ({ id: r.id, channelId: r.channel_id, kind: r.kind, payload: r.payload, attempts: Number(r.attempts) }));
  }

  private launch(row: Row): void {
    this.running++;
    const run = this.runOne(row).finally(() => {
      this.running--;
      this.inFlight.delete(run);
      if (this.backlog) this.nudge();
    });
    this.inFlight.add(run);
  }

  private async runOne(row: Row): Promise<void> {
    const handler = this.handlers.get(row.kind)!;
    const effect: PipelineEffect & { id: string } = { id: row.id, kind: row.kind, channelId: row.channelId, payload: row.payload };
    const timeoutMs = handler.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | null = null;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    let outcome: 'done' | 'timeout' | { error: unknown };
    try {
      outcome = await Promise.race([handler.run(effect).then(() => 'done' as const), timedOut]);
    } catch (error) {
      outcome = { error };
    } finally {
      if (timer) clearTimeout(timer);
    }
    try {
      if (outcome === 'done') {
        await this.markDone(row.id);
        this.stats.done++;
      } else if (outcome === 'timeout') {
        // The outcome is unknown: only an idempotent handler may run it again.
        if (handler.idempotent) await this.retryLater(row, handler, `Timed out after ${timeoutMs} ms`);
        else {
          this.stats.interrupted++;
          await this.finish(row.id, {
            status: 'interrupted',
            finishedAt: new Date(),
            lastError: `Timed out after ${timeoutMs} ms; not run again.`,
          });
          this.options.log.error(
            { effect: row.id, kind: row.kind },
            'effect timed out; its handler is not idempotent, so it is not run again',
          );
        }
      } else await this.retryLater(row, handler, outcome.error);
    } catch (error) {
      // The claim stays 'running': the next start settles it like a crash.
      this.options.log.error({ err: error, effect: row.id, kind: row.kind }, 'recording an effect outcome failed');
    }
  }

  private async retryLater(row: Row, handler: EffectHandler, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const max = handler.maxAttempts ?? this.options.maxAttempts ?? 5;
    const refused = error instanceof EffectRefused;
    if (refused || row.attempts >= max) {
      this.stats.failed++;
      await this.finish(row.id, { status: 'failed', finishedAt: new Date(), lastError: message.slice(0, 500) });
      if (refused) this.options.log.warn({ effect: row.id, kind: row.kind, error: message }, 'effect refused; not retried');
      else this.options.log.error({ effect: row.id, kind: row.kind, attempts: row.attempts, error: message }, 'effect failed for good');
      return;
    }
    this.stats.retried++;
    const base = this.options.backoff?.baseMs ?? 1000;
    const delay = Math.min(this.options.backoff?.maxMs ?? 300_000, base * 2 ** (row.attempts - 1));
    await this.finish(row.id, {
      status: 'pending',
      claimedAt: null,
      claimedBy: null,
      runAfter: new Date(Date.now() + delay),
      lastError: message.slice(0, 500),
    });
    this.wakeAt(Date.now() + delay);
    this.options.log.warn(
      { effect: row.id, kind: row.kind, attempt: row.attempts, retryInMs: delay, error: message },
      'effect failed; retrying',
    );
  }

  /** Looks for due effects at `at` (a retry this process scheduled), one timer for the earliest. */
  private wakeAt(at: number): void {
    if (this.stopped || at >= this.dueAt) return;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueAt = at;
    this.dueTimer = setTimeout(
      () => {
        this.dueTimer = null;
        this.dueAt = Infinity;
        this.nudge();
      },
      Math.max(0, at - Date.now()),
    );
    this.dueTimer.unref();
  }

  /**
   * Marks an effect done. The effects finishing within `DONE_LINGER_MS` share one UPDATE, or the next
   * claim's statement (it resolves once theirs is written). If the process dies before it is
   * written, the claim stays `running` and is settled like any interrupted claim: never run again
   * unless idempotent, so nothing is done twice.
   */
  private markDone(id: string): Promise<void> {
    if (!this.pendingDone) {
      let settle!: (error?: unknown) => void;
      const written = new Promise<void>((resolve, reject) => {
        settle = (error) =>
          error === undefined ? resolve() : reject(error instanceof Error ? error : new Error('writing done failed', { cause: error }));
      });
      const timer = setTimeout(() => {
        const done = this.takeDone();
        if (done) void this.db.execute(this.doneUpdate(done.ids)).then(() => done.settle(), done.settle);
      }, DONE_LINGER_MS);
      this.pendingDone = { ids: [], timer, written, settle };
    }
    this.pendingDone.ids.push(id);
    return this.pendingDone.written;
  }

  /** The `done` waiting to be written, now taken by whoever writes it. */
  private takeDone(): PendingDone | null {
    const done = this.pendingDone;
    if (!done) return null;
    clearTimeout(done.timer);
    this.pendingDone = null;
    return done;
  }

  private doneUpdate(ids: string[]): SQL {
    return sql`UPDATE pipeline_effects SET status = 'done', finished_at = now(), last_error = NULL
      WHERE id = ANY(${sql.param(ids)}::text[]) AND claimed_by = ${this.instanceId}`;
  }

  private async finish(id: string, set: Partial<typeof pipelineEffects.$inferInsert>): Promise<void> {
    await this.db
      .update(pipelineEffects)
      .set(set)
      .where(and(eq(pipelineEffects.id, id), eq(pipelineEffects.claimedBy, this.instanceId)));
  }

  /** Kinds stored but without a registered handler: logged once each (diagnostics). */
  async unhandledKinds(): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ kind: pipelineEffects.kind })
      .from(pipelineEffects)
      .where(eq(pipelineEffects.status, 'pending'));
    const missing = rows.map((r) => r.kind).filter((k) => !this.handlers.has(k));
    for (const k of missing) {
      if (this.missingLogged.has(k)) continue;
      this.missingLogged.add(k);
      this.options.log.warn({ kind: k }, 'stored effects of a kind without a handler wait until one is registered');
    }
    return missing;
  }

  /** Waits for the effects running now (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pumping || this.inFlight.size > 0) {
      await this.pumping;
      await Promise.all([...this.inFlight]);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.timer = this.dueTimer = null;
    await this.idle();
  }
}
