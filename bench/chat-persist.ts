/**
 * Chat persistence: the ingest pipeline alone (normalise → dedupe → stages → group commit → publish)
 * fed at a rising offered rate until it no longer keeps up, on embedded PGlite and on PostgreSQL,
 * beside the ceiling measured in the same run (the bare database inserting the same rows into the
 * same table with multi-row INSERTs). A step is sustained when ≥ 97 % of the offered messages are
 * published, the backlog stays under a quarter second of chat, p99 submit → publish ≤ 100 ms and
 * nothing is lost; the maximum is then held for BENCH_SUSTAIN_SECONDS (default 60). Also the throughput as fast as
 * it goes (5,000 messages in flight, no latency goal) beside the same ceiling: a ratio that stays meaningful on a busy machine.
 * Run: npx tsx bench/chat-persist.ts   (PostgreSQL when TEST_DATABASE_URL / BENCH_DATABASE_URL is set)
 */
import { pathToFileURL } from 'node:url';
import { LocalEventBus } from '../apps/server/src/lib/event-bus';
import { IngestPipeline, type IngestSource } from '../apps/server/src/pipeline/ingest';
import {
  benchDatabase,
  cpuMs,
  findMaximum,
  insertCeiling,
  percentile,
  platformMessage,
  postgresUrl,
  sleep,
  sustainable,
  type BenchResult,
  type StepOutcome,
} from './chat-bench-lib';

export type { BenchResult };

const CHANNELS = 10;
const quiet = { info: () => {}, warn: () => {}, error: (o: object, m?: string) => console.error(m, o) };

async function measure(kind: 'PGlite' | 'PostgreSQL', options: { stepSeconds: number; sustainSeconds: number }): Promise<BenchResult[]> {
  const bench = await benchDatabase(kind, CHANNELS);
  try {
    const bus = new LocalEventBus(quiet);
    const pipeline = new IngestPipeline({ db: bench.database.db, bus, log: quiet });
    const sources: IngestSource[] = bench.channelIds.map((id) => ({
      channelId: id,
      channelProviderId: `cp-${id}`,
      provider: 'twitch',
      providerChannelId: `tw-${id}`,
    }));
    let published = 0;
    let recording: number[] | null = null;
    for (const id of bench.channelIds) {
      bus.subscribe(`channel:${id}`, (event) => {
        if (event.type !== 'chat.message') return;
        published++;
        recording?.push(Date.now() - Date.parse(event.data.sent_at));
      });
    }
    let n = 0;
    const step = async (rate: number, seconds: number): Promise<StepOutcome> => {
      const latencies: number[] = [];
      const lostBefore = pipeline.stats.lost;
      const published0 = published;
      const cpu0 = await cpuMs();
      recording = latencies;
      const start = performance.now();
      let offered = 0;
      // A generator ticking every 5 ms, submitting each message on its own as a platform push does.
      while (performance.now() - start < seconds * 1000) {
        const due = Math.floor(((performance.now() - start) / 1000) * rate) - offered;
        const at = new Date().toISOString();
        for (let i = 0; i < due; i++) {
          n++;
          void pipeline.submit(sources[n % CHANNELS]!, [{ kind: 'chat', message: platformMessage(n, 2000, at) }]);
        }
        offered += Math.max(0, due);
        await sleep(5);
      }
      const elapsed = (performance.now() - start) / 1000;
      const through = published - published0;
      const backlog = offered - through;
      // Drain before the next step (not counted).
      await pipeline.flush();
      recording = null;
      const cpu = (await cpuMs()) - cpu0;
      latencies.sort((a, b) => a - b);
      const s = {
        offered: rate,
        achieved: Math.round(through / elapsed),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        backlog,
        lost: pipeline.stats.lost - lostBefore,
        cpuUsPerMessage: Math.round((cpu * 1000) / Math.max(1, offered)),
      };
      return { ...s, sustained: sustainable(s) };
    };
    const { max, lowest } = await findMaximum(`persist ${kind}`, step, {
      start: Number(process.env.BENCH_START_RATE ?? 1000),
      stepSeconds: options.stepSeconds,
      sustainSeconds: options.sustainSeconds,
    });
    // Throughput as fast as it goes (no latency goal), right before the ceiling measured the same way:
    // on a shared, busy machine this ratio stays meaningful when latency goals are not.
    const saturated = await saturate(() => {
      n++;
      return pipeline.submit(sources[n % CHANNELS]!, [{ kind: 'chat', message: platformMessage(n, 2000, new Date().toISOString()) }]);
    });
    await pipeline.close();
    const ceiling = await insertCeiling(bench.database, bench.channelIds);
    const ceilingResult = {
      name: `chat persist ${kind}: ceiling (bare multi-row INSERT, same rows and table)`,
      value: ceiling,
      unit: 'rows/s',
    };
    const throughput = [
      { name: `chat persist ${kind}: throughput as fast as it goes (pipeline, 5,000 in flight)`, value: saturated, unit: 'msgs/s' },
      { name: `chat persist ${kind}: throughput ratio to the ceiling`, value: Math.round((saturated / ceiling) * 100) / 100, unit: '' },
    ];
    if (!max)
      return [
        {
          name: `chat persist ${kind}: max sustainable rate (pipeline → group commit → publish)`,
          value: lowest,
          unit: 'msgs/s NOT sustained — not even the lowest rate tried',
        },
        ceilingResult,
        ...throughput,
      ];
    return [
      { name: `chat persist ${kind}: max sustainable rate (pipeline → group commit → publish)`, value: max.achieved, unit: 'msgs/s' },
      ceilingResult,
      { name: `chat persist ${kind}: ratio to the ceiling`, value: Math.round((max.achieved / ceiling) * 100) / 100, unit: '' },
      { name: `chat persist ${kind}: p50 / p99 submit → publish at the max`, value: max.p99, unit: `ms (p50 ${max.p50} ms)` },
      { name: `chat persist ${kind}: CPU per message at the max (this process)`, value: max.cpuUsPerMessage, unit: 'µs' },
      ...throughput,
    ];
  } finally {
    await bench.close();
  }
}

/** Submits `count` messages keeping `window` in flight; messages/s until the last is published. */
async function saturate(submit: () => Promise<void>, count = 60_000, window = 5000): Promise<number> {
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    if (i >= window) await inFlight[i - window];
    inFlight.push(submit());
  }
  await Promise.all(inFlight);
  return Math.round(count / ((performance.now() - start) / 1000));
}

export async function benchChatPersist(): Promise<BenchResult[]> {
  const stepSeconds = Number(process.env.BENCH_STEP_SECONDS ?? 5);
  const sustainSeconds = Number(process.env.BENCH_SUSTAIN_SECONDS ?? 60);
  const engines = (process.env.BENCH_ENGINES ?? 'PGlite,PostgreSQL').split(',');
  const results: BenchResult[] = [];
  if (engines.includes('PGlite')) results.push(...(await measure('PGlite', { stepSeconds, sustainSeconds })));
  if (!engines.includes('PostgreSQL')) return results;
  if (postgresUrl()) results.push(...(await measure('PostgreSQL', { stepSeconds, sustainSeconds })));
  else results.push({ name: 'chat persist PostgreSQL: skipped (set TEST_DATABASE_URL, or run npm run bench)', value: 0, unit: '' });
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchChatPersist()) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
  process.exit(0);
}
