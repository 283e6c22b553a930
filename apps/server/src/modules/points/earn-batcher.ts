/**
 * Applies earnings in batches (group commit): entries added while batches commit go into the next
 * one, up to `maxBatch` rows each, one transaction per batch, at most `concurrency` batches at once
 * (1 on the embedded database, whose one connection runs one transaction at a time; more on
 * PostgreSQL, whose connections run on every core and share each commit's disk flush). Credits
 * commute, so batches may commit in any order. `add` resolves when its entry is durable, so the
 * pipeline effect that earned it is marked done only after the commit; a failed batch rejects its
 * entries (the effects are retried; the ledger's keys keep them exactly once).
 */
import type { EarnEntry } from './points-repository';

interface Pending {
  entry: EarnEntry;
  done: () => void;
  fail: (error: unknown) => void;
}

export class EarnBatcher {
  private pending: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];
  /** Batches committed and entries applied (the bench reads them). */
  readonly stats = { batches: 0, entries: 0, applied: 0 };

  constructor(
    private readonly apply: (entries: readonly EarnEntry[]) => Promise<number>,
    private readonly maxBatch = 1000,
    private readonly concurrency = 1,
  ) {}

  add(entry: EarnEntry): Promise<void> {
    return new Promise<void>((done, fail) => {
      this.pending.push({ entry, done, fail });
      this.kick();
    });
  }

  /** Many entries with one completion (a watch-time payout); rejects if any batch with them failed. */
  addMany(entries: readonly EarnEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return new Promise<void>((done, fail) => {
      let left = entries.length;
      let failed = false;
      const one = () => {
        if (--left === 0 && !failed) done();
      };
      const bad = (error: unknown) => {
        if (failed) return;
        failed = true;
        fail(error instanceof Error ? error : new Error(String(error)));
      };
      for (const entry of entries) this.pending.push({ entry, done: one, fail: bad });
      this.kick();
    });
  }

  /** Resolves when everything added so far is applied (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.scheduled || this.inFlight > 0 || this.pending.length > 0) await new Promise<void>((r) => this.idleWaiters.push(r));
  }

  private kick(): void {
    // Started on the next tick, so entries added in the same turn share a batch.
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.fill();
    });
  }

  /** Starts batches while there are entries waiting and a free slot. */
  private fill(): void {
    while (this.pending.length > 0 && this.inFlight < this.concurrency) {
      this.inFlight++;
      void this.run(this.pending.splice(0, this.maxBatch));
    }
    if (this.inFlight === 0 && this.pending.length === 0 && !this.scheduled) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private async run(batch: Pending[]): Promise<void> {
    try {
      const applied = await this.apply(batch.map((p) => p.entry));
      this.stats.batches++;
      this.stats.entries += batch.length;
      this.stats.applied += applied;
      for (const p of batch) p.done();
    } catch (error) {
      for (const p of batch) p.fail(error);
    } finally {
      this.inFlight--;
      this.fill();
    }
  }
}
