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
 */
export class FrameQueue<T> {
  private items: T[] = [];
  private cancel: (() => void) | null = null;

  constructor(
    private readonly onFlush: (batch: T[]) => void,
    private readonly options: { schedule?: FlushScheduler; maxSize?: number } = {},
  ) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    this.items.push(item);
    const max = this.options.maxSize;
    if (max !== undefined && this.items.length > max) this.items.splice(0, this.items.length - max);
    if (!this.cancel) this.cancel = (this.options.schedule ?? animationFrameScheduler)(() => this.flush());
  }

  /** Delivers everything queued now (also used by the scheduler). */
  flush(): void {
    this.cancel?.();
    this.cancel = null;
    if (this.items.length === 0) return;
    const batch = this.items;
    this.items = [];
    this.onFlush(batch);
  }

  /** Drops what is queued and stops the pending flush. */
  dispose(): void {
    this.cancel?.();
    this.cancel = null;
    this.items = [];
  }
}
