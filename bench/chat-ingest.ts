/**
 * Chat ingest, end to end and persisted: the emulator's crowd (this process) → Twitch EventSub
 * WebSocket → the real server (a child process: `apps/server/src/main.ts`, its own CPU) → ingest
 * pipeline → group commit → staff chat sockets (this process). The offered rate rises until a step
 * is not sustained (≥ 97 % of what the crowd sent arrives at the staff sockets, backlog under a
 * quarter second of chat, p99 platform → staff socket ≤ 100 ms, nothing lost); the maximum is then
 * held for BENCH_SUSTAIN_SECONDS (default 60). Printed beside the ceiling measured in the same run:
 * the bare database inserting the same rows into the same table (multi-row INSERTs).
 *
 * Also, on the embedded database: server RSS at BENCH_RSS_CHANNELS (100) live channels and 1,000
 * msg/s for BENCH_RSS_SECONDS (default 600; 0 skips; BENCH_RSS_ONLY=1 runs only that), with where the
 * memory is at its end (the server's memory report: main heap, database thread heap, WebAssembly, rest). On PostgreSQL: an outage of
 * BENCH_OUTAGE_SECONDS (default 30) at 1,000 msg/s — the database cut behind a TCP proxy — with the
 * messages held meanwhile, the memory they took and what was lost (nothing, below the bound).
 *
 * Run: npx tsx bench/chat-ingest.ts   (PostgreSQL when TEST_DATABASE_URL / BENCH_DATABASE_URL is set; BENCH_PORT:
 * the server's port, the emulator takes the next one; BENCH_SERVER_BUILT=1 runs the production build, as `npm start`
 * does — `npm run build -w @greenroom/server` first — instead of the sources under tsx, which keeps every module's
 * source and source map in memory: the RSS figure of the product is that one)
 * Profiling: BENCH_FIXED_RATE=300 holds one offered rate for BENCH_SUSTAIN_SECONDS (no sweep, no
 * ceiling) and prints the server's CPU per message by thread (main; PGlite's own thread);
 * BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server meanwhile.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import pg from 'pg';
import { startEmulator, type Emulator } from '../packages/platform-emulator/src/index';
import { openDatabase } from '../apps/server/src/db/client';
import { channelProviders } from '../apps/server/src/db/schema';
import { TokenCipher } from '../apps/server/src/lib/crypto';
import { newId } from '../apps/server/src/lib/ids';
import { ChannelService } from '../apps/server/src/modules/channels/channel-service';
import { SessionService } from '../apps/server/src/modules/auth/sessions';
import { UserService } from '../apps/server/src/modules/user/user-service';
import { scopesFor } from '../apps/server/src/platforms/scopes';
import { freePort, startServer, type ServerProcess } from '../apps/server/test/server-process';
import { TcpProxy } from '../apps/server/test/tcp-proxy';
import type { MemoryReport } from '../apps/server/src/lib/memory-report';
import {
  benchDatabase,
  cpuMs,
  findMaximum,
  insertCeiling,
  percentile,
  postgresUrl,
  rssMb,
  sleep,
  sustainable,
  type BenchResult,
  type StepOutcome,
} from './chat-bench-lib';

export type { BenchResult };

const ENCRYPTION_KEY = randomBytes(32).toString('hex');
/** BENCH_PORT: the server's port (the emulator takes the next one); free ports when unset. */
const BASE_PORT = Number(process.env.BENCH_PORT) || 0;

