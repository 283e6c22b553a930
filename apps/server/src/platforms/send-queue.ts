/**
 * Outgoing chat rate limiting: a sliding window per sender per channel, sized to each platform's
 * limit with a safety margin. Messages over the limit wait in a FIFO queue (never dropped, never
 * sent early, so the platform never locks the sender out); a queue that is too long refuses new
 * messages with a clear 429.
 */
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { AppError } from '../lib/errors';

export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Extra time added to every window so clock skew never puts us over the platform's count. */
const MARGIN_MS = 1_000;

/** The send limit of a sender: Twitch 20/30 s, 100/30 s as broadcaster or moderator; conservative defaults elsewhere. */
export function sendRateLimit(provider: ChannelProviderId, privileged: boolean): RateLimit {
  switch (provider) {
    case 'twitch':
      return { limit: privileged ? 100 : 20, windowMs: 30_000 + MARGIN_MS };
    case 'kick':
      return { limit: 20, windowMs: 30_000 + MARGIN_MS };
    case 'youtube':
      return { limit: 20, windowMs: 30_000 + MARGIN_MS };
    case 'tiktok':
    case 'spotify':
      return { limit: 10, windowMs: 30_000 + MARGIN_MS };
  }
}

/**
 * Several instances: the window kept in one place for all of them (Redis), so together they stay under the
 * platform's limit. `take` records a send and resolves 0 when it may go now, else the milliseconds to wait.
 */
export interface SharedSendWindow {
  take(key: string, limit: RateLimit): Promise<number>;
}

interface Job {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Lane {
  sent: number[];
  queue: Job[];
  timer: NodeJS.Timeout | null;
  limit: RateLimit;
  /** A shared-window pass is running (one per lane). */
  pumping: boolean;
}

export class SendQueue {
  private readonly lanes = new Map<string, Lane>();
  private closed = false;

  constructor(private readonly options: { maxQueued?: number; now?: () => number; shared?: SharedSendWindow } = {}) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Messages waiting for `key`. */
  queued(key: string): number {
    return this.lanes.get(key)?.queue.length ?? 0;
  }

  /** Runs `task` when `key` (sender + channel) may send again under `limit`. */
  run<T>(key: string, limit: RateLimit, task: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new AppError(503, 'provider_error', 'The server is shutting down; the message was not sent.'));
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { sent: [], queue: [], timer: null, limit, pumping: false }));
    lane.limit = limit;
    const max = this.options.maxQueued ?? 50;
    if (lane.queue.length >= max) {
      const waitS = Math.ceil(this.waitMs(lane) / 1000) || 1;
      return Promise.reject(
        new AppError(
          429,
          'rate_limited',
          `Too many messages are waiting to be sent (${lane.queue.length}); the platform allows ${limit.limit} per ${Math.round((limit.windowMs - MARGIN_MS) / 1000)} s. Try again in ${waitS} s.`,
        ),
      );
    }
    return new Promise<T>((resolve, reject) => {
      lane.queue.push({ run: task, resolve: resolve as (v: unknown) => void, reject });
      this.pump(key, lane);
    });
  }

  private waitMs(lane: Lane): number {
    const now = this.now();
    while (lane.sent.length > 0 && now - lane.sent[0]! >= lane.limit.windowMs) lane.sent.shift();
    if (lane.sent.length < lane.limit.limit) return 0;
    return lane.sent[0]! + lane.limit.windowMs - now;
  }

  private pump(key: string, lane: Lane): void {
    if (this.options.shared) {
      void this.pumpShared(key, lane, this.options.shared);
      return;
    }
    if (lane.timer) return;
    while (lane.queue.length > 0) {
      const wait = this.waitMs(lane);
      if (wait > 0) {
        lane.timer = setTimeout(() => {
          lane.timer = null;
          this.pump(key, lane);
        }, wait);
        lane.timer.unref();
        return;
      }
      const job = lane.queue.shift()!;
      lane.sent.push(this.now());
      job.run().then(job.resolve, job.reject);
    }
    if (lane.sent.length === 0) this.lanes.delete(key);
  }

  /**
   * With a shared window: this instance's own window first (it still holds when the shared one cannot be asked),
   * then the shared one; a send goes only when both allow it.
   */
  private async pumpShared(key: string, lane: Lane, shared: SharedSendWindow): Promise<void> {
    if (lane.timer || lane.pumping) return;
    lane.pumping = true;
    try {
      while (lane.queue.length > 0 && !this.closed) {
        let wait = this.waitMs(lane);
        // Redis unreachable: this instance's window alone (together the instances may then exceed the limit).
        if (wait === 0) wait = await shared.take(key, lane.limit).catch(() => 0);
        if (wait > 0) {
          lane.timer = setTimeout(() => {
            lane.timer = null;
            void this.pumpShared(key, lane, shared);
          }, wait);
          lane.timer.unref();
          return;
        }
        const job = lane.queue.shift();
        if (!job) break;
        lane.sent.push(this.now());
        job.run().then(job.resolve, job.reject);
      }
    } finally {
      lane.pumping = false;
    }
    if (lane.sent.length === 0 && lane.queue.length === 0 && !lane.timer) this.lanes.delete(key);
  }

  /** Refuses queued and new messages. */
  close(): void {
    this.closed = true;
    for (const lane of this.lanes.values()) {
      if (lane.timer) clearTimeout(lane.timer);
      for (const job of lane.queue.splice(0))
        job.reject(new AppError(502, 'provider_error', 'The server is shutting down; the message was not sent.'));
    }
    this.lanes.clear();
  }
}
