/**
 * Stats with a channel of 1,000,000 chat messages over 30 days on three platforms (5,000 chatters each), 200,000
 * points-ledger rows, a command use every 20 minutes per platform and a viewer sample every minute per platform,
 * seeded in bulk (generate_series into the rollups' sources, never through the API), then rolled up by the rollup
 * job. Embedded PGlite by default; PostgreSQL with `TEST_DATABASE_URL` (or `DATABASE_URL`), e.g.
 * `npx tsx scripts/with-postgres.ts npx tsx bench/stats.ts` (a throw-away cluster).
 *
 *  - The rollup job's catch-up rate (chat-log rows per second into the minute, hour and chatter-month
 *    rollups), beside aggregate INSERT … SELECTs of the same rows in one pass into tables with the same primary keys
 *    (no batches, no conflicts, the hours straight from the log): the ceiling.
 *  - The stats API's work (`StatsQueries.range`, what the route answers) for 24 h, 7 d and 30 d: p50/p95 over
 *    repeated calls, beside a ceiling measured in the same run — the database reading the same rollup rows (the same
 *    tables and index ranges the answer reads) once, with nothing grouped, sorted or returned: the least any answer
 *    from these rollups costs — with the ratio; and, for scale, what scanning the chat log for the same range costs.
 * Figures on a loaded machine are indicative: the load average is printed with them.
 * Run: npx tsx bench/stats.ts (MESSAGES=200000 for a quicker run)
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client';
import { channelProviders, channels } from '../apps/server/src/db/schema';
import { bucketSeconds, StatsQueries, StatsRollup } from '../apps/server/src/modules/stats';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const DAY = 86_400_000;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  await fn(); // warm-up
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export async function benchStats(): Promise<BenchResult[]> {
  const total = Number(process.env.MESSAGES ?? 1_000_000);
  const ledgerRows = Math.round(total / 5);
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const database = await openDatabase(url ? { url } : { dataDir: 'memory://' });
  console.log(`  database: ${database.kind}`);
  const db = database.db;
  const results: BenchResult[] = [];
  try {
    await db.insert(channels).values({ id: 'c1', displayName: 'Bench' });
    const platforms = ['twitch', 'kick', 'youtube'] as const;
    for (const p of platforms) {
      await db
        .insert(channelProviders)
        .values({ id: `cp-${p}`, channelId: 'c1', provider: p, providerChannelId: p, providerChannelName: p });
    }
    const end = Math.floor(Date.now() / 60_000) * 60_000;
    const start = end - 30 * DAY;
    // The chat log: messages spread evenly over 30 days, three platforms, 5,000 chatters, in statements of 100,000.
    let t0 = process.hrtime.bigint();
    for (let from = 0; from < total; from += 100_000) {
      const to = Math.min(total, from + 100_000);
      await db.execute(sql`
        INSERT INTO chat_messages (id, channel_id, channel_provider_id, provider, provider_message_id, author_id, author_login,
          author_name, author_badges, author_roles, text, emotes, mentions, sent_at, received_at)
        SELECT 'm' || i, 'c1', 'cp-' || p, p, 'm' || i, 'u' || (i % 5000), 'u' || (i % 5000), 'User' || (i % 5000), '[]', '{}',
          'hello chat', '[]', '[]', ts, ts
        FROM (SELECT i, (ARRAY['twitch','kick','youtube'])[1 + i % 3] AS p,
          to_timestamp((${start}::bigint + (i::bigint * ${30 * DAY}::bigint) / ${total}::bigint) / 1000.0) AS ts
          FROM generate_series(${from}::int, ${to - 1}::int) AS i) s`);
    }
    // The points ledger (through its trigger, as the points module writes it): earning, commands, games, gifts.
    await db.execute(sql`
      INSERT INTO point_wallets (id, channel_id, display_name, balance)
      SELECT 'w' || i, 'c1', 'User' || i, 1000000 FROM generate_series(0, 4999) AS i`);
    for (let from = 0; from < ledgerRows; from += 100_000) {
      const to = Math.min(ledgerRows, from + 100_000);
      await db.execute(sql`
        INSERT INTO point_ledger (channel_id, wallet_id, delta, kind, idempotency_key, created_at)
        SELECT 'c1', 'w' || (i % 5000), (ARRAY[5, -20, 15, -10, 30])[1 + i % 5],
          (ARRAY['watch', 'command', 'slots', 'roulette', 'give'])[1 + i % 5], 'k' || i,
          to_timestamp((${start}::bigint + (i::bigint * ${30 * DAY}::bigint) / ${ledgerRows}::bigint) / 1000.0)
        FROM generate_series(${from}::int, ${to - 1}::int) AS i`);
    }
    // Viewer samples for every minute, as the sampler writes them while live (their hours are recomputed by the
    // rollup below, which writes into every minute's hour).
    await db.execute(sql`
      INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, viewers)
      SELECT 'c1', 'cp-' || p, p, to_timestamp(m * 60), 100 + (m % 50)
      FROM generate_series(${start / 60_000}::bigint, ${end / 60_000 - 1}::bigint) AS m, unnest(ARRAY['twitch','kick','youtube']) AS p
      ON CONFLICT (channel_id, channel_provider_id, minute) DO UPDATE SET viewers = excluded.viewers`);
    const seedSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(
      `  seeded ${total.toLocaleString('en-US')} chat messages and ${ledgerRows.toLocaleString('en-US')} ledger rows in ${seedSeconds.toFixed(1)} s`,
    );

    // The rollup job catching up on the whole log, beside the bare aggregate inserts of the same rows.
    const rollup = new StatsRollup(db);
    for (let m = start; m < end; m += 60_000 * 20) {
      // A command use every 20 minutes per platform (they arrive from the chatbot, counted in memory until a rollup).
      for (const p of platforms) {
        rollup.commandUsed({
          effectId: `${p}${m}`,
          channelId: 'c1',
          channelProviderId: `cp-${p}`,
          provider: p,
          commandId: 'cmd',
          at: new Date(m),
        });
      }
    }
    t0 = process.hrtime.bigint();
    const read = await rollup.rollup();
    const rollupSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const rollupRate = Math.round(total / rollupSeconds);
    console.log(`  rolled up ${read.toLocaleString('en-US')} source rows in ${rollupSeconds.toFixed(1)} s`);
    // The same keys (the rollups' primary keys), so the ceiling maintains the same indexes.
    await db.execute(
      sql`CREATE TABLE bare_minutes (channel_provider_id text, minute timestamptz, messages bigint, PRIMARY KEY (channel_provider_id, minute))`,
    );
    await db.execute(
      sql`CREATE TABLE bare_hours (channel_provider_id text, hour timestamptz, messages bigint, PRIMARY KEY (channel_provider_id, hour))`,
    );
    await db.execute(sql`CREATE TABLE bare_chatter_months (month date, provider text, author_id text, author_name text, days integer[],
      PRIMARY KEY (month, provider, author_id))`);
    t0 = process.hrtime.bigint();
    await db.execute(sql`
      INSERT INTO bare_minutes SELECT channel_provider_id, date_trunc('minute', received_at), count(*) FROM chat_messages GROUP BY 1, 2`);
    await db.execute(sql`
      INSERT INTO bare_hours SELECT channel_provider_id, date_trunc('hour', received_at, 'UTC'), count(*) FROM chat_messages GROUP BY 1, 2`);
    await db.execute(sql`
      INSERT INTO bare_chatter_months SELECT month, provider, author_id, max(author_name), ARRAY[${sql.raw(
        Array.from({ length: 31 }, (_, i) => `count(*) FILTER (WHERE dom <= ${i + 1})::integer`).join(', '),
      )}]
      FROM (SELECT date_trunc('month', received_at AT TIME ZONE 'UTC')::date AS month,
        extract(day FROM received_at AT TIME ZONE 'UTC')::integer AS dom, provider, author_id, author_name FROM chat_messages) d
      GROUP BY 1, 2, 3`);
    await db.execute(sql`DROP TABLE bare_minutes, bare_hours, bare_chatter_months`);
    const bareRate = Math.round(total / (Number(process.hrtime.bigint() - t0) / 1e9));
    console.log(
      `  rollup ${rollupRate.toLocaleString('en-US')} rows/s, ceiling ${bareRate.toLocaleString('en-US')} rows/s (load average ${load()})`,
    );
    results.push(
      { name: 'rollup catch-up (chat-log rows/s)', value: rollupRate, unit: 'rows/s' },
      {
        name: 'ceiling: aggregate INSERT … SELECTs of the same rollups into tables with the same keys, no conflicts',
        value: bareRate,
        unit: 'rows/s',
      },
      { name: 'rollup / ceiling', value: Math.round((rollupRate / bareRate) * 100) / 100, unit: '×' },
    );
    // As the rollup job does after it wrote (it analyzes at most every 10 minutes; the catch-up was one run).
    await db.execute(sql`ANALYZE stats_minutes, stats_points, stats_commands, stats_hours, stats_channel_hours, stats_chatter_months`);

    const queries = new StatsQueries(db);
    for (const [label, days] of [
      ['24 h', 1],
      ['7 d', 7],
      ['30 d', 30],
    ] as const) {
      const from = new Date(end - days * DAY);
      const to = new Date(end);
      const f = from.toISOString();
      const t = to.toISOString();
      const dayFrom = f.slice(0, 10);
      const dayTo = new Date(to.getTime() - 1).toISOString().slice(0, 10);
      const api = await timeIt(30, () => queries.range('c1', from, to));
      // The least an answer from these rollups costs: the database reading the rows the answer reads (the same tables
      // and index ranges: whole hours from the hour rollups and the minutes at either end, or minutes only for
      // narrower buckets; the chatters' month rows) once, with nothing grouped, sorted or sent back.
      const HOUR = 3_600_000;
      let hFrom = Math.ceil(from.getTime() / HOUR) * HOUR;
      let hTo = Math.floor(to.getTime() / HOUR) * HOUR;
      if (bucketSeconds(from, to) % 3600 !== 0 || hFrom >= hTo) hFrom = hTo = to.getTime();
      const hf = new Date(hFrom).toISOString();
      const ht = new Date(hTo).toISOString();
      const minutes = sql`channel_id = 'c1' AND (minute >= ${f} AND minute < ${hf} OR minute >= ${ht} AND minute < ${t})`;
      const hours = sql`channel_id = 'c1' AND hour >= ${hf} AND hour < ${ht}`;
      const chatterRows = sql`SELECT count(*), sum(days[31]) FROM stats_chatter_months WHERE channel_id = 'c1'
        AND month >= ${dayFrom.slice(0, 7) + '-01'}::date AND month <= ${dayTo.slice(0, 7) + '-01'}::date`;
      const ceiling = await timeIt(30, () =>
        Promise.all([
          db.execute(sql`SELECT count(*), sum(messages) FROM stats_hours WHERE ${hours}`),
          db.execute(sql`SELECT count(*), sum(messages) FROM stats_minutes WHERE ${minutes}`),
          db.execute(sql`SELECT count(*), sum(viewer_sum) FROM stats_channel_hours WHERE ${hours}`),
          db.execute(chatterRows),
          db.execute(sql`SELECT count(*), sum(earned) FROM stats_points WHERE ${minutes}`),
        ]),
      );
      // For scale: what a page load would cost reading the chat log itself for a few of the same figures.
      const scan = await timeIt(2, () =>
        Promise.all([
          db.execute(sql`SELECT count(*), count(DISTINCT (provider, author_id)) FROM chat_messages
            WHERE channel_id = 'c1' AND received_at >= ${f} AND received_at < ${t}`),
          db.execute(sql`SELECT provider, author_id, count(*) FROM chat_messages
            WHERE channel_id = 'c1' AND received_at >= ${f} AND received_at < ${t}
            GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10`),
        ]),
      );
      results.push(
        { name: `stats ${label} p50`, value: api.p50, unit: 'ms' },
        { name: `stats ${label} p95 (goal ≤ 200 ms)`, value: api.p95, unit: 'ms' },
        { name: `ceiling: reading the same rollup rows once ${label} p50`, value: ceiling.p50, unit: 'ms' },
        { name: `ceiling: reading the same rollup rows once ${label} p95`, value: ceiling.p95, unit: 'ms' },
        { name: `stats / ceiling (${label}, p95)`, value: Math.round((api.p95 / ceiling.p95) * 100) / 100, unit: '×' },
        { name: `for scale: scanning the chat log ${label} p95`, value: scan.p95, unit: 'ms' },
      );
      // Printed as measured: a long run on a loaded machine still leaves its figures.
      console.log(
        `  ${label}: p50 ${api.p50} ms, p95 ${api.p95} ms (goal ≤ 200 ms); ceiling p50 ${ceiling.p50} ms, p95 ${ceiling.p95} ms; ratio ${(api.p95 / ceiling.p95).toFixed(2)}×; scanning the chat log p95 ${scan.p95} ms (load average ${load()})`,
      );
    }
    results.push({ name: `load average at the end (1 min)`, value: Math.round(loadavg()[0]! * 100) / 100, unit: '' });
    return results;
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(`stats bench (load average ${load()})`);
  for (const r of await benchStats()) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
}
