/**
 * Data at scale: every list at 100,000 channels, for each kind of caller, and the request pipeline's own cost.
 *
 * Seeds (bulk `INSERT … SELECT generate_series`): 100,000 channels (1,000 Owners of 100 channels each, each channel
 * with a Twitch connection), a moderator of all 100,000 channels, an operator, and in one busy channel BENCH_SCALE_ROWS
 * chat messages and as many activities (default 10,000,000 each on PostgreSQL, 200,000 on PGlite — WebAssembly on one
 * thread seeds ~10× slower; one message in 10,000 from Kick, one in 20 from YouTube, the others from Twitch; one activity
 * in 10,000 a raid, one in 20 a sub, the others follows) and 100,000 audit log entries. The chat log and the activities are loaded as a bulk load
 * is: their secondary indexes dropped first and built again after (each from its own definition), then VACUUM ANALYZE
 * on PostgreSQL (the state autovacuum keeps a table in), PGlite's own statistics job on PGlite.
 *
 * Then the plans of the chat history and activity queries (EXPLAIN ANALYZE: plan and time in the database), and a
 * server process (the product's app on that database) answers each list — first page, a page deep in the list (its
 * cursor taken from the middle of the data), name searches that match one channel and that match every channel,
 * lookups by provider channel name, chat history text searches that match one message, one in a thousand, every one
 * and none, chat history of the rare and the less rare platform, the activities of the rare and less rare type — every
 * list warmed first, then at light load (one request at a time: p50/p99, end to end) and saturated (BENCH_SCALE_CONCURRENCY at
 * once: requests/s, p50/p99), each printed beside the baseline: a bare Fastify hello-world's /api/health measured the
 * same way in the same run (its row first, then each list's ratio to it). Last, `/api/health` on the product's whole
 * request pipeline beside that bare Fastify, alternately, three rounds each, with the ratios (on PostgreSQL once
 * autovacuum is idle: a vacuum running beside the servers takes a core of two).
 *
 * Engine: PGlite (a data directory on its own thread, as `npm start` runs it), and PostgreSQL when TEST_DATABASE_URL
 * or BENCH_DATABASE_URL names a server (`npm run bench` starts a throw-away one). BENCH_SCALE_ENGINES=pglite|postgres
 * picks one.
 * Run: npx tsx bench/scale.ts   (BENCH_SCALE_CHANNELS, BENCH_SCALE_ROWS, BENCH_SCALE_SECONDS: saturated seconds per
 * figure (default 2), BENCH_PORT: first port, default 3320; BENCH_SCALE_SEEDED_URL: a PostgreSQL database `seed` filled
 * before — measured as it is, neither seeded nor dropped: seeding 10,000,000 rows takes 10–20 minutes;
 * BENCH_SERVER_NODE_ARGS: node flags for the product's process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`;
 * BENCH_SCALE_LISTS: a regular expression: only the lists (and plans) whose names match it are measured, besides the
 * baseline, e.g. `BENCH_SCALE_LISTS='^admin|deep page'`)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../apps/server/src/db/client';
import { analyzeStale } from '../apps/server/src/db/planner-statistics';
import { encodeKeysetCursor } from '../apps/server/src/lib/pagination';
import { SessionService } from '../apps/server/src/modules/auth/sessions';
import { postgresUrl } from './chat-bench-lib';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const CHANNELS = Number(process.env.BENCH_SCALE_CHANNELS) || 100_000;
/** Chat messages and activities in the busy channel: seeding PGlite (WebAssembly, one thread) is ~10× slower. */
const rowsFor = (kind: 'PGlite' | 'PostgreSQL') => Number(process.env.BENCH_SCALE_ROWS) || (kind === 'PGlite' ? 200_000 : 10_000_000);
let ROWS = 0;
/** BENCH_SCALE_LISTS: only the lists whose names match (all when unset). */
const LISTS = process.env.BENCH_SCALE_LISTS ? new RegExp(process.env.BENCH_SCALE_LISTS) : null;
const wanted = (name: string) => !LISTS || LISTS.test(name);
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS) || 2;
const CONCURRENCY = Number(process.env.BENCH_SCALE_CONCURRENCY) || 16;
const LIGHT_REQUESTS = 200;
const BASE_PORT = Number(process.env.BENCH_PORT) || 3320;
const BUSY = 'ch-0000000';
const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

