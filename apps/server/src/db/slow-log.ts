/**
 * A diagnostic for stalls (off unless `DB_SLOW_MS` is set, e.g. `DB_SLOW_MS=50`): one JSON line on stderr for each
 * database call or event-loop stall longer than that many milliseconds, with its wall-clock time, so a bench can line
 * them up with its latency spikes (`bench/chat-ingest.ts` prints them beside its per-second p99 when set).
 *
 * - `{"slow":{"kind":"run",…}}`: one synchronous call into PGlite's WebAssembly (the thread is blocked meanwhile), with
 *   the first 80 characters of the statement it ran;
 * - `kind: "call"`: a request to the database thread from its arrival to its answer (it includes the wait behind an
 *   open transaction or another call), with `runMs`, the part of it spent inside PGlite;
 * - `kind: "tx"`: a transaction held open that long (every other call waits meanwhile);
 * - `kind: "sync"`: PGlite's flush of its files after a statement or commit;
 * - `kind: "batch"`: a group commit of the chat log (`rows`, and `waitedMs`: how long its oldest row queued before it);
 * - `kind: "loop"`: the thread's event loop late by that much (something synchronous that is not a database call:
 *   garbage collection, a long handler).
 */
import { threadId } from 'node:worker_threads';

/** The threshold in milliseconds; 0: off. */
export const slowMs = Math.max(0, Number(process.env.DB_SLOW_MS ?? 0) || 0);

export interface SlowEntry {
  kind: 'run' | 'call' | 'tx' | 'sync' | 'loop' | 'batch';
  /** Wall-clock time at its end (ms since the epoch). */
  at: number;
  ms: number;
  sql?: string;
  [key: string]: unknown;
}

export function logSlow(entry: SlowEntry): void {
  const out = { ...entry, ms: Math.round(entry.ms * 10) / 10, thread: threadId };
  if (out.sql !== undefined) out.sql = out.sql.replace(/\s+/g, ' ').slice(0, 80);
  process.stderr.write(`${JSON.stringify({ slow: out })}\n`);
}

/** Logs this thread's event loop running late by more than `slowMs` (checked every 10 ms); a no-op when off. */
export function watchEventLoop(): void {
  if (slowMs === 0) return;
  const every = 10;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - last - every;
    last = now;
    if (late > slowMs) logSlow({ kind: 'loop', at: Date.now(), ms: late });
  }, every);
  timer.unref();
}