/** CPU time (ms) of each thread of a process (Linux /proc), by thread id, with the thread's name. */
function threadCpuMs(pid: number): Map<number, { name: string; ms: number }> {
  const out = new Map<number, { name: string; ms: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), { name, ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/**
 * Where the server's resident memory is: it prints a report on SIGUSR2 (apps/server/src/lib/memory-report.ts),
 * read here from its stderr. Megabytes: the main thread's V8 heap, the database thread's heap, PGlite's
 * WebAssembly memory (its size, and what of its reservation is resident), and the rest (native code, buffers).
 */
async function memoryBreakdown(server: ServerProcess): Promise<string> {
  const marker = '{"memory":';
  const seen = server.stderr().lastIndexOf(marker);
  server.child.kill('SIGUSR2');
  const until = Date.now() + 10_000;
  for (;;) {
    const text = server.stderr();
    const at = text.lastIndexOf(marker);
    if (at !== -1 && at !== seen) {
      const line = text.slice(at, text.indexOf('\n', at));
      const { memory: m } = JSON.parse(line) as { memory: MemoryReport };
      const heaps = m.main.heapTotal + (m.database?.heapTotal ?? 0);
      const wasm = m.resident?.wasm ?? 0;
      const files = m.resident?.files ?? 0;
      return (
        `RSS ${m.rss} MB = main heap ${m.main.heapTotal} (used ${m.main.heapUsed}, live ${m.main.liveAfterGc ?? '?'}; external ${m.main.external}, of it array buffers ${m.main.arrayBuffers})` +
        (m.database
          ? ` + database thread heap ${m.database.heapTotal} (used ${m.database.heapUsed}; external ${m.database.external})` +
            ` + WebAssembly resident ${wasm} (memory size ${m.database.wasm})`
          : '') +
        ` + files ${files} + rest ${m.rss - heaps - wasm - files} (native: malloc, sockets, compiled code, stacks);` +
        ` chat rows waiting for their commit ${m.chatHeld}`
      );
    }
    if (Date.now() > until) return 'no memory report from the server';
    await sleep(50);
  }
}

/** The 1, 5 and 15 minute load averages: the machine is shared (2 cores), figures are only as quiet as it was. */
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

interface Setup {
  emulator: Emulator;
  server: ServerProcess;
  channelIds: string[];
  token: string;
  dataDir: string;
  close(): Promise<void>;
}

/** N Twitch streamers live in the emulator, a server (child process) with one channel each, all connected. */
async function setUp(kind: 'PGlite' | 'PostgreSQL', channelCount: number, options: { throughProxy?: TcpProxy } = {}): Promise<Setup> {
  const emulator = await startEmulator({
    port: BASE_PORT ? BASE_PORT + 1 : 0,
    crowd: { autoStart: false, rate: 0, eventRate: 0, platforms: ['twitch'], tickMs: 10 },
  });
  for (const c of emulator.world.channelsOf('twitch')) emulator.world.setLive(c, false);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'greenroom-ingest-bench-'));
  let databaseUrl: string | null = null;
  let dropDatabase = async () => {};
  if (kind === 'PostgreSQL') {
    const admin = postgresUrl()!;
    const name = `gr_ingest_${randomBytes(5).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const database = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir });
  const cipher = new TokenCipher(ENCRYPTION_KEY);
  const user = await new UserService(database.db, cipher, { disconnectPlatforms: async () => {} }).signIn(
    'twitch',
    { providerUserId: newId(), login: 'benchowner', displayName: 'BenchOwner', avatarUrl: null },
    { accessToken: 'a', refreshToken: 'r', expiresAt: null, scopes: [] },
  );
  const token = (await new SessionService(database.db, 30, []).create(user.id)).token;
  const channels = new ChannelService(database.db, { audit: { record: async () => {} }, disconnectPlatforms: async () => {} });
  const channelIds: string[] = [];
  for (let i = 0; i < channelCount; i++) {
    const login = `bench${randomBytes(4).toString('hex')}`;
    const res = await fetch(`${emulator.origin}/_emulator/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'twitch', kind: 'streamer', displayName: login, login }),
    });
    const account = (await res.json()) as { id: string };
    emulator.world.setLive(emulator.world.channel('twitch', account.id)!, true, { viewerCount: 100 });
    const issued = emulator.world.issueToken({
      platform: 'twitch',
      clientId: 'greenroom-twitch',
      userId: account.id,
      scopes: scopesFor.twitch.channel,
      ttlSeconds: 36_000,
      refreshable: true,
    });
    const channelId = (await channels.create(user.id, `Bench ${i}`)).id;
    await database.db.insert(channelProviders).values({
      id: newId(),
      channelId,
      provider: 'twitch',
      providerChannelId: account.id,
      providerChannelName: login,
      accessTokenEnc: cipher.encrypt(issued.accessToken),
      refreshTokenEnc: issued.refreshToken ? cipher.encrypt(issued.refreshToken) : null,
      tokenExpiresAt: new Date(Date.now() + 36_000_000),
      scopes: scopesFor.twitch.channel,
    });
    channelIds.push(channelId);
  }
  await database.close();
  let serverDatabaseUrl = databaseUrl;
  if (databaseUrl && options.throughProxy) {
    const through = new URL(databaseUrl);
    through.hostname = '127.0.0.1';
    through.port = String(options.throughProxy.port);
    serverDatabaseUrl = through.toString();
  }
  const server = await startServer({
    port: BASE_PORT || (await freePort()),
    dataDir,
    emulatorUrl: emulator.origin,
    // --expose-gc: the memory report then says what of the main heap is live (a full collection first).
    nodeArgs: ['--expose-gc', ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    built: process.env.BENCH_SERVER_BUILT === '1',
    env: { ENCRYPTION_KEY, LOG_LEVEL: 'error', ...(serverDatabaseUrl ? { DATABASE_URL: serverDatabaseUrl } : {}) },
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    let up = 0;
    for (const id of channelIds) {
      const res = await server.get(`/api/2/channels/${id}/providers`, token);
      const list = (await res.json()) as { health: { state: string } | null }[];
      if (list[0]?.health?.state === 'connected') up++;
    }
    if (up === channelIds.length) break;
    if (Date.now() > deadline) throw new Error(`only ${up}/${channelIds.length} connections came up\n${server.stderr()}`);
    await sleep(500);
  }
  return {
    emulator,
    server,
    channelIds,
    token,
    dataDir,
    async close() {
      server.child.kill('SIGTERM');
      await Promise.race([server.exited, sleep(20_000)]);
      server.child.kill('SIGKILL');
      await emulator.close();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Staff chat sockets on every channel, counting messages and their latency from the crowd's send time. */
async function staffSockets(s: Setup) {
  const state = { received: 0, recording: null as number[] | null, arrivals: null as [number, number][] | null };
  const wsUrl = s.server.url.replace(/^http/, 'ws');
  const sockets = await Promise.all(
    s.channelIds.map(
      (id) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`${wsUrl}/api/2/channels/${id}/chat-ws`, ['greenroom', s.token]);
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
          ws.on('message', (data: Buffer) => {
            const text = data.toString('utf8');
            if (!text.startsWith('{"type":"chat.message"')) return;
            state.received++;
            if (!state.recording) return;
            const m = /"provider_message_id":"([^"]+)"/.exec(text);
            const sent = m ? s.emulator.world.messages.get(m[1]!)?.createdAt.getTime() : undefined;
            // A message the emulator no longer remembers is seconds old: over any goal.
            const now = Date.now();
            state.recording.push(sent === undefined ? 10_000 : now - sent);
            state.arrivals?.push([now, sent === undefined ? 10_000 : now - sent]);
          });
        }),
    ),
  );
  return { state, close: () => sockets.forEach((ws) => ws.terminate()) };
}