const channelId = (i: string) => `'ch-' || lpad((${i})::text, 7, '0')`;

/** Every 1,000th message carries this word: a search that matches one message in a thousand. */
const RARE_WORD = 'pogchamp';
/** One chat message in RARE_EVERY comes from this platform (the others from Twitch), one activity in RARE_EVERY is of this type (the others follows). */
const RARE_EVERY = 10_000;
const RARE_PLATFORM = 'kick';
const RARE_TYPE = 'raid';
/** One chat message in SOME_EVERY comes from this platform, one activity in SOME_EVERY is of this type: too many to sort them all for a page, too few to find a page soon walking the channel's log. */
const SOME_EVERY = 20;
const SOME_PLATFORM = 'youtube';
const SOME_TYPE = 'sub';

/** The secondary indexes of `tables` (not the primary keys), each with the statement that builds it. */
async function secondaryIndexes(db: Database['db'], tables: string[]): Promise<{ name: string; definition: string }[]> {
  const list = tables.map((t) => `'${t}'`).join(', ');
  return rowsOf<{ indexname: string; indexdef: string }>(
    await db.execute(
      sql.raw(
        `SELECT i.indexname, i.indexdef FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname JOIN pg_index x ON x.indexrelid = c.oid
         WHERE i.schemaname = current_schema() AND i.tablename IN (${list}) AND NOT x.indisprimary`,
      ),
    ),
  ).map((r) => ({ name: r.indexname, definition: r.indexdef }));
}

