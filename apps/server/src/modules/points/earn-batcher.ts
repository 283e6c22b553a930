/**
 * Applies earnings in batches (group commit): entries added while a batch commits go into the next
 * one, up to `maxBatch` rows each, one transaction per batch.
 *
 * Entries are split into `concurrency` lanes by viewer (a hash of channel, platform and platform
 * user id), and each lane commits one batch at a time (1 lane on the embedded database, whose one
 * connection runs one transaction at a time; more on PostgreSQL, whose connections run on every core
 * and share each commit's disk flush). Batches committing at once therefore never touch the same
 * viewer's wallet: no lock waits between them on a busy viewer, no deadlocks (two identities linked
 * into one wallet may still meet; the repository locks wallets in id order and retries a deadlock).
 * Credits commute, so lanes may commit in any order. `add` resolves when its entry is durable, so
 * the pipeline effect that earned it is marked done only after the commit; a failed batch rejects
 * its entries (the effects are retried; the ledger's keys keep them exactly once).
 */
import type { EarnEntry } from './points-repository';

interface Pending {
  entry: EarnEntry;
  done: () => void;
  fail: (error: unknown) => void;
}

/** The lane of a viewer: FNV-1a over channel, platform and platform user id. */
export function earnLane(entry: Pick<EarnEntry, 'channelId' | 'identity'>, lanes: number): number {
  if (lanes <= 1) return 0;
  const s = `${entry.channelId}\u0000${entry.identity.provider}\u0000${entry.identity.providerUserId}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0) % lanes;
}

export class EarnBatcher {
  private readonly lanes: Pending[][];
  private readonly busy: boolean[];
  /** When each lane last started a batch, and its timer waiting for the linger to pass. */
  private readonly startedAt: number[];
  private readonly lingerTimers: (NodeJS.Timeout | null)[];
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];
  /** Batches committed and entries applied (the bench reads them). */
  readonly stats = { batches: 0, entries: 0, applied: 0 };

  constructor(
    private readonly apply: (entries: readonly EarnEntry[]) => Promise<number>,
    private readonly maxBatch = 1000,
    concurrency = 1,
    /**
     * A lane starts a batch that is not full at most once per `lingerMs` (a full one at once): under a
     * steady trickle entries gather into fewer, larger transactions (three round trips each) instead of
     * one small transaction per event-loop turn; an entry waits at most this long more.
     */
    private readonly lingerMs = 0,
  ) {
    const n = Math.max(1, Math.floor(concurrency));
    this.lanes = Array.from({ length: n }, () => []);
    this.busy = Array.from({ length: n }, () => false);
    this.startedAt = Array.from({ length: n }, () => -Infinity);
    this.lingerTimers = Array.from({ length: n }, () => null);
  }

  add(entry: EarnEntry): Promise<void> {
    return new Promise<void>((done, fail) => {
      this.lanes[earnLane(entry, this.lanes.length)]!.push({ entry, done, fail });
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
      for (const entry of entries) this.lanes[earnLane(entry, this.lanes.length)]!.push({ entry, done: one, fail: bad });
      this.kick();
    });
  }

  /** Entries waiting for a batch (not yet handed to the database). */
  get waiting(): number {
    return this.lanes.reduce((n, l) => n + l.length, 0);
  }

  /** Resolves when everything added so far is applied (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.scheduled || this.busy.some(Boolean) || this.waiting > 0) await new Promise<void>((r) => this.idleWaiters.push(r));
  }

  private lingering(): boolean {
    return this.lingerTimers.some((t) => t !== null);
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

  /** Starts a batch in every free lane that has entries waiting (a lane that is not full: once its linger has passed). */
  private fill(): void {
    const now = performance.now();
    for (let lane = 0; lane < this.lanes.length; lane++) {
      const pending = this.lanes[lane]!;
      if (this.busy[lane] || pending.length === 0) continue;
      const timer = this.lingerTimers[lane];
      const wait = this.startedAt[lane]! + this.lingerMs - now;
      if (pending.length < this.maxBatch && wait > 0) {
        this.lingerTimers[lane] ??= setTimeout(() => {
          this.lingerTimers[lane] = null;
          this.fill();
        }, wait);
        continue;
      }
      if (timer) {
        clearTimeout(timer);
        this.lingerTimers[lane] = null;
      }
      this.busy[lane] = true;
      this.startedAt[lane] = now;
      void this.run(lane, pending.splice(0, this.maxBatch));
    }
    if (!this.scheduled && !this.busy.some(Boolean) && !this.lingering() && this.waiting === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private async run(lane: number, batch: Pending[]): Promise<void> {
    try {
      const applied = await this.apply(batch.map((p) => p.entry));
      this.stats.batches++;
      this.stats.entries += batch.length;
      this.stats.applied += applied;
      for (const p of batch) p.done();
    } catch (error) {
      for (const p of batch) p.fail(error);
    } finally {
      this.busy[lane] = false;
      this.fill();
    }
  }
}