/**
 * DB_SLOW_MS=<ms> (passed to the server: apps/server/src/db/slow-log.ts) or BENCH_TIMELINE=1: each step printed second
 * by second (messages arrived, p99 and max latency at the staff sockets) beside the server's stalls of that second
 * (slow database calls with their statement, transactions, event-loop stalls), to line latency spikes up with causes.
 */
const timelineOn = Number(process.env.DB_SLOW_MS ?? 0) > 0 || process.env.BENCH_TIMELINE === '1';
interface SlowSeen {
  kind: string;
  at: number;
  ms: number;
  sql?: string;
  thread?: number;
  [key: string]: unknown;
}
/** The server's slow-log lines (stderr), as they come. */
const slowSeen: SlowSeen[] = [];
function collectSlow(server: ServerProcess): void {
  let partial = '';
  server.child.stderr?.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{"slow":')) continue;
      try {
        slowSeen.push((JSON.parse(line) as { slow: SlowSeen }).slow);
      } catch {
        // Not a whole line.
      }
    }
  });
}

function printTimeline(rate: number, startedAt: number, arrivals: [number, number][], slow: SlowSeen[]): void {
  console.log(`  timeline of the step at ${rate}/s (second: messages, p99 / max ms at the staff sockets | server stalls > DB_SLOW_MS)`);
  const seconds = new Map<number, number[]>();
  for (const [at, ms] of arrivals) {
    const second = Math.floor((at - startedAt) / 1000);
    let list = seconds.get(second);
    if (!list) seconds.set(second, (list = []));
    list.push(ms);
  }
  const last = Math.max(-1, ...seconds.keys(), ...slow.map((e) => Math.floor((e.at - startedAt) / 1000)));
  for (let second = 0; second <= last; second++) {
    const list = (seconds.get(second) ?? []).sort((a, b) => a - b);
    const inSecond = slow.filter((e) => Math.floor((e.at - startedAt) / 1000) === second);
    // What blocked a thread (a call into the database, an event-loop stall of the main thread, a long transaction);
    // calls that only waited behind those, and the commits they delayed, are summed up.
    const stalls = inSecond
      .filter((e) => e.kind === 'run' || e.kind === 'tx' || e.kind === 'sync' || (e.kind === 'loop' && !e.thread))
      .map((e) => `${e.kind}${e.thread ? '@db' : '@main'} ${Math.round(e.ms)}ms${e.sql ? ` «${e.sql.slice(0, 60)}»` : ''}`);
    const batches = inSecond.filter((e) => e.kind === 'batch');
    if (batches.length)
      stalls.push(
        `${batches.length} slow commits (max ${Math.round(Math.max(...batches.map((b) => b.ms)))} ms, rows ${batches.map((b) => String(b.rows)).join('/')})`,
      );
    console.log(
      `  ${String(second).padStart(3)}s ${String(list.length).padStart(5)} ${String(percentile(list, 99)).padStart(5)} / ${String(list.at(-1) ?? 0).padStart(5)}` +
        (stalls.length ? ` | ${stalls.join('; ')}` : ''),
    );
  }
}

