/**
 * The chat log's persistence sink (`ChatSink` of the ingest pipeline): events are queued in memory
 * and written in batches (every `batchDelayMs` or `batchSize` events, one write at a time), never
 * on the live path. The queue is bounded: past `maxQueued` the OLDEST queued chat messages are
 * dropped first (moderation and activity events are kept while any chat message can go), and the
 * drop is logged (at most every 10 s, with the count). A failed batch is logged and dropped.
 */
import type { ChannelStreamEvent } from '@greenroom/contracts/api/events';
import type { ChatSink } from '../../platforms/ingest';
import type { ChatLogStore } from './chat-log-store';

export interface ChatLogWriterOptions {
  batchSize?: number;
  batchDelayMs?: number;
  maxQueued?: number;
  log: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

export interface ChatLogWriterStats {
  queued: number;
  written: number;
  dropped: number;
  failedBatches: number;
}

export class ChatLogWriter implements ChatSink {
  private queue: ChannelStreamEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private droppedSinceLog = 0;
  private lastDropLog = 0;
  private closed = false;
  readonly stats: ChatLogWriterStats = { queued: 0, written: 0, dropped: 0, failedBatches: 0 };
  private readonly batchSize: number;
  private readonly batchDelayMs: number;
  private readonly maxQueued: number;

  constructor(
    private readonly store: Pick<ChatLogStore, 'writeBatch'>,
    private readonly options: ChatLogWriterOptions,
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.batchDelayMs = options.batchDelayMs ?? 250;
    this.maxQueued = options.maxQueued ?? 50_000;
  }

  /** ChatSink: queues the batch and returns at once (the ingest pipeline never waits on the database). */
  write(events: ChannelStreamEvent[]): Promise<void> {
    for (const e of events) this.push(e);
    return Promise.resolve();
  }

  /** Queues one event (stream status is not persisted). */
  push(event: ChannelStreamEvent): void {
    if (event.type === 'stream.status') return;
    this.queue.push(event);
    this.stats.queued++;
    if (this.queue.length > this.maxQueued) this.overflow();
    if (this.closed) return;
    if (this.queue.length >= this.batchSize && !this.writing) this.kick();
    else if (!this.timer && !this.writing) this.schedule();
  }

  get pending(): number {
    return this.queue.length;
  }

  private overflow(): void {
    const excess = this.queue.length - this.maxQueued;
    let removed = 0;
    // Drop the oldest chat messages first; only when none is left, the oldest events of any kind.
    const kept: ChannelStreamEvent[] = [];
    for (const e of this.queue) {
      if (removed < excess && e.type === 'chat.message') removed++;
      else kept.push(e);
    }
    if (removed < excess) kept.splice(0, excess - removed);
    this.queue = kept;
    this.stats.dropped += excess;
    this.droppedSinceLog += excess;
    const now = Date.now();
    if (now - this.lastDropLog >= 10_000) {
      this.options.log.warn(
        { dropped: this.droppedSinceLog, maxQueued: this.maxQueued },
        'chat log queue full: dropped the oldest queued chat messages',
      );
      this.droppedSinceLog = 0;
      this.lastDropLog = now;
    }
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, this.batchDelayMs);
    this.timer.unref();
  }

  private kick(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.writing || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.batchSize);
    this.writing = this.store
      .writeBatch(batch)
      .then(
        () => {
          this.stats.written += batch.length;
        },
        (error: unknown) => {
          this.stats.failedBatches++;
          this.options.log.error({ err: error, events: batch.length }, 'chat log batch write failed; batch dropped');
        },
      )
      .finally(() => {
        this.writing = null;
        if (this.queue.length >= this.batchSize || (this.closed && this.queue.length > 0)) this.kick();
        else if (this.queue.length > 0 && !this.timer) this.schedule();
      });
  }

  /** Writes everything queued so far (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.writing) {
      if (!this.writing) this.kick();
      await this.writing;
    }
  }

  /** Graceful shutdown: stops the timer and writes what is queued. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}

/** The hourly retention purge (CHAT_RETENTION_DAYS); `stop()` cancels it at shutdown. */
export class RetentionJob {
  private timer: NodeJS.Timeout | null = null;
  private first: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: Pick<ChatLogStore, 'purgeOlderThan'>,
    private readonly days: number,
    private readonly log: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void },
    private readonly intervalMs = 60 * 60 * 1000,
  ) {}

  /** Purges once shortly after start (not in the start-up path), then every interval. */
  start(firstDelayMs = 60_000): void {
    if (this.timer) return;
    this.first = setTimeout(() => void this.runOnce(), firstDelayMs);
    this.first.unref();
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  async runOnce(): Promise<number> {
    if (this.running) return 0;
    let removed = 0;
    this.running = this.store
      .purgeOlderThan(this.days)
      .then((n) => {
        removed = n;
        if (n > 0) this.log.info({ removed: n, days: this.days }, 'chat log retention purge');
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'chat log retention purge failed'))
      .finally(() => {
        this.running = null;
      });
    await this.running;
    return removed;
  }

  async stop(): Promise<void> {
    if (this.first) clearTimeout(this.first);
    this.first = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
