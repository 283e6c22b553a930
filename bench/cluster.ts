/**
 * Several instances on one PostgreSQL and one Redis (`npm run bench:cluster`, also part of `npm run bench`):
 *
 * - persisted ingest and fan-out with 1, 2 and 4 instances (BENCH_CLUSTER_INSTANCES): the emulator's crowd chats on
 *   BENCH_CLUSTER_CHANNELS (8) Twitch channels, spread over the instances by their leases; each channel's staff
 *   socket is opened on another instance than the one holding it where there is one, so every message crosses
 *   Redis. The offered rate rises until a step is not sustained (same rule as bench/chat-ingest.ts). The ceiling
 *   beside it: one instance alone (no Redis), the same channels and sockets.
 * - Redis commands and PostgreSQL transactions per 1,000 messages at a fixed rate (BENCH_CLUSTER_OPS_RATE, 500/s,
 *   for 10 s), from Redis `INFO commandstats` and `pg_stat_database`.
 * - takeover after `kill -9` of an instance: until the lease moved and until chat flows again through another.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL; `npm run bench:cluster` starts one) and redis-server.
 * Run: npm run bench:cluster
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../packages/platform-emulator/src/index';
import { openDatabase } from '../apps/server/src/db/client';
import { channelProviders } from '../apps/server/src/db/schema';
import { TokenCipher } from '../apps/server/src/lib/crypto';
import { newId } from '../apps/server/src/lib/ids';
import { ChannelService } from '../apps/server/src/modules/channels/channel-service';
import { SessionService } from '../apps/server/src/modules/auth/sessions';
import { UserService } from '../apps/server/src/modules/user/user-service';
import { scopesFor } from '../apps/server/src/platforms/scopes';
import { redisServerBin, startRedisServer, type RedisServer } from '../apps/server/test/redis-server';
import { freePort, startServer, type ServerProcess } from '../apps/server/test/server-process';
import { cpuMs, findMaximum, percentile, postgresUrl, sleep, sustainable, type BenchResult, type StepOutcome } from './chat-bench-lib';

export type { BenchResult };

const ENCRYPTION_KEY = randomBytes(32).toString('hex');
const CHANNELS = Number(process.env.BENCH_CLUSTER_CHANNELS ?? 8);
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 5);
const SUSTAIN_SECONDS = Number(process.env.BENCH_SUSTAIN_SECONDS ?? 10);
const OPS_RATE = Number(process.env.BENCH_CLUSTER_OPS_RATE ?? 500);
/** Only the takeover (no rate sweep, no operation counts): `BENCH_CLUSTER_ONLY=takeover`. */
const TAKEOVER_ONLY = process.env.BENCH_CLUSTER_ONLY === 'takeover';
/** Server log level (`info` shows when leases moved and connections came up). */
const SERVER_LOG = process.env.BENCH_CLUSTER_LOG ?? 'error';

interface Health {
  cluster?: { instance: string; channels: number; connections: number; redis: string };
}

interface Setup {
  emulator: Emulator;
  servers: ServerProcess[];
  channelIds: string[];
  token: string;
  databaseUrl: string;
  /** Which server holds each channel (index into servers). */
  holders(): Promise<number[]>;
  close(): Promise<void>;
}

async function health(server: ServerProcess): Promise<Health> {
  return (await (await fetch(`${server.url}/api/health`)).json()) as Health;
}

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

