/** Schedules one flush; returns a cancel function. Defaults to requestAnimationFrame (setTimeout when hidden). */
export type FlushScheduler = (flush: () => void) => () => void;

export const animationFrameScheduler: FlushScheduler = (flush) => {
  // Background tabs get no animation frames: fall back to a timer so the queue still drains.
  if (typeof document !== 'undefined' && document.hidden) {
    const timer = setTimeout(flush, 250);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(flush);
  return () => cancelAnimationFrame(frame);
};

/**
 * Coalesces items pushed at any rate into one batch per animation frame, so a busy socket causes at most
 * one state update per frame. Holds at most `maxSize` items (oldest dropped) while no frame runs.
 * With `minIntervalMs`, a flush also waits until that long after the previous one: a quiet stream still
 * flushes on the next frame, a busy one in fewer, larger batches.
 */
export class FrameQueue<T> {
  private items: T[] = [];
  private cancel: (() => void) | null = null;
  private lastFlush = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly onFlush: (batch: T[]) => void,
    private readonly options: { schedule?: FlushScheduler; maxSize?: number; minIntervalMs?: number; now?: () => number } = {},
  ) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    this.items.push(item);
    const max = this.options.maxSize;
    if (max !== undefined && this.items.length > max) this.items.splice(0, this.items.length - max);
    if (!this.cancel) this.cancel = this.scheduleFlush();
  }

  private now(): number {
    return (this.options.now ?? (() => performance.now()))();
  }

  private scheduleFlush(): () => void {
    const schedule = this.options.schedule ?? animationFrameScheduler;
    const wait = this.lastFlush + (this.options.minIntervalMs ?? 0) - this.now();
    if (!(wait > 0)) return schedule(() => this.flush());
    let cancelFrame: (() => void) | null = null;
    const timer = setTimeout(() => {
      cancelFrame = schedule(() => this.flush());
    }, wait);
    return () => {
      clearTimeout(timer);
      cancelFrame?.();
    };
  }

  /** Delivers everything queued now (also used by the scheduler). */
  flush(): void {
    this.cancel?.();
    this.cancel = null;
    if (this.items.length === 0) return;
    const batch = this.items;
    this.items = [];
    this.lastFlush = this.now();
    this.onFlush(batch);
  }

  /** Drops what is queued and stops the pending flush. */
  dispose(): void {
    this.cancel?.();
    this.cancel = null;
    this.items = [];
  }
}
