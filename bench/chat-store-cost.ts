/**
 * The persist step alone: the cost of one group commit (`ChatLogStore.write`: messages with their
 * viewer counters and the points credits applied in the commit) per message, at several batch sizes,
 * on the embedded database in its own thread (as the server runs it) or PostgreSQL (KIND=PostgreSQL
 * with TEST_DATABASE_URL). Wall time and this process's CPU (both threads) per message. A profiling
 * aid for the fixed cost per transaction against the cost per row; the figures need a quiet machine.
 * Run: SIZES=1,10,50,200 TOTAL=2000 npx tsx bench/chat-store-cost.ts   (POINTS=0: without credits;
 * PREP_SQL="DROP INDEX chat_messages_text_trgm": statements run first, to price an index or a trigger)
 */
import { benchDatabase, storedMessages } from './chat-bench-lib';
import { ChatLogStore, type WriteBatch } from '../apps/server/src/pipeline/chat-log-store';
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
for (const size of sizes) {
  // warm
  for (let round = 0; round < 2; round++) {
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    const db0 = databaseThreadMs();
    let msgs = 0;
    while (msgs < total) {
      const ms = storedMessages(size, bench.channelIds).map((m) => {
        const id = `x${n++}`;
        return { ...m, id: `twitch:${id}`, provider_message_id: id };
      });
      const batch: WriteBatch = {
        messages: ms,
        moderation: [],
        activities: [],
        gaps: [],
        effects: ms.map((m) => ({
          sourceId: m.id,
          effect: {
            kind: 'points.earn',
            channelId: m.channel_id,
            payload: {
              provider: 'twitch',
              provider_user_id: m.author.provider_user_id,
              login: m.author.login,
              display_name: m.author.display_name,
              amount: 10,
              kind: 'chat',
              key: `k:${m.id}`,
            },
          },
        })),
        states: [],
      };
      await store.write(batch);
      msgs += size;
    }
    const el = performance.now() - start;
    const cpu = process.cpuUsage(cpu0);
    const dbMs = databaseThreadMs() - db0;
    if (round === 1)
      console.log(
        `batch ${size}: ${((el * 1000) / msgs).toFixed(0)} µs wall/msg, ${(msgs / (el / 1000)).toFixed(0)} msg/s, process CPU ${((cpu.user + cpu.system) / msgs).toFixed(0)} µs/msg, database thread ${((dbMs * 1000) / msgs).toFixed(0)} µs/msg`,
      );
  }
}
await bench.close();