function stepper(s: Setup, sockets: Awaited<ReturnType<typeof staffSockets>>) {
  return async (rate: number, seconds: number): Promise<StepOutcome> => {
    const crowd = s.emulator.crowd;
    const latencies: number[] = [];
    const r0 = sockets.state.received;
    const g0 = crowd.generated.messages;
    const cpu0 = await cpuMs(s.server.child.pid);
    sockets.state.recording = latencies;
    if (timelineOn) sockets.state.arrivals = [];
    const slowFrom = slowSeen.length;
    crowd.setRate(rate);
    const startedAt = Date.now();
    const start = performance.now();
    crowd.start();
    await sleep(seconds * 1000);
    crowd.stop();
    const elapsed = (performance.now() - start) / 1000;
    const generated = crowd.generated.messages - g0;
    const through = sockets.state.received - r0;
    // Drain (not counted): what was sent must all arrive.
    const drainUntil = Date.now() + 30_000;
    while (sockets.state.received - r0 < generated && Date.now() < drainUntil) await sleep(50);
    sockets.state.recording = null;
    if (timelineOn) {
      printTimeline(rate, startedAt, sockets.state.arrivals ?? [], slowSeen.slice(slowFrom));
      sockets.state.arrivals = null;
    }
    const cpu = (await cpuMs(s.server.child.pid)) - cpu0;
    latencies.sort((a, b) => a - b);
    const outcome = {
      offered: rate,
      achieved: Math.round(through / elapsed),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      backlog: generated - through,
      lost: Math.max(0, generated - (sockets.state.received - r0)),
      cpuUsPerMessage: Math.round((cpu * 1000) / Math.max(1, generated)),
    };
    await sleep(300);
    return { ...outcome, sustained: sustainable(outcome) };
  };
}

