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
 *
 * ANALYZE runs on the database's only thread, and every commit waits behind it: at 100,000 chat messages one ANALYZE of
 * chat_messages took ≈ 1.2 s (in a 75 s ingest hold at 1,000 msg/s one ANALYZE blocked it 763 ms: p99 655 ms), so
 * - the columns no query filters, groups or sorts by are not analysed at all (`SET STATISTICS 0`, migration
 *   0023_chat_column_statistics: ≈ 1.2 → 0.35 s);
 * - the chat log's columns other than its text have a small target (25, migration 0024_chat_statistics_sample), and
 *   a table whose columns have different targets is analysed one target at a time (`analyzeStatements`): the text's
 *   30,000-row sample is read for the text alone, and commits run between the statements (at 200,000 rows one
 *   statement of ≈ 140 ms → ≈ 28 + ≈ 60 ms);
 * - the job paces each table by what its last ANALYZE cost: not again before PACE times that much time has passed
 *   (a table growing at ingest rates is stale again within seconds; this keeps ANALYZE at ≈ 1/PACE of the thread).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client';
import { rowsOf } from './rows';

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

/** A table analysed in T ms waits at least PACE × T before the job analyses it again. */
export const PACE = 50;

export interface AnalyzeOptions {
  /** Whether a stale table may be analysed now (the job's pacing); all when absent. */
  due?: (table: string) => boolean;
  /** Told how long each table's ANALYZE took (ms). */
  took?: (table: string, ms: number) => void;
}

/** ANALYZEs the public tables whose statistics are stale (and that are due); answers their names. */
export async function analyzeStale(db: Db, options: AnalyzeOptions = {}): Promise<string[]> {
  const result: unknown = await db.execute(sql`
    SELECT c.relname AS name, c.relpages AS analyzed_pages, c.reltuples AS analyzed_tuples,
           (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages,
           EXISTS (SELECT 1 FROM pg_statistic s WHERE s.starelid = c.oid) AS has_stats
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname = 'public'
  `);
  const rows = rowsOf<{ name: string; analyzed_pages: number; analyzed_tuples: number; pages: number; has_stats: boolean }>(result);
  const stale = rows
    .map((r) => ({
      name: r.name,
      analyzedPages: Number(r.analyzed_pages),
      analyzedTuples: Number(r.analyzed_tuples),
      pages: Number(r.pages),
      hasColumnStats: Boolean(r.has_stats),
    }))
    .filter((t) => isStale(t) && (options.due?.(t.name) ?? true));
  for (const t of stale) {
    const started = performance.now();
    for (const statement of await analyzeStatements(db, t.name)) await db.execute(statement);
    options.took?.(t.name, performance.now() - started);
  }
  return stale.map((t) => t.name);
}

/**
 * The statements that ANALYZE a table: one per statistics target among its analysed columns, smallest first. ANALYZE
 * samples 300 rows for each unit of the largest target among the columns it analyses, so columns kept at a small
 * target are not analysed from the sample one large-target column needs; between the statements the database's thread
 * commits what waits (on PGlite every commit waits behind an ANALYZE). One statement for the whole table when its
 * columns share a target, or when it has an expression index (whose statistics only a whole-table ANALYZE gathers).
 */
export async function analyzeStatements(db: Db, table: string): Promise<SQL[]> {
  const columns = rowsOf<{ name: string; target: number; expressions: boolean }>(
    await db.execute(sql`
      SELECT a.attname AS name,
        coalesce(nullif(a.attstattarget, -1), current_setting('default_statistics_target')::int) AS target,
        EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indexprs IS NOT NULL) AS expressions
      FROM pg_attribute a
      WHERE a.attrelid = to_regclass(${`public.${table}`}) AND a.attnum > 0 AND NOT a.attisdropped`),
  );
  const byTarget = new Map<number, string[]>();
  for (const c of columns) {
    const target = Number(c.target);
    if (target > 0) byTarget.set(target, [...(byTarget.get(target) ?? []), c.name]);
  }
  if (byTarget.size <= 1 || columns.some((c) => c.expressions)) return [sql`ANALYZE ${sql.identifier(table)}`];
  return [...byTarget.entries()]
    .sort(([a], [b]) => a - b)
    .map(
      ([, names]) =>
        sql`ANALYZE ${sql.identifier(table)} (${sql.join(
          names.map((n) => sql.identifier(n)),
          sql`, `,
        )})`,
    );
}

/** The periodic ANALYZE of an embedded database; `stop()` cancels it at shutdown. */
export class PlannerStatisticsJob {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  /** When each table may be analysed again (performance.now() ms): PACE times its last ANALYZE after it. */
  private readonly notBefore = new Map<string, number>();

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
      const tables = await analyzeStale(this.db, {
        due: (table) => (this.notBefore.get(table) ?? 0) <= performance.now(),
        took: (table, ms) => this.notBefore.set(table, performance.now() + PACE * ms),
      });
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