/** Everything a run needs, seeded with a handful of set-based statements. */
export async function seed(db: Database['db'], kind: 'PGlite' | 'PostgreSQL'): Promise<void> {
  ROWS = rowsFor(kind);
  const run = (text: string) => db.execute(sql.raw(text));
  const owners = Math.ceil(CHANNELS / 100);
  await run(`INSERT INTO users (id, display_name) SELECT 'u-' || i, 'Owner ' || i FROM generate_series(0, ${owners - 1}) i`);
  await run(`INSERT INTO users (id, display_name, is_operator) VALUES ('u-member', 'Moderator of all', false), ('u-op', 'Operator', true)`);
  // Names like "Stream 1f0e3dad99": every channel matches "stream", a 10-hex-digit part matches about one.
  await run(
    `INSERT INTO channels (id, display_name, created_at)
     SELECT ${channelId('i')}, 'Stream ' || substr(md5(i::text), 1, 10), now() - (${CHANNELS} - i) * interval '1 second'
     FROM generate_series(0, ${CHANNELS - 1}) i`,
  );
  await run(
    `INSERT INTO channel_users (channel_id, user_id, level, added_by)
     SELECT ${channelId('i')}, 'u-' || (i / 100), 500, 'u-' || (i / 100) FROM generate_series(0, ${CHANNELS - 1}) i`,
  );
  await run(
    `INSERT INTO channel_users (channel_id, user_id, level, added_by)
     SELECT ${channelId('i')}, 'u-member', 7, 'u-' || (i / 100) FROM generate_series(0, ${CHANNELS - 1}) i`,
  );
  await run(
    `INSERT INTO channel_providers (id, channel_id, provider, provider_channel_id, provider_channel_name)
     SELECT 'cp-' || i, ${channelId('i')}, 'twitch', 'tw-' || i, 'streamer_' || i FROM generate_series(0, ${CHANNELS - 1}) i`,
  );
  // A bulk load: the big tables' secondary indexes are built once at the end, not maintained row by row.
  const bulk = await secondaryIndexes(db, ['chat_messages', 'activities']);
  for (const index of bulk) await run(`DROP INDEX ${index.name}`);
  const batch = 1_000_000;
  for (let from = 0; from < ROWS; from += batch) {
    const to = Math.min(ROWS, from + batch) - 1;
    await run(
      `INSERT INTO chat_messages (id, channel_id, channel_provider_id, provider, provider_message_id, author_id, author_login,
         author_name, author_badges, author_roles, text, emotes, mentions, sent_at, received_at)
       SELECT 'twitch:m' || i, '${BUSY}', 'cp-0', CASE WHEN i % ${RARE_EVERY} = ${RARE_EVERY / 2} THEN '${RARE_PLATFORM}' WHEN i % ${SOME_EVERY} = 3 THEN '${SOME_PLATFORM}' ELSE 'twitch' END, 'm' || i, 'a' || (i % 5000), 'viewer' || (i % 5000), 'Viewer' || (i % 5000),
         '[]', '{"broadcaster":false,"moderator":false,"vip":false,"subscriber":false,"member":false,"verified":false}',
         'hello there number ' || i || CASE WHEN i % 1000 = 999 THEN ' ${RARE_WORD}' ELSE '' END, '[]', '[]', now() - (${ROWS} - i) * interval '10 ms', now() - (${ROWS} - i) * interval '10 ms'
       FROM generate_series(${from}, ${to}) i`,
    );
    await run(
      `INSERT INTO activities (id, channel_id, channel_provider_id, provider, provider_event_id, type, viewer_id, viewer_login,
         viewer_name, occurred_at)
       SELECT 'twitch:e' || i, '${BUSY}', 'cp-0', 'twitch', 'e' || i, CASE WHEN i % ${RARE_EVERY} = ${RARE_EVERY / 2} THEN '${RARE_TYPE}' WHEN i % ${SOME_EVERY} = 3 THEN '${SOME_TYPE}' ELSE 'follow' END, 'a' || i, 'viewer' || i, 'Viewer' || i,
         now() - (${ROWS} - i) * interval '10 ms' - (i % 3) * interval '1 ms'
       FROM generate_series(${from}, ${to}) i`,
    );
  }
  if (kind === 'PostgreSQL') await run(`SET maintenance_work_mem = '256MB'`);
  for (const index of bulk) await run(index.definition);
  await run(
    `INSERT INTO audit_log (channel_id, actor_user_id, action, data)
     SELECT '${BUSY}', 'u-0', 'channel.renamed', jsonb_build_object('from', 'a' || i, 'to', 'b' || i) FROM generate_series(1, 100000) i`,
  );
}

/** History searches: one message of the log, one in a thousand, every one, none. */
function chatSearches(): { name: string; q: string }[] {
  return [
    { name: 'search: one message', q: encodeURIComponent(`number ${Math.floor(ROWS / 2)}`) },
    { name: 'search: 1 in 1,000', q: RARE_WORD },
    { name: 'search: every message', q: 'hello' },
    { name: 'search: none', q: 'haystack' },
  ];
}

/**
 * The chat history and activity queries as the product issues them (modules/chat/chat-queries.ts,
 * modules/activity/activity-service.ts: the pages the lists below ask for — chat history 100 a page (its default `limit`),
 * activities 50 —, one more to know whether there is a next), under EXPLAIN ANALYZE:
 * the time in the database and the scans the plan chose. The history searches are shown as one query over the whole
 * log, the planner's own choice: what the product's search (a bounded walk or the trigram index in ranges of seq, as
 * the table's sample of texts says — `ChatQueries.search`) does instead of it when that is slow; the product's figures
 * are the end-to-end ones below.
 */