async function maxRate(kind: 'PGlite' | 'PostgreSQL', options: { stepSeconds: number; sustainSeconds: number }): Promise<BenchResult[]> {
  const channelCount = Number(process.env.BENCH_INGEST_CHANNELS ?? 10);
  const loadAtStart = load();
  const s = await setUp(kind, channelCount);
  if (timelineOn) collectSlow(s.server);
  let results: BenchResult[];
  let sustainedRate: number | null = null;
  try {
    const sockets = await staffSockets(s);
    const fixedRate = Number(process.env.BENCH_FIXED_RATE ?? 0);
    if (fixedRate > 0) {
      // Profiling aid: one step at a fixed offered rate (after a short warm-up), no sweep, no ceiling.
      const step = stepper(s, sockets);
      await step(Math.max(1, Math.round(fixedRate / 4)), 2);
      const before = threadCpuMs(s.server.child.pid!);
      const g0 = s.emulator.crowd.generated.messages;
      const ownBefore = await cpuMs();
      const o = await step(fixedRate, options.sustainSeconds);
      const own = (await cpuMs()) - ownBefore;
      const generated = s.emulator.crowd.generated.messages - g0;
      const after = threadCpuMs(s.server.child.pid!);
      sockets.close();
      // Which thread of the server spent it (main: the pipeline, sockets, HTTP; the database thread: PGlite).
      const threads = [...after]
        .map(([tid, t]) => ({ tid, name: t.name, ms: t.ms - (before.get(tid)?.ms ?? 0) }))
        .filter((t) => t.ms > 0)
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 4)
        .map((t) => `${t.tid === s.server.child.pid ? 'main' : t.name} ${Math.round((t.ms * 1000) / Math.max(1, generated))} µs`)
        .join(', ');
      return [
        {
          name: `chat ingest ${kind}: fixed ${fixedRate}/s for ${options.sustainSeconds} s`,
          value: o.achieved,
          unit: `msgs/s, p50 ${o.p50} ms, p99 ${o.p99} ms, backlog ${o.backlog}, lost ${o.lost}, ${o.cpuUsPerMessage} µs server CPU/msg (by thread: ${threads}); this process (emulator, crowd, staff sockets) ${Math.round((own * 1000) / Math.max(1, generated))} µs/msg; load ${loadAtStart} → ${load()}`,
        },
      ];
    }
    const { max, lowest } = await findMaximum(`ingest ${kind}`, stepper(s, sockets), {
      start: Number(process.env.BENCH_START_RATE ?? 1000),
      stepSeconds: options.stepSeconds,
      sustainSeconds: options.sustainSeconds,
    });
    const rss = await rssMb(s.server.child.pid!);
    const breakdown = await memoryBreakdown(s.server);
    sockets.close();
    const rateName = `chat ingest ${kind}, ${channelCount} channels: max sustainable persisted rate (crowd → EventSub → server → staff sockets)`;
    const rssResult = { name: `chat ingest ${kind}: server RSS after the run`, value: rss, unit: `MB (${breakdown})` };
    sustainedRate = max?.achieved ?? null;
    results = max
      ? [
          { name: rateName, value: max.achieved, unit: 'msgs/s' },
          { name: `chat ingest ${kind}: p50 / p99 platform → staff socket at the max`, value: max.p99, unit: `ms (p50 ${max.p50} ms)` },
          { name: `chat ingest ${kind}: server CPU per message at the max`, value: max.cpuUsPerMessage, unit: 'µs' },
          { name: `chat ingest ${kind}: lost at the max`, value: max.lost, unit: 'msgs' },
          rssResult,
        ]
      : [{ name: rateName, value: lowest, unit: 'msgs/s NOT sustained — not even the lowest rate tried' }, rssResult];
  } finally {
    await s.close();
  }
  const bench = await benchDatabase(kind, 10);
  try {
    const ceiling = await insertCeiling(bench.database, bench.channelIds);
    results.push({ name: `chat ingest ${kind}: ceiling (bare multi-row INSERT, same rows and table)`, value: ceiling, unit: 'rows/s' });
    if (sustainedRate !== null)
      results.push({
        name: `chat ingest ${kind}: ratio to the ceiling`,
        value: Math.round((sustainedRate / ceiling) * 100) / 100,
        unit: '',
      });
  } finally {
    await bench.close();
  }
  results.push({ name: `chat ingest ${kind}: load average (1 / 5 / 15 min) at start → end`, value: 0, unit: `${loadAtStart} → ${load()}` });
  return results;
}

/** Server RSS at many live channels and a steady rate for a long while. */
async function rssRun(seconds: number): Promise<BenchResult[]> {
  const channelCount = Number(process.env.BENCH_RSS_CHANNELS ?? 100);
  const rate = Number(process.env.BENCH_RSS_RATE ?? 1000);
  const loadAtStart = load();
  const s = await setUp('PGlite', channelCount);
  try {
    const sockets = await staffSockets(s);
    const crowd = s.emulator.crowd;
    crowd.setRate(rate);
    const g0 = crowd.generated.messages;
    const r0 = sockets.state.received;
    crowd.start();
    let max = 0;
    const until = Date.now() + seconds * 1000;
    let last = 0;
    while (Date.now() < until) {
      await sleep(Math.min(5000, Math.max(0, until - Date.now())));
      last = await rssMb(s.server.child.pid!);
      max = Math.max(max, last);
    }
    // Still under load: where the memory is at the end of the run.
    const breakdown = await memoryBreakdown(s.server);
    crowd.stop();
    const generated = crowd.generated.messages - g0;
    const drainUntil = Date.now() + 30_000;
    while (sockets.state.received - r0 < generated && Date.now() < drainUntil) await sleep(100);
    sockets.close();
    return [
      {
        name: `chat ingest RSS: server peak RSS, ${channelCount} live channels at ${rate} msgs/s for ${seconds} s (PGlite)`,
        value: max,
        unit: 'MB',
      },
      { name: 'chat ingest RSS: server RSS at the end of that run', value: last, unit: `MB (${breakdown})` },
      { name: 'chat ingest RSS: messages lost in that run', value: generated - (sockets.state.received - r0), unit: 'msgs' },
      { name: 'chat ingest RSS: load average (1 / 5 / 15 min) at start → end', value: 0, unit: `${loadAtStart} → ${load()}` },
    ];
  } finally {
    await s.close();
  }
}