/** N instances (or one alone without Redis), then CHANNELS Twitch channels connected, spread over the instances. */
async function setUp(instances: number, redis: RedisServer | null): Promise<Setup> {
  const emulator = await startEmulator({ port: 0, crowd: { autoStart: false, rate: 0, eventRate: 0, platforms: ['twitch'], tickMs: 10 } });
  for (const c of emulator.world.channelsOf('twitch')) emulator.world.setLive(c, false);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'greenroom-cluster-bench-'));
  const admin = postgresUrl()!;
  const name = `gr_cluster_${randomBytes(5).toString('hex')}`;
  await query(admin, `CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const database = await openDatabase({ url: databaseUrl });
  const cipher = new TokenCipher(ENCRYPTION_KEY);
  const user = await new UserService(database.db, cipher, { disconnectPlatforms: async () => {} }).signIn(
    'twitch',
    { providerUserId: newId(), login: 'benchowner', displayName: 'BenchOwner', avatarUrl: null },
    { accessToken: 'a', refreshToken: 'r', expiresAt: null, scopes: [] },
  );
  const token = (await new SessionService(database.db, 30, []).create(user.id)).token;
  const env = {
    ENCRYPTION_KEY,
    LOG_LEVEL: SERVER_LOG,
    DATABASE_URL: databaseUrl,
    ...(redis ? { REDIS_URL: redis.url } : {}),
  };
  const servers: ServerProcess[] = [];
  for (let i = 0; i < instances; i++)
    servers.push(await startServer({ port: await freePort(), dataDir, emulatorUrl: emulator.origin, env }));
  // The channels are connected once every instance runs, so their leases spread (each takes up to its share).
  const channels = new ChannelService(database.db, { audit: { record: async () => {} }, disconnectPlatforms: async () => {} });
  const channelIds: string[] = [];
  for (let i = 0; i < CHANNELS; i++) {
    const login = `cluster${randomBytes(4).toString('hex')}`;
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
    const channelId = (await channels.create(user.id, `Cluster ${i}`)).id;
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
  if (!redis) {
    // Alone, the instance opened what was stored at start (nothing): reconnect each channel as a connect would.
    servers[0]!.child.kill('SIGTERM');
    await servers[0]!.exited;
    servers[0] = await startServer({ port: await freePort(), dataDir, emulatorUrl: emulator.origin, env });
  }
  const deadline = Date.now() + 120_000;
  for (;;) {
    const held = (await Promise.all(servers.map(health))).map((h) => h.cluster?.connections ?? null);
    const total = held[0] === null ? CHANNELS : held.reduce<number>((a, b) => a + (b ?? 0), 0);
    if (total === CHANNELS) {
      // Connected, not just opened: every channel's Twitch health says so.
      let up = 0;
      for (const id of channelIds) {
        const list = (await (await servers[0]!.get(`/api/2/channels/${id}/providers`, token)).json()) as {
          health: { state: string } | null;
        }[];
        if (list[0]?.health?.state === 'connected') up++;
      }
      if (up === CHANNELS) break;
    }
    if (Date.now() > deadline) throw new Error(`connections did not come up (${JSON.stringify(held)})`);
    await sleep(500);
  }
  const holders = async () => {
    if (!redis) return channelIds.map(() => 0);
    // A killed instance answers nothing: it holds nothing either.
    const none: Health = {};
    const ids = (await Promise.all(servers.map((x) => health(x).catch(() => none)))).map((h) => h.cluster?.instance);
    const rows = await query<{ channel_id: string; instance_id: string }>(
      databaseUrl,
      'SELECT channel_id, instance_id FROM channel_owners',
    );
    const byChannel = new Map(rows.map((r) => [r.channel_id, ids.indexOf(r.instance_id)]));
    return channelIds.map((id) => byChannel.get(id) ?? -1);
  };
  return {
    emulator,
    servers,
    channelIds,
    token,
    databaseUrl,
    holders,
    async close() {
      for (const s of servers) {
        s.child.kill('SIGTERM');
        await Promise.race([s.exited, sleep(20_000)]);
        s.child.kill('SIGKILL');
      }
      await emulator.close();
      await query(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One staff socket per channel, on the next instance after the holder (so events cross Redis when N > 1). */
async function staffSockets(s: Setup) {
  const holders = await s.holders();
  const state = { received: 0, recording: null as number[] | null, seen: new Set<string>() };
  const sockets = await Promise.all(
    s.channelIds.map((id, i) => {
      const server = s.servers[((holders[i] ?? 0) + 1) % s.servers.length]!;
      return new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/2/channels/${id}/chat-ws`, ['greenroom', s.token]);
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
        ws.on('message', (data: Buffer) => {
          const text = data.toString('utf8');
          if (!text.startsWith('{"type":"chat.message"')) return;
          state.received++;
          const m = /"provider_message_id":"([^"]+)"/.exec(text);
          if (m) state.seen.add(m[1]!);
          if (!state.recording) return;
          const sent = m ? s.emulator.world.messages.get(m[1]!)?.createdAt.getTime() : undefined;
          state.recording.push(sent === undefined ? 10_000 : Date.now() - sent);
        });
      });
    }),
  );
  return { state, close: () => sockets.forEach((ws) => ws.terminate()) };
}

