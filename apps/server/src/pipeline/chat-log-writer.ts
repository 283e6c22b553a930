/**
 * Group commit: the pipeline's one queue in front of the database. Submitted items (a platform
 * delivery: messages, activities, moderation, gaps, their effects and the connection state they
 * move) are written together, one transaction at a time, as soon as `maxBatchRows` rows are
 * waiting or the oldest has waited `maxDelayMs`, whichever comes first. Only after the commit is an
 * item's `committed` called (the pipeline publishes it and acknowledges the platform) — in
 * submission order.
 *
 * Nothing submitted is dropped by a failing write:
 * - the database is unreachable or restarting (a transient error): the same batch is retried with
 *   backoff, forever, while `status` says `delayed`. The failed attempt may have committed all the
 *   same (the connection died after COMMIT reached the server), so the retry runs in recover mode:
 *   rows found stored already are handed over as committed, without storing their effects twice;
 * - the database refuses the data: the batch is written again with each row behind a savepoint, so
 *   only the refused rows are left out (counted in `stats.rejected`, logged with their ids).
 *
 * What is waiting is bounded by `holdRows`. Past it, and while writes are failing, `submit` refuses
 * items whose platform will deliver them again (Kick's webhook retries, YouTube's page token); the
 * others (Twitch EventSub pushes) are held up to `holdRows`, and past that they are refused too —
 * the pipeline counts them as lost and says so (log line, gap line, alert).
 */
import { logSlow, slowMs } from '../db/slow-log';
import { describeDbError, isTransientDbError } from './db-errors';
import type { ChatLogStore, WriteBatch, WriteResult } from './chat-log-store';

export interface WriteItem {
  batch: WriteBatch;
  /** Rows it adds to the batch (messages + activities + moderation + gaps + effects). */
  rows: number;
  /** The platform delivers it again when refused (so it is refused rather than held while writes fail). */
  retryable: boolean;
  /** Called once the transaction that holds it committed (in submission order). */
  committed(result: WriteResult): void;
  /** Called when it will never be written (shutdown with the database down, or the database refuses its batch-level data). */
  abandoned(error: Error): void;
}

export interface WriterStatus {
  state: 'ok' | 'delayed';
  since: number;
  /** Rows waiting. */
  held: number;
}

export interface ChatLogWriterOptions {
  maxBatchRows?: number;
  maxDelayMs?: number;
  holdRows?: number;
  backoff?: { baseMs?: number; maxMs?: number };
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  /** Called when writes start failing and when they succeed again. */
  onStatus?: (status: WriterStatus) => void;
}

export interface ChatLogWriterStats {
  batches: number;
  rows: number;
  retries: number;
  rejected: number;
  refused: number;
  abandoned: number;
  /** Rows found stored by an attempt whose commit the writer did not hear about (a lost connection). */
  recovered: number;
  /** Most rows ever waiting at once. */
  peakHeld: number;
}

/** Refused by `submit`: over the bound, or writes are failing and the platform can redeliver. */
export class IngestBusyError extends Error {
  constructor(message = 'The chat log is not accepting messages right now; deliver them again later.') {
    super(message);
    this.name = 'IngestBusyError';
  }
}

function emptyBatch(): WriteBatch {
  return { messages: [], moderation: [], activities: [], gaps: [], effects: [], states: [] };
}

function merge(items: WriteItem[]): WriteBatch {
  if (items.length === 1) return items[0]!.batch;
  const out = emptyBatch();
  for (const { batch } of items) {
    for (const m of batch.messages) out.messages.push(m);
    for (const m of batch.moderation) out.moderation.push(m);
    for (const a of batch.activities) out.activities.push(a);
    for (const g of batch.gaps) out.gaps.push(g);
    for (const e of batch.effects) out.effects.push(e);
    for (const s of batch.states) out.states.push(s);
  }
  return out;
}

class Deferred {
  readonly promise: Promise<void>;
  resolve!: () => void;
  constructor() {
    this.promise = new Promise((r) => (this.resolve = r));
  }
}

export class ChatLogWriter {
  private queue: WriteItem[] = [];
  private head = 0;
  private queuedRows = 0;
  private writing = false;
  private timer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private delayedSince: number | null = null;
  private idle: Deferred | null = null;
  private inFlight: WriteItem[] | null = null;
  private closing = false;
  private readonly maxBatchRows: number;
  private readonly maxDelayMs: number;
  readonly holdRows: number;
  private readonly backoffBase: number;
  private readonly backoffMax: number;
  private readonly enqueuedAt: number[] = [];
  /** Items whose last write attempt failed on a transient error: it may have committed (see the file comment). */
  private readonly uncertain = new WeakSet<WriteItem>();
  readonly stats: ChatLogWriterStats = {
    batches: 0,
    rows: 0,
    retries: 0,
    rejected: 0,
    refused: 0,
    abandoned: 0,
    recovered: 0,
    peakHeld: 0,
  };