async function explainLists(db: Database['db']): Promise<void> {
  const chatMid = await one(
    db,
    `SELECT seq FROM chat_messages WHERE channel_id = '${BUSY}' ORDER BY seq OFFSET ${Math.floor(ROWS / 2)} LIMIT 1`,
  );
  const activityMid = await one(
    db,
    `SELECT occurred_at, seq FROM activities WHERE channel_id = '${BUSY}' ORDER BY occurred_at DESC, seq DESC OFFSET ${Math.floor(ROWS / 2)} LIMIT 1`,
  );
  const chat = (where = '') => `SELECT * FROM chat_messages WHERE channel_id = '${BUSY}' ${where} ORDER BY seq DESC LIMIT 101`;
  const activity = (where = '') =>
    `SELECT * FROM activities WHERE channel_id = '${BUSY}' ${where} ORDER BY occurred_at DESC NULLS LAST, seq DESC NULLS LAST LIMIT 51`;
  const at = new Date(String(activityMid.occurred_at)).toISOString();
  const queries: [string, string][] = [
    ['chat history', chat()],
    ['chat history, deep page', chat(`AND seq < ${String(chatMid.seq)}`)],
    ...chatSearches().map(({ name, q }): [string, string] => [
      `${name}, in one query`,
      chat(`AND text ILIKE '%${decodeURIComponent(q).replace(/'/g, "''")}%'`),
    ]),
    [`chat history, ?provider= 1 in ${RARE_EVERY.toLocaleString('en-US')}`, chat(`AND provider = '${RARE_PLATFORM}'`)],
    [`chat history, ?provider= 1 in ${SOME_EVERY}`, chat(`AND provider = '${SOME_PLATFORM}'`)],
    ['activity', activity()],
    [`activity, ?types= 1 in ${SOME_EVERY}`, activity(`AND type = '${SOME_TYPE}'`)],
    [`activity, ?types= 1 in ${RARE_EVERY.toLocaleString('en-US')}`, activity(`AND type = '${RARE_TYPE}'`)],
    [
      'activity, ?types= rare + common',
      `(${activity(`AND type = '${RARE_TYPE}'`)}) UNION ALL (${activity(`AND type = 'follow'`)}) ORDER BY occurred_at DESC NULLS LAST, seq DESC NULLS LAST LIMIT 51`,
    ],
    ['activity, deep page', activity(`AND (occurred_at, seq) < ('${at}'::timestamptz, ${String(activityMid.seq)})`)],
  ];
  console.log(`  EXPLAIN ANALYZE (${ROWS.toLocaleString('en-US')} rows each in one channel):`);
  for (const [name, query] of queries.filter(([name]) => wanted(name))) {
    await db.execute(sql.raw(`EXPLAIN ANALYZE ${query}`)); // warm the cache: the figure is a warm query's
    const lines = rowsOf<Record<string, string>>(await db.execute(sql.raw(`EXPLAIN ANALYZE ${query}`))).map((r) => Object.values(r)[0]!);
    const time = lines.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
    const scans = lines
      .filter((l) => /Scan|Append|(^|->)\s*Sort\s+\(/.test(l))
      .map((l) =>
        l
          .trim()
          .replace(/^->\s*/, '')
          .replace(/\s+\(cost=.*?\)/, '')
          .replace(/\(actual time=[\d.]+\.\.[\d.]+ /, '('),
      )
      .join('; ');
    console.log(`    ${name.padEnd(40)} ${time.padStart(10)}  ${scans}`);
  }
}

interface Target {
  name: string;
  user: 'owner' | 'member' | 'operator';
  url: string;
}

/** The rows of a raw query (both drivers answer `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

async function one(db: Database['db'], text: string): Promise<Record<string, unknown>> {
  return rowsOf<Record<string, unknown>>(await db.execute(sql.raw(text)))[0]!;
}

/** The lists to measure, with cursors from the middle of the data. */
async function targets(db: Database['db']): Promise<Target[]> {
  const mid = Math.floor(CHANNELS / 2);
  const memberMid = await one(
    db,
    `SELECT sort_name, channel_id FROM channel_users WHERE user_id = 'u-member' ORDER BY sort_name, channel_id OFFSET ${mid} LIMIT 1`,
  );
  const adminMid = await one(db, `SELECT id FROM channels ORDER BY id DESC OFFSET ${mid} LIMIT 1`);
  const rare = await one(db, `SELECT substr(md5('${mid + 7}'), 1, 10) AS part`);
  const chatMid = await one(
    db,
    `SELECT seq FROM chat_messages WHERE channel_id = '${BUSY}' ORDER BY seq OFFSET ${Math.floor(ROWS / 2)} LIMIT 1`,
  );
  const activityMid = await one(
    db,
    `SELECT (extract(epoch FROM occurred_at) * 1000)::bigint AS at, seq FROM activities WHERE channel_id = '${BUSY}' ORDER BY occurred_at DESC, seq DESC OFFSET ${Math.floor(ROWS / 2)} LIMIT 1`,
  );
  const auditMid = await one(db, `SELECT id FROM audit_log WHERE channel_id = '${BUSY}' ORDER BY id DESC OFFSET 50000 LIMIT 1`);
  const deepMember = encodeKeysetCursor([String(memberMid.sort_name), String(memberMid.channel_id)]);
  const deepAdmin = encodeKeysetCursor([String(adminMid.id)]);
  const part = String(rare.part);
  const ch = `/api/2/channels/${BUSY}`;
  return [
    { name: 'channels: Owner of 100', user: 'owner', url: '/api/2/channels' },
    { name: 'channels: Owner of 100, ?name= one', user: 'owner', url: `/api/2/channels?name=${part.slice(0, 6)}` },
    { name: 'channels: member of all', user: 'member', url: '/api/2/channels' },
    { name: 'channels: member of all, deep page', user: 'member', url: `/api/2/channels?cursor=${deepMember}` },
    { name: 'channels: member of all, ?name= one', user: 'member', url: `/api/2/channels?name=${part}` },
    { name: 'channels: member of all, ?name= every', user: 'member', url: '/api/2/channels?name=stream' },
    {
      name: 'channel: member of all, by provider name',
      user: 'member',
      url: `/api/2/channel?provider=twitch&provider_channel_name=STREAMER_${mid}`,
    },
    { name: 'admin channels', user: 'operator', url: '/api/2/admin/channels' },
    { name: 'admin channels, deep page', user: 'operator', url: `/api/2/admin/channels?cursor=${deepAdmin}` },
    { name: 'admin channels, ?name= one', user: 'operator', url: `/api/2/admin/channels?name=${part}` },
    { name: 'admin channels, ?name= every', user: 'operator', url: '/api/2/admin/channels?name=stream' },
    { name: 'chat history', user: 'owner', url: `${ch}/chat/messages` },
    { name: 'chat history, deep page', user: 'owner', url: `${ch}/chat/messages?before=${String(chatMid.seq)}` },
    ...chatSearches().map(({ name, q }) => ({ name: `chat history, ${name}`, user: 'owner' as const, url: `${ch}/chat/messages?q=${q}` })),
    {
      name: `chat history, ?provider= 1 in ${RARE_EVERY.toLocaleString('en-US')}`,
      user: 'owner',
      url: `${ch}/chat/messages?provider=${RARE_PLATFORM}`,
    },
    { name: `chat history, ?provider= 1 in ${SOME_EVERY}`, user: 'owner', url: `${ch}/chat/messages?provider=${SOME_PLATFORM}` },
    { name: 'activity', user: 'owner', url: `${ch}/activity` },
    { name: `activity, ?types= 1 in ${SOME_EVERY}`, user: 'owner', url: `${ch}/activity?types=${SOME_TYPE}` },
    { name: `activity, ?types= 1 in ${RARE_EVERY.toLocaleString('en-US')}`, user: 'owner', url: `${ch}/activity?types=${RARE_TYPE}` },
    { name: 'activity, ?types= rare + common', user: 'owner', url: `${ch}/activity?types=${RARE_TYPE},follow` },
    { name: 'activity, deep page', user: 'owner', url: `${ch}/activity?cursor=${String(activityMid.at)}.${String(activityMid.seq)}` },
    { name: 'audit log', user: 'owner', url: `${ch}/audit-log` },
    { name: 'audit log, deep page', user: 'owner', url: `${ch}/audit-log?cursor=${String(auditMid.id)}` },
  ];
}

// ── load ────────────────────────────────────────────────────────────────────

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function get(port: number, url: string, token: string | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      { host: '127.0.0.1', port, path: url, agent, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${url}: HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system, every thread) the process has used so far, in ms. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1000;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

interface Load {
  p50: number;
  p99: number;
  rps: number;
  /** The server process's CPU time per request (when its pid is given). */
  cpuMs: number;
}

/** `concurrency` requests in flight for `seconds` (or `count` requests in all). */
async function load(
  port: number,
  url: string,
  token: string | null,
  concurrency: number,
  until: { seconds?: number; count?: number },
  pid?: number,
): Promise<Load> {
  const latencies: number[] = [];
  const cpuBefore = pid ? cpuMsOf(pid) : 0;
  const started = performance.now();
  const deadline = until.seconds ? started + until.seconds * 1000 : Infinity;
  let issued = 0;
  const worker = async () => {
    while (performance.now() < deadline && (until.count === undefined || issued < until.count)) {
      issued += 1;
      latencies.push(await get(port, url, token));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const sorted = latencies.toSorted((a, b) => a - b);
  const cpuMs = pid ? (cpuMsOf(pid) - cpuBefore) / latencies.length : 0;
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), rps: latencies.length / elapsed, cpuMs };
}

/** The mean of several rounds' figures. */
function meanLoad(rounds: Load[]): Load {
  const mean = (key: keyof Load) => rounds.reduce((sum, r) => sum + r[key], 0) / rounds.length;
  return { p50: mean('p50'), p99: mean('p99'), rps: mean('rps'), cpuMs: mean('cpuMs') };
}

/** Waits (up to a minute) until no autovacuum worker runs on the server of `url`. */
async function autovacuumIdle(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let waited = 0; waited < 60_000; waited += 500) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`,
      );
      if (rows[0]!.n === 0) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log('  (autovacuum still running after 60 s: the /api/health figures share the machine with it)');
  } finally {
    await client.end();
  }
}

// ── processes ───────────────────────────────────────────────────────────────

async function startProcess(args: string[], env: Record<string, string>, port: number): Promise<ChildProcess> {
  // BENCH_SERVER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) goes to the product's process, not the baseline's.
  const nodeArgs = args.includes('bare') ? [] : (process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${errors}`);
    try {
      await get(port, '/api/health', null);
      return child;
    } catch {
      if (performance.now() - started > 180_000) throw new Error(`server did not start: ${errors}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

/** One engine: seed, measure every list, then /api/health beside bare Fastify. */
async function runEngine(kind: 'PGlite' | 'PostgreSQL'): Promise<BenchResult[]> {
  ROWS = rowsFor(kind);
  let database: Database;
  let where: Record<string, string>;
  let drop: () => Promise<void>;
  if (kind === 'PGlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'greenroom-scale-'));
    database = await openDatabase({ dataDir: dir });
    where = { DATA_DIR: dir };
    drop = async () => rmSync(dir, { recursive: true, force: true });
  } else if (process.env.BENCH_SCALE_SEEDED_URL) {
    // A database this bench seeded before (tmp scripts may call `seed`), measured again as it is: no seeding, no drop.
    database = await openDatabase({ url: process.env.BENCH_SCALE_SEEDED_URL });
    where = { DATABASE_URL: process.env.BENCH_SCALE_SEEDED_URL };
    drop = async () => undefined;
    ROWS = Number((await one(database.db, `SELECT count(*)::bigint AS n FROM chat_messages WHERE channel_id = '${BUSY}'`)).n);
  } else {
    const admin = postgresUrl()!;
    const name = `gr_scale_${randomBytes(5).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    database = await openDatabase({ url: url.toString() });
    where = { DATABASE_URL: url.toString() };
    drop = async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const results: BenchResult[] = [];
  const children: ChildProcess[] = [];
  try {
    let started = performance.now();
    const seeded = kind === 'PostgreSQL' && Boolean(process.env.BENCH_SCALE_SEEDED_URL);
    if (!seeded) await seed(database.db, kind);
    const seedMs = performance.now() - started;
    started = performance.now();
    // What the product does: PGlite's statistics job (at start and every minute), PostgreSQL's autovacuum.
    if (kind === 'PGlite') await analyzeStale(database.db);
    else if (!seeded) await database.db.execute(sql`VACUUM ANALYZE`);
    const analyzeMs = performance.now() - started;
    console.log(
      `  ${kind}: ${seeded ? 'reused a database seeded before with' : 'seeded'} ${CHANNELS.toLocaleString('en-US')} channels, ${ROWS.toLocaleString('en-US')} chat messages and activities in ${(seedMs / 1000).toFixed(1)} s; ${kind === 'PGlite' ? 'ANALYZE' : 'VACUUM ANALYZE'} ${(analyzeMs / 1000).toFixed(1)} s`,
    );
    const sessions = new SessionService(database.db, 30, []);
    const tokens = {
      owner: (await sessions.create('u-0')).token,
      member: (await sessions.create('u-member')).token,
      operator: (await sessions.create('u-op')).token,
    };
    const lists = (await targets(database.db)).filter((t) => wanted(t.name));
    if (lists.length === 0) throw new Error(`BENCH_SCALE_LISTS=${process.env.BENCH_SCALE_LISTS}: no list matches`);
    await explainLists(database.db);
    await database.close();
    console.log(
      `  load average before measuring: ${loadAverage()} (2 cores, shared: light p99s are mostly the scheduler's when it is high)`,
    );

    const port = BASE_PORT + (kind === 'PGlite' ? 0 : 4);
    const product = await startProcess([path.join(here, 'scale-server.ts')], { ...where, ENCRYPTION_KEY }, port);
    children.push(product);
    const bare = await startProcess([path.join(here, 'scale-server.ts'), 'bare'], {}, port + 2);
    children.push(bare);
    // The baseline every list is printed beside: a bare Fastify hello-world measured the same way in the same run (a
    // list can be no faster than it; the ratio says what the database and the product's pipeline leave of it).
    const measure = async (at: number, url: string, token: string | null, pid: number | undefined) => {
      await load(at, url, token, 1, { count: 20 });
      const light = await load(at, url, token, 1, { count: LIGHT_REQUESTS });
      const saturated = await load(at, url, token, CONCURRENCY, { seconds: SECONDS }, pid);
      return { light, saturated };
    };
    const baseline = await measure(port + 2, '/api/health', null, bare.pid);
    const row = (name: string, m: { light: Load; saturated: Load }) =>
      `  ${name.padEnd(44)} ${fmt(m.light.p50).padStart(7)} ms ${fmt(m.light.p99).padStart(5)} ms ${fmt(m.light.p99 / baseline.light.p99).padStart(7)}× | ${Math.round(m.saturated.rps).toLocaleString('en-US').padStart(15)} ${(m.saturated.rps / baseline.saturated.rps).toFixed(2).padStart(7)} ${fmt(m.saturated.p50).padStart(5)} ms ${fmt(m.saturated.p99).padStart(5)} ms ${fmt(m.saturated.cpuMs).padStart(12)} ms`;
    console.log(
      `  ${'list'.padEnd(44)} ${'light p50'.padStart(10)} ${'p99'.padStart(8)} ${'÷ bare'.padStart(8)} | ${'saturated req/s'.padStart(15)} ${'÷ bare'.padStart(7)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'server CPU/req'.padStart(15)}`,
    );
    console.log(row('bare Fastify /api/health (baseline)', baseline));
    // Every list warmed first, at full concurrency: a server just started pays its first requests (code compiled on
    // first use, the pool's connections and, on PostgreSQL, each new backend's caches) — measured without this, the
    // first list's figures were the worst of the run (PostgreSQL: 3.99 ms CPU a request, 1.62 ms when measured again last).
    for (const t of lists) await load(port, t.url, tokens[t.user], CONCURRENCY, { seconds: 0.5 });
    // The first list again at the end: what the first figures owe to a server just started (JIT, connections, caches).
    for (const t of [...lists, { ...lists[0]!, name: `${lists[0]!.name}, again last` }]) {
      const m = await measure(port, t.url, tokens[t.user], product.pid);
      console.log(row(t.name, m));
      results.push({ name: `${kind} ${t.name}: light p99`, value: Number(m.light.p99.toFixed(2)), unit: 'ms' });
      results.push({
        name: `${kind} ${t.name}: saturated req/s ÷ bare Fastify`,
        value: Number((m.saturated.rps / baseline.saturated.rps).toFixed(3)),
        unit: 'ratio',
      });
    }
    results.push({ name: `${kind} bare Fastify /api/health: light p99`, value: Number(baseline.light.p99.toFixed(2)), unit: 'ms' });
    // /api/health: the product's pipeline beside bare Fastify, each in its own process, alternately (whatever else the
    // machine does then weighs on both alike).
    if (kind === 'PostgreSQL') await autovacuumIdle(where.DATABASE_URL!);
    await load(port, '/api/health', null, CONCURRENCY, { seconds: 1 });
    await load(port + 2, '/api/health', null, CONCURRENCY, { seconds: 1 });
    const bareRounds: Load[] = [];
    const productRounds: Load[] = [];
    for (let round = 0; round < 3; round += 1) {
      bareRounds.push(await load(port + 2, '/api/health', null, CONCURRENCY, { seconds: SECONDS }, bare.pid));
      productRounds.push(await load(port, '/api/health', null, CONCURRENCY, { seconds: SECONDS }, product.pid));
    }
    const bareLoad = meanLoad(bareRounds);
    const productLoad = meanLoad(productRounds);
    // Requests/s depend on what else runs (the load generator itself shares the cores); the server's CPU time per
    // request is what bounds its rate on a core of its own: the capacity ratio.
    const rpsRatio = productLoad.rps / bareLoad.rps;
    const cpuRatio = bareLoad.cpuMs / productLoad.cpuMs;
    console.log(
      `  /api/health: product ${Math.round(productLoad.rps).toLocaleString('en-US')} req/s (${(productLoad.cpuMs * 1000).toFixed(0)} µs CPU/req), bare Fastify ${Math.round(bareLoad.rps).toLocaleString('en-US')} req/s (${(bareLoad.cpuMs * 1000).toFixed(0)} µs CPU/req): ratio ${rpsRatio.toFixed(2)} by req/s, ${cpuRatio.toFixed(2)} by CPU per request`,
    );
    results.push({ name: `${kind} /api/health product ÷ bare Fastify (req/s)`, value: Number(rpsRatio.toFixed(2)), unit: 'ratio' });
    results.push({
      name: `${kind} /api/health product ÷ bare Fastify (CPU per request)`,
      value: Number(cpuRatio.toFixed(2)),
      unit: 'ratio',
    });
  } finally {
    for (const child of children) await stopProcess(child);
    await database.close().catch(() => undefined);
    await drop();
  }
  console.log(`  load average at the end: ${loadAverage()}`);
  return results;
}

const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export async function benchScale(): Promise<BenchResult[]> {
  const only = process.env.BENCH_SCALE_ENGINES;
  const engines: ('PGlite' | 'PostgreSQL')[] = [];
  if (!only || only === 'pglite') engines.push('PGlite');
  if ((!only || only === 'postgres') && postgresUrl()) engines.push('PostgreSQL');
  const results: BenchResult[] = [];
  for (const kind of engines) results.push(...(await runEngine(kind)));
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const r of await benchScale()) console.log(`${r.name}: ${r.value} ${r.unit}`);
  agent.destroy();
}