type Sockets = Awaited<ReturnType<typeof staffSockets>>;

async function serversCpu(s: Setup): Promise<number> {
  let total = 0;
  for (const server of s.servers) total += await cpuMs(server.child.pid);
  return total;
}

function stepper(s: Setup, sockets: Sockets) {
  return async (rate: number, seconds: number): Promise<StepOutcome> => {
    const crowd = s.emulator.crowd;
    const latencies: number[] = [];
    const r0 = sockets.state.received;
    const g0 = crowd.generated.messages;
    const cpu0 = await serversCpu(s);
    sockets.state.recording = latencies;
    crowd.setRate(rate);
    const start = performance.now();
    crowd.start();
    await sleep(seconds * 1000);
    crowd.stop();
    const elapsed = (performance.now() - start) / 1000;
    const generated = crowd.generated.messages - g0;
    const through = sockets.state.received - r0;
    const drainUntil = Date.now() + 30_000;
    while (sockets.state.received - r0 < generated && Date.now() < drainUntil) await sleep(50);
    sockets.state.recording = null;
    const cpu = (await serversCpu(s)) - cpu0;
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

async function redisCommands(redis: RedisServer): Promise<Map<string, number>> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redis.url);
  try {
    const info = await client.info('commandstats');
    const out = new Map<string, number>();
    for (const m of info.matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)) out.set(m[1]!, Number(m[2]));
    return out;
  } finally {
    client.disconnect();
  }
}

async function pgCounters(url: string): Promise<{ xact: number; inserted: number; updated: number }> {
  const [row] = await query<{ xact: string; inserted: string; updated: string }>(
    url,
    'SELECT xact_commit + xact_rollback AS xact, tup_inserted AS inserted, tup_updated AS updated FROM pg_stat_database WHERE datname = current_database()',
  );
  return { xact: Number(row!.xact), inserted: Number(row!.inserted), updated: Number(row!.updated) };
}

/** Redis commands and PostgreSQL transactions per 1,000 messages at OPS_RATE msg/s for 10 s. */
async function operations(s: Setup, sockets: Sockets, redis: RedisServer | null, label: string): Promise<BenchResult[]> {
  const crowd = s.emulator.crowd;
  const [r0, p0, g0] = [
    redis ? await redisCommands(redis) : new Map<string, number>(),
    await pgCounters(s.databaseUrl),
    crowd.generated.messages,
  ];
  crowd.setRate(OPS_RATE);
  crowd.start();
  await sleep(10_000);
  crowd.stop();
  const generated = crowd.generated.messages - g0;
  const until = Date.now() + 30_000;
  while (sockets.state.seen.size < generated && Date.now() < until) await sleep(100);
  const [r1, p1] = [redis ? await redisCommands(redis) : new Map<string, number>(), await pgCounters(s.databaseUrl)];
  const per1000 = (n: number) => Math.round((n * 1000) / Math.max(1, generated));
  const byCommand = [...r1].map(([k, v]) => [k, v - (r0.get(k) ?? 0)] as const).filter(([, v]) => v > 0);
  byCommand.sort((a, b) => b[1] - a[1]);
  const redisTotal = byCommand.reduce((a, [, v]) => a + v, 0);
  return [
    {
      name: `${label}: Redis commands per 1,000 msgs at ${OPS_RATE} msg/s`,
      value: per1000(redisTotal),
      unit: byCommand.length ? `(${byCommand.map(([k, v]) => `${k} ${per1000(v)}`).join(', ')})` : '',
    },
    {
      name: `${label}: PostgreSQL transactions per 1,000 msgs at ${OPS_RATE} msg/s`,
      value: per1000(p1.xact - p0.xact),
      unit: `(rows inserted ${per1000(p1.inserted - p0.inserted)}, updated ${per1000(p1.updated - p0.updated)})`,
    },
  ];
}

