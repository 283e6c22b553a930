/**
 * Fresh planner statistics for the embedded database. PostgreSQL's autovacuum daemon ANALYZEs a table once enough of
 * it changed; PGlite runs no background workers, so without this its tables keep the statistics of their last ANALYZE
 * — none at all for a table filled after the migrations — and the planner picks plans for empty tables (a channel list
 * among 100,000 channels took ~0.4 s instead of ~10 ms). This job does autovacuum's analyze part: every table whose
 * size moved by more than a tenth since its last ANALYZE (or that was never analysed and has rows) is analysed, at
 * start and then every minute. PGlite keeps no per-table change counters, so the size on disk stands in for them.
 * The size recorded in `pg_class` is not only ANALYZE's: CREATE INDEX (a migration adding an index to a filled table)
 * and VACUUM write it too, without the column statistics the planner needs, so a table with rows and no column
 * statistics (`pg_statistic`) is stale whatever its recorded size says.
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client';

interface TableSize {
  name: string;
  /** Pages at the last ANALYZE (or VACUUM, or CREATE INDEX); -1 tuples: never analysed. */
  analyzedPages: number;
  analyzedTuples: number;
  pages: number;
  /** Whether the table has column statistics (an ANALYZE of it with rows). */
  hasColumnStats: boolean;
}

/** Whether a table changed enough since its last ANALYZE to be analysed again (autovacuum's 10 % rule, by size). */
export function isStale(t: TableSize): boolean {
  if (t.pages === 0) return false;
  if (t.analyzedTuples < 0) return true;
  // Rows counted (by CREATE INDEX or VACUUM) but never analysed: the planner guesses every column.
  if (t.analyzedTuples > 0 && !t.hasColumnStats) return true;
  return Math.abs(t.pages - t.analyzedPages) > Math.max(1, 0.1 * t.analyzedPages);
}

/** ANALYZEs the public tables whose statistics are stale; answers their names. */
export async function analyzeStale(db: Db): Promise<string[]> {
  const result: unknown = await db.execute(sql`
    SELECT c.relname AS name, c.relpages AS analyzed_pages, c.reltuples AS analyzed_tuples,
           (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages,
           EXISTS (SELECT 1 FROM pg_statistic s WHERE s.starelid = c.oid) AS has_stats
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname = 'public'
  `);
  const rows = (result as { rows: { name: string; analyzed_pages: number; analyzed_tuples: number; pages: number; has_stats: boolean }[] })
    .rows;
  const stale = rows
    .map((r) => ({
      name: r.name,
      analyzedPages: Number(r.analyzed_pages),
      analyzedTuples: Number(r.analyzed_tuples),
      pages: Number(r.pages),
      hasColumnStats: Boolean(r.has_stats),
    }))
    .filter(isStale)
    .map((t) => t.name);
  for (const name of stale) await db.execute(sql`ANALYZE ${sql.identifier(name)}`);
  return stale;
}

/** The periodic ANALYZE of an embedded database; `stop()` cancels it at shutdown. */
export class PlannerStatisticsJob {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly db: Db,
    private readonly log: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void },
    private readonly intervalMs = 60_000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  async runOnce(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const started = performance.now();
    try {
      const tables = await analyzeStale(this.db);
      if (tables.length > 0) this.log.info({ tables, ms: Math.round(performance.now() - started) }, 'planner statistics refreshed');
    } catch (error) {
      this.log.error({ err: error }, 'planner statistics refresh failed');
    } finally {
      this.running = false;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
