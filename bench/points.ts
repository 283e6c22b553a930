/**
 * Points benchmark: earning applied in batches (group commit), as chat messages and watch-time ticks
 * arrive for a large audience.
 *
 * A channel with VIEWERS viewers (default 100,000) who all have a wallet. Each earning event is a
 * credit to one viewer with its own idempotency key and ledger row: watch-time ticks (every viewer
 * once per tick) mixed with chat messages from random viewers. Events go through the product's
 * `EarnBatcher` (the one the earning effect and the watch-time job use: batches of up to 1,000, one
 * transaction each, the wallet update and the ledger insert in it).
 *
 * 1. Capacity: events/s applied by the batcher when it is never idle (the most it can sustain: a
 *    backlog below this rate is drained every batch), beside the ceiling measured in the same run —
 *    the bare database doing the balance part of the work: one batched
 *    `UPDATE point_wallets … FROM (VALUES …)` per 1,000 credits, no ledger, no idempotency.
 * 2. Maximum sustainable rate: offered rates rise (paced in 10 ms ticks) until the backlog grows.
 *
 * The goal is 10,000 events/s. Run: npx tsx bench/points.ts [viewers] [seconds per rate]
 */
import { pathToFileURL } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client';
import { channels, pointWallets } from '../apps/server/src/db/schema';
import { EarnBatcher } from '../apps/server/src/modules/points/earn-batcher';
import { DbPointsRepository, type EarnEntry, type IdentityInput } from '../apps/server/src/modules/points/points-repository';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const CHANNEL = 'bench-points';
const GOAL = 10_000;

function viewer(i: number): IdentityInput {
  return {
    provider: i % 3 === 0 ? 'youtube' : i % 3 === 1 ? 'kick' : 'twitch',
    providerUserId: `v${i}`,
    login: `viewer${i}`,
    displayName: `Viewer${i}`,
  };
}

/** Watch ticks for everyone, with a chat message from a random viewer every 5th event. */
function* events(viewers: number): Generator<EarnEntry> {
  let n = 0;
  let tick = 0;
  for (;;) {
    tick += 1;
    for (let i = 0; i < viewers; i++) {
      n += 1;
      if (n % 5 === 0) {
        const who = Math.floor(Math.random() * viewers);
        yield { channelId: CHANNEL, identity: viewer(who), amount: 1, kind: 'chat', key: `chat:${n}` };
      }
      yield { channelId: CHANNEL, identity: viewer(i), amount: 5, kind: 'watch', key: `watch:${tick}:${i}` };
    }
  }
}

export async function benchPoints(
  viewers = Number(process.argv[2] ?? 100_000),
  secondsPerRate = Number(process.argv[3] ?? 3),
): Promise<BenchResult[]> {
  const database = await openDatabase({ dataDir: 'memory://' });
  const db = database.db;
  await db.insert(channels).values({ id: CHANNEL, displayName: 'Bench' });
  const repo = new DbPointsRepository(db);

  // Every viewer has a wallet (made on first sight, as in production).
  const setupStart = performance.now();
  for (let i = 0; i < viewers; i += 1_000) {
    const batch: EarnEntry[] = [];
    for (let j = i; j < Math.min(viewers, i + 1_000); j++)
      batch.push({ channelId: CHANNEL, identity: viewer(j), amount: 1, kind: 'watch', key: `seed:${j}` });
    await repo.earn(batch);
  }
  console.log(`  ${viewers.toLocaleString('en-US')} wallets made in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`);
  const walletIds = (await db.select({ id: pointWallets.id }).from(pointWallets).where(eq(pointWallets.channelId, CHANNEL))).map(
    (r) => r.id,
  );

  const results: BenchResult[] = [];
  const source = events(viewers);

  // 1. Capacity: the batcher kept busy.
  const batcher = new EarnBatcher((entries) => repo.earn(entries));
  const capacitySeconds = Math.max(3, secondsPerRate);
  let applied = 0;
  const start = performance.now();
  while (performance.now() - start < capacitySeconds * 1000) {
    const chunk: EarnEntry[] = [];
    for (let i = 0; i < 5_000; i++) chunk.push(source.next().value as EarnEntry);
    await batcher.addMany(chunk);
    applied += chunk.length;
  }
  const capacity = Math.round(applied / ((performance.now() - start) / 1000));

  // 2. Maximum sustainable rate: offered in 10 ms ticks; sustained while the backlog stays under one second's worth.
  let sustained = 0;
  for (let rate = 2_500; rate <= capacity * 2; rate = Math.round(rate * 1.25)) {
    const perTick = rate / 100;
    let owed = 0;
    let inFlight = 0;
    const t0 = performance.now();
    let ticks = 0;
    while (performance.now() - t0 < secondsPerRate * 1000) {
      ticks += 1;
      owed += perTick;
      const n = Math.floor(owed);
      owed -= n;
      for (let i = 0; i < n; i++) {
        inFlight += 1;
        void batcher.add(source.next().value as EarnEntry).then(() => (inFlight -= 1));
      }
      const due = t0 + ticks * 10;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    }
    const backlog = inFlight;
    await batcher.idle();
    const ok = backlog <= rate;
    console.log(
      `  offered ${rate.toLocaleString('en-US')}/s: backlog at the end ${backlog.toLocaleString('en-US')} → ${ok ? 'sustained' : 'falling behind'}`,
    );
    if (!ok) break;
    sustained = rate;
  }
  results.push({ name: 'maximum sustainable earning rate', value: sustained, unit: 'events/s' });
  results.push({ name: `goal ${GOAL.toLocaleString('en-US')} events/s met`, value: sustained >= GOAL ? 1 : 0, unit: '(1 = yes)' });

  // Every wallet's ledger still sums to its balance.
  const [check] = await db
    .select({ bad: sql<number>`count(*)::int` })
    .from(pointWallets)
    .where(
      and(
        eq(pointWallets.channelId, CHANNEL),
        sql`${pointWallets.balance} <> (SELECT coalesce(sum(l.delta), 0) FROM point_ledger l WHERE l.wallet_id = ${pointWallets.id})`,
      ),
    );
  const bad = Number(check?.bad ?? 0);
  if (bad !== 0) throw new Error(`${bad} wallets' ledgers do not sum to their balance`);

  // The ceiling: the bare batched UPDATE of balances, 1,000 rows a statement.
  let updated = 0;
  const ceilingStart = performance.now();
  let offset = 0;
  while (performance.now() - ceilingStart < capacitySeconds * 1000) {
    const slice = Array.from({ length: 1_000 }, (_, k) => walletIds[(offset + k) % walletIds.length]!);
    offset += 1_000;
    const values = sql.join(
      slice.map((id) => sql`(${id}, 5::bigint)`),
      sql`, `,
    );
    await db.execute(
      sql`UPDATE point_wallets w SET balance = w.balance + v.amount FROM (VALUES ${values}) AS v(id, amount) WHERE w.id = v.id`,
    );
    updated += slice.length;
  }
  const ceiling = Math.round(updated / ((performance.now() - ceilingStart) / 1000));
  results.unshift(
    { name: 'earning events applied (batcher busy)', value: capacity, unit: 'events/s' },
    { name: 'ceiling: bare batched UPDATE of balances (same run)', value: ceiling, unit: 'rows/s' },
    { name: 'ratio product / ceiling', value: Math.round((capacity / ceiling) * 100), unit: '%' },
  );
  await database.close();
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchPoints()) console.log(`  ${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
}