/**
 * kill -9 of the instance holding channel 0: until every channel it held is held by another (lease moved) and until
 * each of them chats again through a staff socket on a survivor (the takeover time is the last channel's).
 */
async function takeover(s: Setup, instances: number): Promise<BenchResult[]> {
  const holders = await s.holders();
  const victimIndex = holders[0]!;
  const victim = s.servers[victimIndex]!;
  const survivor = s.servers.find((x) => x !== victim)!;
  const moved = s.channelIds.filter((_, i) => holders[i] === victimIndex);
  // When the first message sent after the kill reached the channel's staff socket (its arrival, not the next check).
  const chatAt = new Map<string, number>();
  let killedAt = 0;
  const sockets = await Promise.all(
    moved.map(
      (channelId) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`${survivor.url.replace(/^http/, 'ws')}/api/2/channels/${channelId}/chat-ws`, ['greenroom', s.token]);
          ws.on('message', (data: Buffer) => {
            if (killedAt && !chatAt.has(channelId) && data.toString('utf8').includes('"text":"takeover-'))
              chatAt.set(channelId, Date.now() - killedAt);
          });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        }),
    ),
  );
  const logins = new Map(
    (
      await query<{ channel_id: string; name: string }>(
        s.databaseUrl,
        'SELECT channel_id, provider_channel_name AS name FROM channel_providers WHERE channel_id = ANY($1)',
        [moved],
      )
    ).map((r) => [r.channel_id, r.name]),
  );
  const victimId = (await health(victim)).cluster?.instance;
  const db = new pg.Client({ connectionString: s.databaseUrl });
  await db.connect();
  killedAt = Date.now();
  victim.child.kill('SIGKILL');
  await victim.exited;
  const leaseAt = new Map<string, number>();
  for (let k = 0; chatAt.size < moved.length && Date.now() - killedAt < 60_000; k++) {
    const owners = (await db.query<{ channel_id: string; instance_id: string }>('SELECT channel_id, instance_id FROM channel_owners')).rows;
    for (const o of owners)
      if (moved.includes(o.channel_id) && o.instance_id !== victimId && !leaseAt.has(o.channel_id))
        leaseAt.set(o.channel_id, Date.now() - killedAt);
    await Promise.all(
      moved
        .filter((id) => !chatAt.has(id))
        .map(async (id, j) => {
          const text = `takeover-${j}-${k}`;
          await fetch(`${s.emulator.origin}/_emulator/chat`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ platform: 'twitch', channel: logins.get(id), text }),
          });
        }),
    );
    await sleep(100);
  }
  await db.end();
  for (const ws of sockets) ws.terminate();
  if (SERVER_LOG !== 'error') {
    // When the survivors took the channels and their connections came up, relative to the kill.
    for (const [i, server] of s.servers.entries()) {
      if (server === victim) continue;
      for (const line of server.stdout().split('\n')) {
        if (!line.includes('"time"')) continue;
        try {
          const entry = JSON.parse(line) as { time: number; msg?: string };
          if (entry.time >= killedAt - 1000)
            console.log(`    instance ${i} +${entry.time - killedAt} ms: ${entry.msg ?? ''} ${line.slice(0, 300)}`);
        } catch {
          // Not a log line.
        }
      }
    }
  }
  s.servers.splice(s.servers.indexOf(victim), 1);
  const last = (m: Map<string, number>) => (m.size < moved.length ? 60_000 : Math.max(...m.values()));
  const what = `${instances} instances, ${moved.length} channel(s) moved`;
  return [
    { name: `takeover after kill -9 (${what}): every lease moved to a survivor`, value: last(leaseAt), unit: 'ms' },
    {
      name: `takeover after kill -9 (${what}): chat flows again on every moved channel`,
      value: last(chatAt),
      unit: `ms (goal ≤ 5,000; first channel ${Math.min(...chatAt.values())} ms${chatAt.size < moved.length ? `; ${moved.length - chatAt.size} never resumed` : ''})`,
    },
  ];
}

