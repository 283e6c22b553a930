/**
 * Stats on embedded PGlite with a channel of 1,000,000 chat messages over 30 days on three platforms.
 *  - The stats API's query (`StatsQueries.range`, rollups only) for 24 h, 7 d and 30 d: p50/p95 over repeated calls,
 *    beside a baseline measured in the same run — what scanning the chat log for the same range costs (message
 *    count, unique chatters and top chatters straight from chat_messages), with the ratio.
 *  - The rollup job's catch-up rate (chat-log rows rolled up per second), beside the bare INSERT … SELECT of the
 *    same rows into a table without conflict handling.
 * Run: npx tsx bench/stats.ts (MESSAGES=200000 for a quicker run)
 */
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client';
import { channelProviders, channels } from '../apps/server/src/db/schema';
import { StatsQueries, StatsRollup } from '../apps/server/src/modules/stats';

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
  return { p50: Math.round(percentile(samples, 50) * 10) / 10, p95: Math.round(percentile(samples, 95) * 10) / 10 };
}

export async function benchStats(): Promise<BenchResult[]> {
  const total = Number(process.env.MESSAGES ?? 1_000_000);
  const database = await openDatabase({ dataDir: 'memory://' });
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
    // 1,000,000 messages spread over 30 days, three platforms, 5,000 chatters; seeded in steps of 100,000.
    const seedStart = process.hrtime.bigint();
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
    const seedSeconds = Number(process.hrtime.bigint() - seedStart) / 1e9;
    console.log(`  seeded ${total.toLocaleString('en-US')} chat messages in ${seedSeconds.toFixed(1)} s`);

    // The rollup job catching up on the whole log, beside the bare aggregate insert of the same rows.
    const rollup = new StatsRollup(db);
    let t0 = process.hrtime.bigint();
    const read = await rollup.rollup();
    const rollupRate = Math.round(read / (Number(process.hrtime.bigint() - t0) / 1e9));
    await db.execute(sql`CREATE TEMP TABLE bare_minutes (channel_provider_id text, minute timestamptz, messages bigint)`);
    t0 = process.hrtime.bigint();
    await db.execute(sql`
      INSERT INTO bare_minutes SELECT channel_provider_id, date_trunc('minute', received_at), count(*) FROM chat_messages GROUP BY 1, 2`);
    const bareRate = Math.round(total / (Number(process.hrtime.bigint() - t0) / 1e9));
    results.push(
      { name: 'rollup catch-up (chat-log rows/s)', value: rollupRate, unit: 'rows/s' },
      { name: 'ceiling: bare aggregate INSERT … SELECT, same rows', value: bareRate, unit: 'rows/s' },
      { name: 'rollup / ceiling', value: Math.round((rollupRate / bareRate) * 100) / 100, unit: '×' },
    );
    // Viewer samples for every minute, as the sampler writes them while live.
    await db.execute(sql`
      INSERT INTO stats_minutes (channel_id, channel_provider_id, provider, minute, viewers)
      SELECT 'c1', 'cp-' || p, p, to_timestamp(m * 60), 100 + (m % 50)
      FROM generate_series(${start / 60_000}::bigint, ${end / 60_000 - 1}::bigint) AS m, unnest(ARRAY['twitch','kick','youtube']) AS p
      ON CONFLICT (channel_id, channel_provider_id, minute) DO UPDATE SET viewers = excluded.viewers`);

    const queries = new StatsQueries(db);
    for (const [label, days] of [
      ['24 h', 1],
      ['7 d', 7],
      ['30 d', 30],
    ] as const) {
      const from = new Date(end - days * DAY);
      const to = new Date(end);
      const api = await timeIt(30, () => queries.range('c1', from, to));
      // What a page load would cost reading the chat log itself for the same figures.
      const scan = await timeIt(5, () =>
        Promise.all([
          db.execute(sql`SELECT count(*), count(DISTINCT (provider, author_id)) FROM chat_messages
            WHERE channel_id = 'c1' AND received_at >= ${from.toISOString()} AND received_at < ${to.toISOString()}`),
          db.execute(sql`SELECT provider, author_id, count(*) FROM chat_messages
            WHERE channel_id = 'c1' AND received_at >= ${from.toISOString()} AND received_at < ${to.toISOString()}
            GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10`),
        ]),
      );
      results.push(
        { name: `stats ${label} from rollups p50`, value: api.p50, unit: 'ms' },
        { name: `stats ${label} from rollups p95 (goal ≤ 200 ms)`, value: api.p95, unit: 'ms' },
        { name: `baseline: scanning the chat log ${label} p95`, value: scan.p95, unit: 'ms' },
        { name: `scan / rollups (${label})`, value: Math.round((scan.p95 / api.p95) * 10) / 10, unit: '×' },
      );
    }
    return results;
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchStats()) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
}