/** PostgreSQL unreachable for `seconds` at 1,000 msg/s: held, then all stored; the memory it took. */
async function outageRun(seconds: number): Promise<BenchResult[]> {
  const target = new URL(postgresUrl()!);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  const rate = 1000;
  const s = await setUp('PostgreSQL', 10, { throughProxy: proxy });
  try {
    const sockets = await staffSockets(s);
    const crowd = s.emulator.crowd;
    crowd.setRate(rate);
    const g0 = crowd.generated.messages;
    const r0 = sockets.state.received;
    crowd.start();
    await sleep(5000);
    const before = await rssMb(s.server.child.pid!);
    proxy.cut();
    let peak = before;
    const until = Date.now() + seconds * 1000;
    while (Date.now() < until) {
      await sleep(1000);
      peak = Math.max(peak, await rssMb(s.server.child.pid!));
    }
    const heldAtEnd = crowd.generated.messages - g0 - (sockets.state.received - r0);
    proxy.restore();
    await sleep(5000);
    crowd.stop();
    const generated = crowd.generated.messages - g0;
    const drainUntil = Date.now() + 60_000;
    while (sockets.state.received - r0 < generated && Date.now() < drainUntil) await sleep(100);
    const lost = generated - (sockets.state.received - r0);
    sockets.close();
    const perRowKb = heldAtEnd > 0 ? Math.round(((peak - before) * 1024) / heldAtEnd) / 1 : NaN;
    return [
      {
        name: `chat outage PostgreSQL: ${seconds} s without the database at ${rate} msgs/s — messages held at the end`,
        value: heldAtEnd,
        unit: 'msgs',
      },
      { name: 'chat outage PostgreSQL: messages lost', value: lost, unit: 'msgs' },
      {
        name: 'chat outage PostgreSQL: server RSS growth while holding',
        value: peak - before,
        unit: `MB (≈${perRowKb} KB per held message)`,
      },
      {
        name: 'chat outage PostgreSQL: the hold bound (CHAT_HOLD_ROWS) in seconds of chat at this rate',
        value: Math.round(Number(process.env.CHAT_HOLD_ROWS ?? 100_000) / rate),
        unit: 's',
      },
    ];
  } finally {
    await s.close();
    await proxy.close();
  }
}

export async function benchChatIngest(): Promise<BenchResult[]> {
  const stepSeconds = Number(process.env.BENCH_STEP_SECONDS ?? 5);
  const sustainSeconds = Number(process.env.BENCH_SUSTAIN_SECONDS ?? 60);
  const engines = (process.env.BENCH_ENGINES ?? 'PGlite,PostgreSQL').split(',');
  const results: BenchResult[] = [];
  // BENCH_RSS_ONLY=1: the RSS run alone (no sweeps, no outage).
  const rssOnly = process.env.BENCH_RSS_ONLY === '1';
  if (rssOnly) engines.splice(0, engines.length, 'PGlite');
  if (engines.includes('PGlite') && !rssOnly) results.push(...(await maxRate('PGlite', { stepSeconds, sustainSeconds })));
  if (engines.includes('PostgreSQL') && !rssOnly) {
    if (postgresUrl()) {
      results.push(...(await maxRate('PostgreSQL', { stepSeconds, sustainSeconds })));
      const outage = Number(process.env.BENCH_OUTAGE_SECONDS ?? 30);
      if (outage > 0) results.push(...(await outageRun(outage)));
    } else results.push({ name: 'chat ingest PostgreSQL: skipped (set TEST_DATABASE_URL, or run npm run bench)', value: 0, unit: '' });
  }
  const rssSeconds = Number(process.env.BENCH_RSS_SECONDS ?? 600);
  if (rssSeconds > 0 && engines.includes('PGlite')) results.push(...(await rssRun(rssSeconds)));
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchChatIngest()) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
  process.exit(0);
}
