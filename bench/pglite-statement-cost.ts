/**
 * The embedded database's CPU per statement of a list request, by how the statement is sent (in-process, one thread):
 * - "parsed each time": BatchedQueries as it was before named prepared statements (git BENCH_BASELINE_REV, default
 *   8e19099: one call, an unnamed statement parsed, analysed and planned at every execution);
 * - "named, custom plans": the statement parsed once under a name, planned for its values at every execution
 *   (`plan_cache_mode = force_custom_plan`);
 * - "named, auto": as the product sends it now (PostgreSQL's default `plan_cache_mode = auto`: a generic plan once
 *   the planner finds it no dearer);
 * - "named, generic": `force_generic_plan`, for reference;
 * and PGlite's own `query()` (six calls into the database) beside them. The statements are the product's own,
 * captured from its services (drizzle's logger) on seeded data: the session gate, a channel list for an Owner of 100
 * channels and for a member of all, its providers, a chat history page, an activity page, a name search. Rounds
 * alternate the ways (A/B interleaved) on one database; the figure is the median round's CPU per statement.
 * Run: npx tsx bench/pglite-statement-cost.ts   (BENCH_SCALE_CHANNELS default 100,000; BENCH_SCALE_ROWS default 50,000)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { BatchedQueries } from '../apps/server/src/db/pglite-batched';
import { pgliteExtensions } from '../apps/server/src/db/pglite-extensions';
import { analyzeStale } from '../apps/server/src/db/planner-statistics';
import * as schema from '../apps/server/src/db/schema';
import type { Db } from '../apps/server/src/db/client';
import { ActivityService } from '../apps/server/src/modules/activity/activity-service';
import { SessionService } from '../apps/server/src/modules/auth/sessions';
import { ChannelService, type ChannelServiceDeps } from '../apps/server/src/modules/channels/channel-service';
import { ChatQueries } from '../apps/server/src/modules/chat/chat-queries';

process.env.BENCH_SCALE_CHANNELS ??= '100000';
process.env.BENCH_SCALE_ROWS ??= '50000';
const { seed } = await import('./scale');

const here = path.dirname(fileURLToPath(import.meta.url));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`load average at start: ${load()}`);

// The baseline: pglite-batched.ts as it was, from git.
const rev = process.env.BENCH_BASELINE_REV ?? '8e19099';
const dir = mkdtempSync(path.join(here, '.baseline-'));
const baselineFile = path.join(dir, 'pglite-batched.ts');
writeFileSync(baselineFile, execFileSync('git', ['show', `${rev}:apps/server/src/db/pglite-batched.ts`], { cwd: here }));
const { BatchedQueries: Before } = (await import(pathToFileURL(baselineFile).href)) as { BatchedQueries: typeof BatchedQueries };
rmSync(dir, { recursive: true, force: true });

const pg = await PGlite.create({ extensions: pgliteExtensions });
// The statements the services send, with their parameters.
const captured: { sql: string; params: unknown[] }[] = [];
let capturing = false;
const db = drizzle(pg, {
  schema,
  logger: {
    logQuery: (sql, params) => {
      if (capturing) captured.push({ sql, params });
    },
  },
}) as unknown as Db;
await migrate(db as never, { migrationsFolder: path.join(here, '../apps/server/src/db/migrations') });
const t0 = performance.now();
await seed(db, 'PGlite');
await analyzeStale(db);
console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

const sessions = new SessionService(db, 30, []);
const token = (await sessions.create('u-0')).token;
const channelsService = new ChannelService(db, {} as ChannelServiceDeps);
const chat = new ChatQueries(db);
const activity = new ActivityService(db, async () => undefined);
const BUSY = 'ch-0000000';

async function capture(name: string, fn: () => Promise<unknown>): Promise<{ name: string; statements: typeof captured }> {
  captured.length = 0;
  capturing = true;
  await fn();
  capturing = false;
  return { name, statements: captured.splice(0) };
}
const requests = [
  await capture('session gate', () => sessions.lookup(token, BUSY)),
  await capture('channels: Owner of 100', () => channelsService.listForUser('u-0', { per_page: 50 })),
  await capture('channels: member of all', () => channelsService.listForUser('u-member', { per_page: 50 })),
  await capture('chat history', () => chat.history(BUSY, { limit: 50 })),
  await capture('activity', () => activity.list(BUSY, { per_page: 50 })),
  await capture('channels: ?name= (pattern)', () => channelsService.listForUser('u-member', { per_page: 50, name: 'stream' })),
];

const before = new Before(pg);
const after = new BatchedQueries(pg);
const ways: { name: string; mode: string; run: (sql: string, params: unknown[]) => Promise<unknown> }[] = [
  { name: 'parsed each time (before)', mode: 'auto', run: (sql, params) => before.query(sql, params, {}, false) },
  { name: 'named, custom plans', mode: 'force_custom_plan', run: (sql, params) => after.query(sql, params, {}, false) },
  { name: 'named, auto (now)', mode: 'auto', run: (sql, params) => after.query(sql, params, {}, false) },
  { name: 'named, generic plans', mode: 'force_generic_plan', run: (sql, params) => after.query(sql, params, {}, false) },
  { name: 'PGlite query()', mode: 'auto', run: (sql, params) => pg.query(sql, params) },
];

const ROUNDS = Number(process.env.BENCH_ROUNDS) || 7;
const N = 200;
const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`CPU per statement (µs; median of ${ROUNDS} interleaved rounds of ${N} executions each, or a second's):`);
for (const request of requests) {
  const figures = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of ways) {
      // A fresh set of prepared statements for each way, warmed (PostgreSQL's auto mode decides after five runs).
      after.forgetUnlessDml('RESET plan_cache_mode');
      await pg.exec(`SET plan_cache_mode = ${way.mode}`);
      for (let i = 0; i < 6; i++) for (const s of request.statements) await way.run(s.sql, s.params);
      // N executions, or fewer when they take over a second (a way whose plan reads far).
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      let runs = 0;
      while (runs < N && (runs < 5 || performance.now() - t0 < 1000)) {
        for (const s of request.statements) await way.run(s.sql, s.params);
        runs++;
      }
      const c = process.cpuUsage(c0);
      figures.set(way.name, [...(figures.get(way.name) ?? []), (c.user + c.system) / runs / request.statements.length]);
    }
  }
  await pg.exec('RESET plan_cache_mode');
  const line = ways.map((w) => `${w.name} ${median(figures.get(w.name)!).toFixed(0)}`).join(' | ');
  console.log(`  ${request.name} (${request.statements.length} statement${request.statements.length > 1 ? 's' : ''}): ${line}`);
}
// The database memory prepared statements hold (parse trees, plans): every request's statements kept, run 10 times.
const cachedBytes = async () =>
  (
    await pg.query<{ bytes: number }>(
      `SELECT coalesce(sum(total_bytes), 0)::int AS bytes FROM pg_backend_memory_contexts WHERE name IN ('CachedPlanSource', 'CachedPlanQuery', 'CachedPlan')`,
    )
  ).rows[0]!.bytes;
after.forgetUnlessDml('RESET plan_cache_mode');
await after.query('SELECT 1', [], {}, false);
const bytes0 = await cachedBytes();
for (let i = 0; i < 10; i++)
  for (const request of requests) for (const s of request.statements) await after.query(s.sql, s.params, {}, false);
const prepared = after.size.prepared;
console.log(`memory of ${prepared} prepared statements: ${((await cachedBytes()) - bytes0) / 1024 / prepared} KB each`);
console.log(`load average at end: ${load()}`);
await pg.close();
