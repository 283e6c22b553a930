/** Exponential backoff with full jitter for reconnects (shared by every adapter). */
export interface BackoffOptions {
  baseMs?: number;
  maxMs?: number;
  /** Source of randomness in [0, 1) (tests pass a fixed one). */
  random?: () => number;
}

/** Delay before attempt `attempt` (0-based): uniform in [base·2^attempt / 2, base·2^attempt], capped at maxMs. */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? 1000;
  const max = options.maxMs ?? 60_000;
  const ceiling = Math.min(max, base * 2 ** Math.min(attempt, 30));
  const random = options.random ?? Math.random;
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Resolves after `ms`, or early (without throwing) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Counts attempts and waits the jittered delay of the next one; `reset()` after a success. */
export class Backoff {
  private attempt = 0;

  constructor(private readonly options: BackoffOptions = {}) {}

  get attempts(): number {
    return this.attempt;
  }

  nextDelay(): number {
    return backoffDelay(this.attempt++, this.options);
  }

  wait(signal?: AbortSignal): Promise<void> {
    return sleep(this.nextDelay(), signal);
  }

  reset(): void {
    this.attempt = 0;
  }
}