  constructor(
    private readonly store: Pick<ChatLogStore, 'write'>,
    private readonly options: ChatLogWriterOptions,
  ) {
    this.maxBatchRows = options.maxBatchRows ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 5;
    this.holdRows = options.holdRows ?? 50_000;
    this.backoffBase = options.backoff?.baseMs ?? 100;
    this.backoffMax = options.backoff?.maxMs ?? 5000;
  }

  /** Rows waiting to be written. */
  get held(): number {
    return this.queuedRows;
  }

  get status(): WriterStatus {
    return { state: this.delayedSince === null ? 'ok' : 'delayed', since: this.delayedSince ?? Date.now(), held: this.queuedRows };
  }

  /** Whether an item of this kind would be taken now (`submit` refuses it otherwise). */
  accepts(rows: number, retryable: boolean): boolean {
    if (this.closing) return false;
    if (retryable && this.delayedSince !== null) return false;
    return this.queuedRows + rows <= this.holdRows || this.queuedRows === 0;
  }

  /** Queues an item; false when refused (see the file comment). */
  submit(item: WriteItem): boolean {
    if (!this.accepts(item.rows, item.retryable)) {
      this.stats.refused++;
      return false;
    }
    this.queue.push(item);
    this.enqueuedAt.push(Date.now());
    this.queuedRows += item.rows;
    if (this.queuedRows > this.stats.peakHeld) this.stats.peakHeld = this.queuedRows;
    this.schedule();
    return true;
  }

  private get pendingItems(): number {
    return this.queue.length - this.head;
  }

