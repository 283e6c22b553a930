/**
 * A profiling aid: the embedded database's fixed costs per statement and per transaction as the
 * server pays them (drizzle → pglite-remote.ts → the database thread and back), wall time and CPU of
 * both threads. Tiny statements, so what is measured is the hand-over, not the work. Needs a quiet machine.
 * Run: npx tsx bench/pglite-remote-cost.ts
 */
import { sql } from 'drizzle-orm';
import { loadavg } from 'node:os';
import { benchDatabase } from './chat-bench-lib';

const bench = await benchDatabase('PGlite', 10);
const db = bench.database.db;
console.log(
  'load',
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' '),
);
async function measure(name: string, n: number, fn: () => Promise<unknown>) {
  for (let i = 0; i < Math.min(50, n); i++) await fn();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  const el = performance.now() - t0;
  const c = process.cpuUsage(c0);
  console.log(`${name}: ${((el * 1000) / n).toFixed(0)} µs wall, ${((c.user + c.system) / n).toFixed(0)} µs CPU each`);
}
await measure('query SELECT 1', 1000, () => db.execute(sql`SELECT 1`));
await measure('empty transaction', 500, () => db.transaction(async () => {}));
await measure('transaction + SELECT 1', 500, () => db.transaction(async (tx) => tx.execute(sql`SELECT 1`)));
await measure('transaction + 3 x SELECT 1', 500, () =>
  db.transaction(async (tx) => {
    for (let i = 0; i < 3; i++) await tx.execute(sql`SELECT 1`);
  }),
);
await db.execute(sql`CREATE TABLE remote_cost (id serial primary key, v text)`);
await measure('transaction + 1 insert', 500, () =>
  db.transaction(async (tx) => tx.execute(sql`INSERT INTO remote_cost (v) VALUES (${'x'})`)),
);
await bench.close();
