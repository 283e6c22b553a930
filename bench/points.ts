/**
 * Points benchmark: earning applied in batches (group commit), as chat messages and watch-time ticks
 * arrive for a large audience.
 *
 * A channel with VIEWERS viewers (default 100,000) who all have a wallet. Each earning event is a
 * credit to one viewer with its own idempotency key and ledger row: watch-time ticks (every viewer
 * once per tick) mixed with chat messages from random viewers. Events go through the product's
 * `EarnBatcher` and `DbPointsRepository.earn` (what the earning effect and the watch-time job use:
 * once every identity is known, ONE statement a batch, its own transaction, inserting the ledger
 * rows and raising each wallet by its sum — in as many lanes by viewer as the product runs: one on PGlite,
 * `EARN_CONCURRENCY_POSTGRES` on PostgreSQL, a lane's batch not full at most every
 * `EARN_LINGER_MS`).
 *
 * 1. Maximum sustainable rate: the offered rate (paced in 10 ms ticks; from 250/s on PGlite, 1,000/s
 *    on PostgreSQL) rises by 25 % a step until the backlog grows (less than 90 % of the offered rate
 *    applied in the step, or more than half a second of events still waiting at its end), then the
 *    gap to the last sustained rate is halved twice. Each step prints its batches and their size.
 *    The figure is the highest rate APPLIED (committed) in a sustained step, not the rate offered.
 * 2. Two ceilings measured in the same run on the same database before and after the search (the
 *    mean of the two), as many statements at once as the product's lanes, batches of the same size:
 *    the bare ledger INSERT + balance UPDATE (the same writes, nothing around them), and the issue's
 *    raw batched balance UPDATE alone.
 * 3. The ratios, and a check that every wallet's ledger still sums to its balance.
 * The load average is printed at the start and the end: the machine has 2 cores shared with other
 * work, so figures move with it.
 *
 * On PGlite in a data directory (its own thread, as the product runs it) and on PostgreSQL when
 * TEST_DATABASE_URL / BENCH_DATABASE_URL is set (`npm run bench` starts one). BENCH_ENGINES picks.
 * The goal is 10,000 events/s applied. Run: npx tsx bench/points.ts [viewers] [seconds per step]
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client';
import { pointWallets } from '../apps/server/src/db/schema';
import { EarnBatcher } from '../apps/server/src/modules/points/earn-batcher';
import { EARN_BATCH, EARN_CONCURRENCY_POSTGRES, EARN_LINGER_MS } from '../apps/server/src/modules/points/points-module';
import { DbPointsRepository, type EarnEntry, type IdentityInput } from '../apps/server/src/modules/points/points-repository';
import { benchDatabase, postgresUrl } from './chat-bench-lib';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const GOAL = 10_000;
const BATCH = EARN_BATCH;

function viewer(i: number): IdentityInput {
  return {
    provider: i % 3 === 0 ? 'youtube' : i % 3 === 1 ? 'kick' : 'twitch',
    providerUserId: `v${i}`,
    login: `viewer${i}`,
    displayName: `Viewer${i}`,
  };
}

/** Watch ticks for everyone, with a chat message from a random viewer every 5th event. */
function* events(channelId: string, viewers: number): Generator<EarnEntry> {
  let n = 0;
  let tick = 0;
  for (;;) {
    tick += 1;
    for (let i = 0; i < viewers; i++) {
      n += 1;
      if (n % 5 === 0) {
        const who = Math.floor(Math.random() * viewers);
        yield { channelId, identity: viewer(who), amount: 1, kind: 'chat', key: `chat:${n}` };
      }
      yield { channelId, identity: viewer(i), amount: 5, kind: 'watch', key: `watch:${tick}:${i}` };
    }
  }
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Ceiling 1, the issue's "raw batched UPDATE": the bare batched UPDATE of the same wallets' balances,
 * a batch a statement (and a transaction), as many at once as the product's lanes, each on its own
 * wallets. Each slice is raised by 1 and then lowered by 1 (two statements, both counted), so
 * balances really change (the `point_wallets_rank` index is written, as earning does) and every
 * ledger still sums to its balance afterwards. Rows/s.
 */
async function updateCeiling(db: Db, walletIds: string[], seconds: number, concurrency: number): Promise<number> {
  let updated = 0;
  let offset = 0;
  const start = performance.now();
  const update = (slice: string[], amount: number) =>
    db.execute(sql`
      UPDATE point_wallets w SET balance = w.balance + v.amount, updated_at = now()
      FROM unnest(${sql.param(slice)}::text[], ${sql.param(slice.map(() => amount))}::bigint[]) AS v(id, amount)
      WHERE w.id = v.id`);
  const worker = async () => {
    while (performance.now() - start < seconds * 1000) {
      const from = offset;
      offset += BATCH;
      const slice = Array.from({ length: BATCH }, (_, k) => walletIds[(from + k) % walletIds.length]!);
      await update(slice, 1);
      await update(slice, -1);
      updated += 2 * slice.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return Math.round(updated / ((performance.now() - start) / 1000));
}

/**
 * Ceiling 2, the same writes as earning without its work around them: per batch one transaction
 * with one bare `INSERT INTO point_ledger … FROM unnest(…)` (the same table, indexes, foreign key and
 * statistics trigger) and one bare `UPDATE point_wallets … FROM unnest(…)` raising the same wallets
 * by the same amounts — no identity lookup, no ban check, no idempotency conflict check, no batcher.
 * As many at once as the product's lanes, each on its own wallets. Rows (credits)/s.
 */
async function ledgerCeiling(
  db: Db,
  channelId: string,
  walletIds: string[],
  seconds: number,
  concurrency: number,
  tag: string,
): Promise<number> {
  let credited = 0;
  let offset = 0;
  let n = 0;
  const start = performance.now();
  const worker = async () => {
    while (performance.now() - start < seconds * 1000) {
      const from = offset;
      offset += BATCH;
      const slice = Array.from({ length: BATCH }, (_, k) => walletIds[(from + k) % walletIds.length]!);
      const keys = slice.map(() => `ceiling:${tag}:${(n += 1)}`);
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          INSERT INTO point_ledger (channel_id, wallet_id, delta, kind, idempotency_key)
          SELECT ${channelId}, v.id, 5, 'watch', v.key FROM unnest(${sql.param(slice)}::text[], ${sql.param(keys)}::text[]) AS v(id, key)`);
        await tx.execute(sql`
          UPDATE point_wallets w SET balance = w.balance + v.amount, updated_at = now()
          FROM unnest(${sql.param(slice)}::text[], ${sql.param(slice.map(() => 5))}::bigint[]) AS v(id, amount)
          WHERE w.id = v.id`);
      });
      credited += slice.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return Math.round(credited / ((performance.now() - start) / 1000));
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function measure(kind: 'PGlite' | 'PostgreSQL', viewers: number, secondsPerStep: number): Promise<BenchResult[]> {
  const bench = await benchDatabase(kind, 1);
  try {
    const db = bench.database.db;
    const channelId = bench.channelIds[0]!;
    const repo = new DbPointsRepository(db);
    const concurrency = kind === 'PostgreSQL' ? EARN_CONCURRENCY_POSTGRES : 1;

    // Every viewer has a wallet (made on first sight, as in production).
    const setupStart = performance.now();
    for (let i = 0; i < viewers; i += 5_000) {
      const batch: EarnEntry[] = [];
      for (let j = i; j < Math.min(viewers, i + 5_000); j++)
        batch.push({ channelId, identity: viewer(j), amount: 1, kind: 'watch', key: `seed:${j}` });
      await repo.earn(batch);
    }
    console.log(`  ${kind}: ${fmt(viewers)} viewers' wallets made in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`);

    // The ceiling before and after the search (the machine's load drifts; the mean of the two is reported).
    const walletIds = (await db.select({ id: pointWallets.id }).from(pointWallets).where(eq(pointWallets.channelId, channelId))).map(
      (r) => r.id,
    );
    const ceilingSeconds = Math.max(3, secondsPerStep);
    const updateBefore = await updateCeiling(db, walletIds, ceilingSeconds, concurrency);
    const ledgerBefore = await ledgerCeiling(db, channelId, walletIds, ceilingSeconds, concurrency, 'before');

    // 1. Maximum sustainable rate.
    const source = events(channelId, viewers);
    const batcher = new EarnBatcher(
      (entries) => repo.earn(entries),
      BATCH,
      concurrency,
      Number(process.env.EARN_LINGER_MS ?? EARN_LINGER_MS),
    );
    let sustained = 0;
    let achievedAtMax = 0;
    let offeredAtMax = 0;
    let batchAtMax = 0;
    // Rates to try: up by 25 % a step from the start; after the first that falls behind, two halvings of the
    // gap between it and the last sustained one.
    let failed = 0;
    let bisections = 0;
    const nextRate = (rate: number, ok: boolean): number => {
      if (!ok) failed = rate;
      if (!failed) return Math.round(rate * 1.25);
      if (bisections++ >= 2) return 0;
      return Math.round((sustained + failed) / 2);
    };
    for (let rate = kind === 'PGlite' ? 250 : 1_000; rate > 0 && rate <= 200_000;) {
      const perTick = rate / 100;
      let owed = 0;
      let waiting = 0;
      let applied = 0;
      const batchesBefore = batcher.stats.batches;
      const entriesBefore = batcher.stats.entries;
      const t0 = performance.now();
      let ticks = 0;
      while (performance.now() - t0 < secondsPerStep * 1000) {
        ticks += 1;
        owed += perTick;
        const n = Math.floor(owed);
        owed -= n;
        for (let i = 0; i < n; i++) {
          waiting += 1;
          void batcher.add(source.next().value as EarnEntry).then(() => {
            waiting -= 1;
            applied += 1;
          });
        }
        const due = t0 + ticks * 10;
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      }
      const elapsed = (performance.now() - t0) / 1000;
      const backlog = waiting;
      const achieved = Math.round(applied / elapsed);
      const stepBatches = batcher.stats.batches - batchesBefore;
      const stepEntries = batcher.stats.entries - entriesBefore;
      await batcher.idle();
      // Sustained: nearly all of the offered rate applied, and under half a second of events waiting.
      const ok = achieved >= rate * 0.9 && backlog <= rate / 2;
      console.log(
        `  ${kind}: offered ${fmt(rate)}/s → applied ${fmt(achieved)}/s in ${fmt(stepBatches)} batches of ${fmt(Math.round(stepEntries / Math.max(1, stepBatches)))} on average, backlog at the end ${fmt(backlog)} → ${ok ? 'sustained' : 'falling behind'}`,
      );
      if (ok) {
        sustained = rate;
        // The figure is the rate APPLIED (durable) in a sustained step, not the rate offered to it.
        if (achieved > achievedAtMax) {
          achievedAtMax = achieved;
          offeredAtMax = rate;
          batchAtMax = stepEntries / Math.max(1, stepBatches);
        }
      }
      rate = nextRate(rate, ok);
    }

    // Every wallet's ledger still sums to its balance.
    const [check] = await db
      .select({ bad: sql<number>`count(*)::int` })
      .from(pointWallets)
      .where(
        and(
          eq(pointWallets.channelId, channelId),
          sql`${pointWallets.balance} <> (SELECT coalesce(sum(l.delta), 0) FROM point_ledger l WHERE l.wallet_id = ${pointWallets.id})`,
        ),
      );
    const bad = Number(check?.bad ?? 0);
    if (bad !== 0) throw new Error(`${bad} wallets' ledgers do not sum to their balance`);

    const updateAfter = await updateCeiling(db, walletIds, ceilingSeconds, concurrency);
    const ledgerAfter = await ledgerCeiling(db, channelId, walletIds, ceilingSeconds, concurrency, 'after');
    const updateOnly = Math.round((updateBefore + updateAfter) / 2);
    const ceiling = Math.round((ledgerBefore + ledgerAfter) / 2);
    console.log(
      `  ${kind}: ceilings before / after the search: bare ledger INSERT + balance UPDATE ${fmt(ledgerBefore)} / ${fmt(ledgerAfter)} credits/s, bare balance UPDATE ${fmt(updateBefore)} / ${fmt(updateAfter)} rows/s`,
    );
    // Round trips a batch when every identity is known: the one credit statement.
    const perEvent = batchAtMax > 0 ? 1 / batchAtMax : 0;

    return [
      {
        name: `points ${kind}: maximum sustained earning rate, applied (batcher → ledger + wallets; offered ${fmt(offeredAtMax)}/s in that step)`,
        value: achievedAtMax,
        unit: 'events/s',
      },
      { name: `points ${kind}: highest offered rate sustained`, value: sustained, unit: 'events/s' },
      {
        name: `points ${kind}: events a batch at that rate (1 statement a batch: ${perEvent.toFixed(4)} an event)`,
        value: Math.round(batchAtMax),
        unit: '',
      },
      {
        name: `points ${kind}: ceiling, bare batched ledger INSERT + balance UPDATE, ${concurrency} at once (same run)`,
        value: ceiling,
        unit: 'credits/s',
      },
      { name: `points ${kind}: ratio (applied) to that ceiling`, value: Math.round((achievedAtMax / ceiling) * 100) / 100, unit: '' },
      { name: `points ${kind}: ceiling, bare batched balance UPDATE only (same run)`, value: updateOnly, unit: 'rows/s' },
      {
        name: `points ${kind}: ratio (applied) to the UPDATE-only ceiling`,
        value: Math.round((achievedAtMax / updateOnly) * 100) / 100,
        unit: '',
      },
      { name: `points ${kind}: goal ${fmt(GOAL)} events/s applied met`, value: achievedAtMax >= GOAL ? 1 : 0, unit: '(1 = yes)' },
    ];
  } finally {
    await bench.close();
  }
}

export async function benchPoints(viewers = 100_000, secondsPerStep = 3): Promise<BenchResult[]> {
  const engines = (process.env.BENCH_ENGINES ?? 'PGlite,PostgreSQL').split(',');
  const results: BenchResult[] = [];
  console.log(`  points: load average at the start ${load()} (2 cores shared with other work: figures are noisy)`);
  try {
    await measureAll(engines, viewers, secondsPerStep, results);
  } finally {
    console.log(`  points: load average at the end ${load()}`);
  }
  return results;
}

async function measureAll(engines: string[], viewers: number, secondsPerStep: number, results: BenchResult[]): Promise<void> {
  if (engines.includes('PGlite')) results.push(...(await measure('PGlite', viewers, secondsPerStep)));
  if (!engines.includes('PostgreSQL')) return;
  if (postgresUrl()) results.push(...(await measure('PostgreSQL', viewers, secondsPerStep)));
  else results.push({ name: 'points PostgreSQL: skipped (set TEST_DATABASE_URL, or run npm run bench)', value: 0, unit: '' });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [viewers, seconds] = [process.argv[2], process.argv[3]].map((a) => (a ? Number(a) : undefined));
  for (const r of await benchPoints(viewers, seconds)) console.log(`  ${r.name}: ${fmt(r.value)} ${r.unit}`);
  process.exit(0);
}