  private schedule(): void {
    if (this.writing || this.retryTimer || this.pendingItems === 0) return;
    const age = Date.now() - this.enqueuedAt[this.head]!;
    if (this.queuedRows >= this.maxBatchRows || age >= this.maxDelayMs || this.idle || this.closing) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      void this.run();
      return;
    }
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.schedule();
      }, this.maxDelayMs - age);
    }
  }

  /** Takes items from the front up to maxBatchRows (at least one). */
  private take(): WriteItem[] {
    const items: WriteItem[] = [];
    let rows = 0;
    while (this.head < this.queue.length && (items.length === 0 || rows + this.queue[this.head]!.rows <= this.maxBatchRows)) {
      const item = this.queue[this.head]!;
      items.push(item);
      rows += item.rows;
      this.head++;
    }
    // Compact now and then so the array does not grow without bound.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.enqueuedAt.splice(0, this.head);
      this.head = 0;
    }
    return items;
  }

  /** Puts items back at the front (a transient failure): they are retried first, in order. */
  private putBack(items: WriteItem[]): void {
    const now = Date.now();
    this.queue.splice(this.head, 0, ...items);
    this.enqueuedAt.splice(this.head, 0, ...items.map(() => now));
  }

  private async run(): Promise<void> {
    this.writing = true;
    const oldest = this.enqueuedAt[this.head]!;
    const items = this.take();
    const progress = { done: 0 };
    this.inFlight = items;
    try {
      const started = performance.now();
      await this.writeItems(items, false, progress);
      // DB_SLOW_MS: a slow group commit, with how long its oldest item waited for it to start.
      const ms = performance.now() - started;
      if (slowMs > 0 && ms > slowMs)
        logSlow({ kind: 'batch', at: Date.now(), ms, rows: rowsOf(items), waitedMs: Date.now() - ms - oldest });
      this.written();
    } catch (error) {
      // Not known to be written: back to the front, retried first and in order.
      const left = items.slice(progress.done);
      for (const item of left) this.uncertain.add(item);
      this.putBack(left);
      this.failed(error);
    } finally {
      this.inFlight = null;
      this.writing = false;
      if (this.pendingItems === 0 && this.idle) {
        this.idle.resolve();
        this.idle = null;
      }
      this.schedule();
    }
  }

  /**
   * Writes `items` in one transaction and hands each over in order (`progress.done` counts them). A
   * data error re-writes them with each row isolated; if that still fails (batch-level data), halves
   * are tried apart, and a single item that cannot be written is abandoned. A transient error is
   * rethrown: the caller puts back what is not done.
   */
  private async writeItems(items: WriteItem[], isolate: boolean, progress: { done: number }): Promise<void> {
    let result: WriteResult;
    const recover = items.some((item) => this.uncertain.has(item));
    try {
      result = await this.store.write(merge(items), { isolate, recover });
    } catch (error) {
      if (isTransientDbError(error)) throw error;
      if (!isolate) {
        this.options.log.warn(
          { db: describeDbError(error), rows: rowsOf(items) },
          'chat log batch refused by the database; writing its rows one by one',
        );
        return this.writeItems(items, true, progress);
      }
      if (items.length > 1) {
        const half = Math.ceil(items.length / 2);
        await this.writeItems(items.slice(0, half), true, progress);
        return this.writeItems(items.slice(half), true, progress);
      }
      const item = items[0]!;
      this.stats.abandoned++;
      this.queuedRows -= item.rows;
      progress.done++;
      this.options.log.error({ db: describeDbError(error), rows: item.rows }, 'chat log item refused by the database; it is not stored');
      item.abandoned(new Error('The database refused this delivery.'));
      return;
    }
    this.stats.batches++;
    this.stats.rows += rowsOf(items);
    if (result.existing.size > 0) {
      this.stats.recovered += result.existing.size;
      this.options.log.info(
        { recovered: result.existing.size },
        'chat rows a lost connection had committed were found stored; they are published now',
      );
    }
    if (result.rejected.size > 0) {
      this.stats.rejected += result.rejected.size;
      this.options.log.error(
        { rejected: result.rejected.size, ids: [...result.rejected].slice(0, 20).map((k) => k.split('\u0000')[1]) },
        'the database refused chat rows even alone; the rest of their batch is stored',
      );
    }
    for (const item of items) {
      this.queuedRows -= item.rows;
      progress.done++;
      try {
        item.committed(result);
      } catch (error) {
        this.options.log.error({ err: error }, 'publishing a committed chat item failed');
      }
    }
  }

  private written(): void {
    this.failures = 0;
    if (this.delayedSince !== null) {
      const since = this.delayedSince;
      this.delayedSince = null;
      this.options.log.info({ delayedMs: Date.now() - since, held: this.queuedRows }, 'chat log writes succeed again');
      this.options.onStatus?.(this.status);
    }
  }

  private failed(error: unknown): void {
    this.failures++;
    this.stats.retries++;
    const delay = Math.min(this.backoffMax, this.backoffBase * 2 ** Math.min(this.failures - 1, 16));
    if (this.delayedSince === null) {
      this.delayedSince = Date.now();
      this.options.log.warn(
        { db: describeDbError(error), held: this.queuedRows, retryInMs: delay },
        'chat log writes are failing; holding chat and retrying',
      );
      this.options.onStatus?.(this.status);
    } else if (this.failures % 10 === 0) {
      this.options.log.warn(
        { db: describeDbError(error), held: this.queuedRows, failures: this.failures },
        'chat log writes still failing',
      );
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.schedule();
    }, delay);
  }

  /** Resolves once everything submitted so far is written (or the writer gave up at close). */
  async flush(): Promise<void> {
    while (this.pendingItems > 0 || this.writing) {
      this.idle ??= new Deferred();
      const idle = this.idle;
      if (this.retryTimer) {
        clearTimeout(this.retryTimer);
        this.retryTimer = null;
      }
      this.schedule();
      await idle.promise;
    }
  }

  /**
   * Shutdown: refuses new items and writes what is queued, retrying for at most `deadlineMs`; what
   * is still not written then is abandoned (retryable platforms deliver it again; the rest is
   * logged with its count).
   */
  async close(deadlineMs = 10_000): Promise<void> {
    this.closing = true;
    const gaveUp = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), deadlineMs).unref());
    const outcome = await Promise.race([this.flush().then(() => 'done' as const), gaveUp]);
    if (this.timer) clearTimeout(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.timer = this.retryTimer = null;
    if (outcome === 'timeout') {
      const left = [...(this.inFlight ?? []), ...this.queue.slice(this.head)];
      this.queue = [];
      this.head = 0;
      this.enqueuedAt.length = 0;
      const rows = this.queuedRows;
      this.queuedRows = 0;
      this.options.log.error({ items: left.length, rows }, 'shutting down with chat the database did not take; it is not stored');
      for (const item of left) item.abandoned(new Error('Shutting down before the chat log could store this.'));
      this.idle?.resolve();
    }
  }
}

function rowsOf(items: WriteItem[]): number {
  let n = 0;
  for (const i of items) n += i.rows;
  return n;
}
