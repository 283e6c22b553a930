/**
 * The persist step held: group commits of the chat log (`ChatLogStore.write`, with the points credits) one after
 * another on the embedded database in its own thread, as the server runs it, each timed — to find the stalls that
 * come over a run (an index's deferred work, ANALYZE) rather than the mean cost. Prints the distribution of a
 * commit's time and its largest ones with the rows stored before them; ANALYZE_EVERY=<rows> runs the server's
 * planner-statistics job that often (timed apart). VARIANTS="label:SQL;SQL|label:SQL" runs the same workload on a
 * fresh database per variant after those statements (e.g. `fastupdate off:ALTER INDEX chat_messages_text_trgm SET
 * (fastupdate = off)`), rounds interleaved (ROUNDS, default 1).
 * Run: SIZE=50 TOTAL=60000 npx tsx bench/chat-store-stalls.ts
 */
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { benchDatabase, percentile, earningBatch } from './chat-bench-lib';
import { ChatLogStore } from '../apps/server/src/pipeline/chat-log-store';
import { createEarnHandler } from '../apps/server/src/modules/points/stages';
import { analyzeStale } from '../apps/server/src/db/planner-statistics';

const size = Number(process.env.SIZE ?? 50);
const total = Number(process.env.TOTAL ?? 60_000);
const analyzeEvery = Number(process.env.ANALYZE_EVERY ?? 0);
const rounds = Number(process.env.ROUNDS ?? 1);
/**
 * INPROCESS=1: PGlite in memory in this thread, and each commit timed by this process's CPU instead of the wall clock
 * (the CPU a commit blocks the database's thread for, whatever else the shared machine runs).
 */
const inProcess = process.env.INPROCESS === '1';
const clock = inProcess
  ? () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    }
  : () => performance.now();
const variants = (process.env.VARIANTS ?? 'as migrated:').split('|').map((v) => {
  const at = v.indexOf(':');
  return {
    label: v.slice(0, at),
    statements: v
      .slice(at + 1)
      .split(';')
      .filter((s) => s.trim()),
  };
});
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function run(variant: (typeof variants)[number]): Promise<void> {
  const bench = await benchDatabase('PGlite', 10, { inProcess });
  try {
    for (const statement of variant.statements) await bench.database.db.execute(sql.raw(statement));
    const store = new ChatLogStore(bench.database.db);
    store.applyInStatement(createEarnHandler({ add: async () => {} }));
    const times: { ms: number; before: number }[] = [];
    const analyses: string[] = [];
    let n = 0;
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    while (n < total) {
      const batch = earningBatch(size, bench.channelIds, () => `x${n++}`);
      const t = clock();
      await store.write(batch);
      times.push({ ms: clock() - t, before: n - size });
      if (analyzeEvery > 0 && n % analyzeEvery < size) {
        const a = clock();
        const tables = await analyzeStale(bench.database.db);
        analyses.push(`${n}: ${Math.round(clock() - a)} ms (${tables.join(', ') || 'none'})`);
      }
    }
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
    const top = [...times].sort((a, b) => b.ms - a.ms).slice(0, 8);
    const over = (limit: number) => times.filter((t) => t.ms > limit).length;
    console.log(
      `${variant.label}${inProcess ? ' (CPU ms, in-process)' : ''}: ${times.length} commits of ${size}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)}, ` +
        `max ${sorted.at(-1)!.toFixed(1)}; > 20 ms ${over(20)}, > 50 ms ${over(50)}; ${((wall * 1000) / total).toFixed(0)} µs wall/msg, ` +
        `process CPU ${((cpu.user + cpu.system) / total).toFixed(0)} µs/msg; load ${load()}`,
    );
    console.log(`  largest (ms @ rows before): ${top.map((t) => `${t.ms.toFixed(0)}@${t.before}`).join(', ')}`);
    if (analyses.length) console.log(`  ANALYZE: ${analyses.join('; ')}`);
    // ANALYZE_PROBES="ANALYZE chat_messages|SET default_statistics_target = 10; ANALYZE chat_messages|…": each timed
    // (three times, the median) on the filled database, to price ANALYZE's forms.
    for (const probe of (process.env.ANALYZE_PROBES ?? '').split('|').filter((p) => p.trim())) {
      const ms: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = clock();
        for (const statement of probe.split(';').filter((s) => s.trim())) await bench.database.db.execute(sql.raw(statement));
        ms.push(clock() - t);
        await bench.database.db.execute(sql.raw('RESET default_statistics_target'));
      }
      console.log(`  ${probe}: ${ms.sort((a, b) => a - b)[1]!.toFixed(0)} ms`);
    }
  } finally {
    await bench.close();
  }
}

console.log(`load ${load()}`);
for (let r = 0; r < rounds; r++) for (const v of variants) await run(v);