async function run(instances: number, redis: RedisServer | null, withTakeover: boolean): Promise<BenchResult[]> {
  const label = redis ? `${instances} instance(s) + Redis` : '1 instance alone (no Redis)';
  const s = await setUp(instances, redis);
  const results: BenchResult[] = [];
  try {
    if (TAKEOVER_ONLY) {
      results.push(...(await takeover(s, instances)));
      return results;
    }
    const sockets = await staffSockets(s);
    const { max, lowest } = await findMaximum(label, stepper(s, sockets), {
      start: Number(process.env.BENCH_START_RATE ?? 500),
      stepSeconds: STEP_SECONDS,
      sustainSeconds: SUSTAIN_SECONDS,
    });
    const name = `${label}, ${CHANNELS} channels: max sustainable persisted ingest + fan-out`;
    results.push(
      max
        ? { name, value: max.achieved, unit: `msgs/s (p99 ${max.p99} ms, ${max.cpuUsPerMessage} µs CPU/msg over all instances)` }
        : { name, value: lowest, unit: 'msgs/s NOT sustained — not even the lowest rate tried' },
    );
    const held = await s.holders();
    results.push({
      name: `${label}: channels held per instance`,
      value: s.servers.length,
      unit: `instances holding ${s.servers.map((_, i) => held.filter((h) => h === i).length).join(' / ')} of ${CHANNELS}`,
    });
    results.push(...(await operations(s, sockets, redis, label)));
    sockets.close();
    if (withTakeover) results.push(...(await takeover(s, instances)));
  } finally {
    await s.close();
  }
  return results;
}

export async function benchCluster(): Promise<BenchResult[]> {
  if (!postgresUrl()) return [{ name: 'cluster: skipped (needs PostgreSQL: npm run bench:cluster)', value: 0, unit: '' }];
  if (!redisServerBin()) return [{ name: 'cluster: skipped (redis-server is not installed)', value: 0, unit: '' }];
  const counts = (process.env.BENCH_CLUSTER_INSTANCES ?? '1,2,4').split(',').map(Number);
  const results: BenchResult[] = [];
  if (TAKEOVER_ONLY) {
    const redis = await startRedisServer();
    try {
      for (const n of counts.filter((c) => c >= 2)) {
        const r = await run(n, redis, true);
        for (const x of r) console.log(`  → ${x.name}: ${x.value.toLocaleString('en-US')} ${x.unit}`);
        results.push(...r);
      }
    } finally {
      await redis.stop();
    }
    return results;
  }
  // The ceiling: the same work on one instance without Redis.
  const alone = await run(1, null, false);
  for (const x of alone) console.log(`  → ${x.name}: ${x.value.toLocaleString('en-US')} ${x.unit}`);
  results.push(...alone);
  const redis = await startRedisServer();
  try {
    for (const n of counts) {
      const r = await run(n, redis, n >= 2);
      for (const x of r) console.log(`  → ${x.name}: ${x.value.toLocaleString('en-US')} ${x.unit}`);
      results.push(...r);
      const ceiling = alone[0]!.value;
      if (ceiling > 0)
        results.push({ name: `${n} instance(s) + Redis ÷ 1 alone`, value: Math.round((r[0]!.value / ceiling) * 100) / 100, unit: '×' });
    }
  } finally {
    await redis.stop();
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  console.log(`load average at start: ${load()} (2 cores shared with other work: timings are noisy)`);
  const results = await benchCluster();
  console.log(`load average at end: ${load()}`);
  for (const r of results) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
  process.exit(0);
}
