/**
 * The persist step alone: the cost of one group commit (`ChatLogStore.write`: messages with their
 * viewer counters and the points credits applied in the commit) per message, at several batch sizes,
 * on the embedded database in its own thread (as the server runs it) or PostgreSQL (KIND=PostgreSQL
 * with TEST_DATABASE_URL). Wall time and this process's CPU (both threads) per message. A profiling
 * aid for the fixed cost per transaction against the cost per row; the figures need a quiet machine.
 * Run: SIZES=1,10,50,200 TOTAL=2000 npx tsx bench/chat-store-cost.ts   (POINTS=0: without credits;
 * PREP_SQL="DROP INDEX chat_messages_text_trgm": statements run first, to price an index or a trigger;
 * AB_INDEX=chat_messages_channel_provider_seq: the price of that index, A/B interleaved — rounds alternate without it
 * (dropped) and with it (built again from its own definition, outside the timed part), medians of AB_ROUNDS each)
 */
import { benchDatabase, earningBatch } from './chat-bench-lib';
import { ChatLogStore } from '../apps/server/src/pipeline/chat-log-store';
import { createEarnHandler } from '../apps/server/src/modules/points/stages';
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ms of the busiest thread other than this one (the database thread), from /proc. */
function databaseThreadMs(): number {
  let best = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    if (Number(tid) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      best = Math.max(best, (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // ended
    }
  }
  return best;
}

const kind = (process.env.KIND ?? 'PGlite') as 'PGlite' | 'PostgreSQL';
const bench = await benchDatabase(kind, 10);
// PREP_SQL="DROP INDEX chat_messages_text_trgm; …": statements run before measuring (what-if: an index, a trigger).
for (const statement of (process.env.PREP_SQL ?? '').split(';').filter((s) => s.trim()))
  await bench.database.db.execute(sql.raw(statement));
const store = new ChatLogStore(bench.database.db);
if (process.env.POINTS !== '0') store.applyInStatement(createEarnHandler({ add: async () => {} }));
let n = 0;
const sizes = (process.env.SIZES ?? '10,50,200').split(',').map(Number);
const total = Number(process.env.TOTAL ?? 6000);
console.log(
  'load',
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' '),
);
const abIndex = process.env.AB_INDEX;
const indexRows = (result: unknown) => (result as { rows: { indexdef: string }[] }).rows;
const abDefinition = abIndex
  ? indexRows(await bench.database.db.execute(sql`SELECT indexdef FROM pg_indexes WHERE indexname = ${abIndex}`))[0]!.indexdef
  : '';
/** One timed round of `total` messages in batches of `size`: wall µs, process CPU µs and database thread µs a message. */
async function round(size: number): Promise<{ wall: number; cpu: number; db: number }> {
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const db0 = databaseThreadMs();
  let msgs = 0;
  while (msgs < total) {
    const batch = earningBatch(size, bench.channelIds, () => `x${n++}`);
    await store.write(batch);
    msgs += size;
  }
  const el = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const dbMs = databaseThreadMs() - db0;
  return { wall: (el * 1000) / msgs, cpu: (cpu.user + cpu.system) / msgs, db: (dbMs * 1000) / msgs };
}
const show = (r: { wall: number; cpu: number; db: number }) =>
  `${r.wall.toFixed(0)} µs wall/msg, ${(1e6 / r.wall).toFixed(0)} msg/s, process CPU ${r.cpu.toFixed(0)} µs/msg, database thread ${r.db.toFixed(0)} µs/msg`;
for (const size of sizes) {
  await round(size); // warm
  if (!abIndex) {
    console.log(`batch ${size}: ${show(await round(size))}`);
    continue;
  }
  const rounds = Number(process.env.AB_ROUNDS) || 5;
  const figures: Record<'without' | 'with', { wall: number; cpu: number; db: number }[]> = { without: [], with: [] };
  for (let i = 0; i < rounds; i++) {
    for (const way of ['without', 'with'] as const) {
      await bench.database.db.execute(sql.raw(way === 'with' ? abDefinition : `DROP INDEX ${abIndex}`));
      figures[way].push(await round(size));
    }
  }
  const median = (xs: { wall: number; cpu: number; db: number }[], key: 'wall' | 'cpu' | 'db') =>
    xs.map((x) => x[key]).toSorted((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const way of ['without', 'with'] as const) {
    const m = { wall: median(figures[way], 'wall'), cpu: median(figures[way], 'cpu'), db: median(figures[way], 'db') };
    console.log(`batch ${size}, ${way} ${abIndex} (median of ${rounds}): ${show(m)}`);
  }
}
console.log(
  'load',
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' '),
);
await bench.close();
