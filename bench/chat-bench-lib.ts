/**
 * Shared parts of the chat benchmarks: realistic chat rows, the ceiling (the bare database storing
 * the same rows into the same schema), the search for the maximum sustainable rate, percentiles,
 * and databases to measure on (embedded PGlite in a temporary directory; PostgreSQL when
 * TEST_DATABASE_URL or BENCH_DATABASE_URL names a server — `npm run bench` starts a throw-away one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { ChatMessage } from '../packages/contracts/src/api/events';
import { openDatabase, type Database } from '../apps/server/src/db/client';
import { channelProviders, channels } from '../apps/server/src/db/schema';
import type { PlatformChatMessage } from '../apps/server/src/platforms/port';
import type { WriteBatch } from '../apps/server/src/pipeline/chat-log-store';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const words = ['gg', 'nice', 'lol', 'what a play', 'hello chat', 'PogChamp', 'KEKW', 'first time here', 'let’s go', 'clutch', 'hype'];

/** A chat message as an adapter emits it: one of `viewers` authors, 20–80 characters, a badge, sometimes an emote. */
export function platformMessage(i: number, viewers = 2000, at = new Date().toISOString()): PlatformChatMessage {
  const v = i % viewers;
  const text = `${words[i % words.length]} ${words[(i * 7) % words.length]} #${i}`.padEnd(20 + (i % 60), '!');
  return {
    provider_message_id: `bench-${i}-${randomBytes(4).toString('hex')}`,
    author: {
      provider_user_id: `viewer-${v}`,
      login: `viewer${v}`,
      display_name: `Viewer${v}`,
      color: v % 3 === 0 ? null : '#8A2BE2',
      avatar_url: null,
      badges: v % 5 === 0 ? [{ set_id: 'subscriber', id: '12', label: 'Subscriber (1 year)' }] : [],
      roles: { broadcaster: false, moderator: false, vip: false, subscriber: v % 5 === 0, member: false, verified: false },
    },
    text,
    emotes: i % 4 === 0 ? [{ start: 0, end: 1, name: 'gg', id: '25', source: 'platform', url: 'https://static-cdn.example/25' }] : [],
    reply: null,
    mentions: [],
    highlight: null,
    sent_at: at,
    deleted: false,
  };
}

/** The same rows as stored messages (for the ceiling). */
export function storedMessages(count: number, channelIds: string[]): ChatMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const m = platformMessage(i);
    const channelId = channelIds[i % channelIds.length]!;
    return {
      ...m,
      id: `twitch:${m.provider_message_id}`,
      channel_id: channelId,
      channel_provider_id: `cp-${channelId}`,
      provider: 'twitch',
      author: { ...m.author, is_self: false },
      filtered: null,
    };
  });
}

/**
 * A group commit's batch of `size` stored messages (ids from `nextId`), each earning chat points: what the chat log
 * writes for a batch of chat with the points credits applied in the same statement.
 */
export function earningBatch(size: number, channelIds: string[], nextId: () => string): WriteBatch {
  const ms = storedMessages(size, channelIds).map((m) => {
    const id = nextId();
    return { ...m, id: `twitch:${id}`, provider_message_id: id };
  });
  return {
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
}

export interface BenchDatabase {
  kind: 'PGlite' | 'PostgreSQL';
  database: Database;
  /** `postgres://` URL of the fresh database (PostgreSQL), or its data directory (PGlite). */
  where: string;
  close(): Promise<void>;
}

/** The PostgreSQL server to measure on, if any. */
export function postgresUrl(): string | null {
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? null;
}

/** A fresh database with `channelCount` channels, each with one Twitch connection (`cp-<channel id>`). */
export async function benchDatabase(
  kind: 'PGlite' | 'PostgreSQL',
  channelCount: number,
  /** PGlite in this thread, in memory (no worker, no files): a statement's CPU is then this thread's. */
  options: { inProcess?: boolean } = {},
): Promise<BenchDatabase & { channelIds: string[] }> {
  let database: Database;
  let where: string;
  let drop: () => Promise<void>;
  if (kind === 'PGlite') {
    const dir = options.inProcess ? 'memory://' : mkdtempSync(path.join(tmpdir(), 'greenroom-bench-'));
    database = await openDatabase({ dataDir: dir });
    where = dir;
    drop = async () => {
      if (!options.inProcess) rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const admin = postgresUrl();
    if (!admin) throw new Error('no PostgreSQL server to measure on');
    const name = `gr_bench_${randomBytes(5).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    where = url.toString();
    database = await openDatabase({ url: where });
    drop = async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const channelIds = Array.from({ length: channelCount }, (_, i) => `bench-channel-${i}`);
  for (const id of channelIds) {
    await database.db.insert(channels).values({ id, displayName: id });
    await database.db
      .insert(channelProviders)
      .values({ id: `cp-${id}`, channelId: id, provider: 'twitch', providerChannelId: `tw-${id}`, providerChannelName: id });
  }
  return {
    kind,
    database,
    where,
    channelIds,
    async close() {
      await database.close();
      await drop();
    },
  };
}

const ceilingColumns = [
  'id',
  'channel_id',
  'channel_provider_id',
  'provider',
  'provider_message_id',
  'author_id',
  'author_login',
  'author_name',
  'author_color',
  'author_avatar_url',
  'author_badges',
  'author_roles',
  'text',
  'emotes',
  'reply',
  'mentions',
  'highlight',
  'sent_at',
] as const;

/**
 * The ceiling: the bare database storing the same rows into the same table (same indexes), as
 * multi-row INSERT … VALUES statements of 1,000 rows, one transaction each, as fast as it goes.
 * Returns rows/s.
 */
export async function insertCeiling(db: Database, channelIds: string[], count = 60_000): Promise<number> {
  const rows = storedMessages(count, channelIds).map((m) => [
    m.id,
    m.channel_id,
    m.channel_provider_id,
    m.provider,
    m.provider_message_id,
    m.author.provider_user_id,
    m.author.login,
    m.author.display_name,
    m.author.color,
    m.author.avatar_url,
    JSON.stringify(m.author.badges),
    JSON.stringify(m.author.roles),
    m.text,
    JSON.stringify(m.emotes),
    null,
    JSON.stringify(m.mentions),
    m.highlight,
    m.sent_at,
  ]);
  const batch = 1000;
  // The driver's own client with one prepared text: no query builder in the way.
  const client = (db.db as unknown as { $client: { query(text: string, params: unknown[]): Promise<unknown> } }).$client;
  const placeholders = (rowsInBatch: number) =>
    Array.from(
      { length: rowsInBatch },
      (_, r) =>
        `(${ceilingColumns.map((_, c) => `$${r * ceilingColumns.length + c + 1}${jsonColumns.has(c) ? '::jsonb' : ''}`).join(', ')})`,
    ).join(', ');
  const text = `INSERT INTO chat_messages (${ceilingColumns.join(', ')}) VALUES ${placeholders(batch)}`;
  const run = (part: unknown[][]) => client.query(text, part.flat());
  // Warm-up (not counted).
  await run(rows.slice(0, batch));
  const start = performance.now();
  for (let i = batch; i + batch <= rows.length; i += batch) await run(rows.slice(i, i + batch));
  return Math.round((rows.length - batch) / ((performance.now() - start) / 1000));
}
const jsonColumns = new Set([10, 11, 13, 14, 15]);

/** CPU time of a process (user + system) in ms: this one, or another by pid (Linux /proc). */
export async function cpuMs(pid?: number): Promise<number> {
  if (pid === undefined) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  const { readFileSync } = await import('node:fs');
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the whole line (11 and 12 after "pid (comm) "), in clock ticks (100/s).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident memory of a process in MB (Linux /proc). */
export async function rssMb(pid: number): Promise<number> {
  const { readFileSync } = await import('node:fs');
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : NaN;
}

export interface StepOutcome {
  offered: number;
  achieved: number;
  p50: number;
  p99: number;
  /** Messages not yet through at the end of the step. */
  backlog: number;
  lost: number;
  cpuUsPerMessage: number;
  sustained: boolean;
}

/** A step passes when it keeps up (≥ 97 % through, backlog under a quarter second of chat), p99 ≤ 100 ms, nothing lost. */
export function sustainable(s: Omit<StepOutcome, 'sustained'>): boolean {
  return s.achieved >= s.offered * 0.97 && s.backlog <= s.offered * 0.25 && s.p99 <= 100 && s.lost === 0;
}

/**
 * Raises the offered rate (×1.4 from `start`) until a step is not sustainable, narrows the last gap
 * twice at its geometric middle, then holds the highest sustainable rate for `sustainSeconds` (the
 * next lower ones if that hold fails); returns the hold that passed (and every step, for the log). A short
 * warm-up step (not counted) comes first. When `start` itself is not sustained (a slow or busy
 * machine), the rate is halved until a step is, down to `start / 16`; `lowest` is the lowest rate
 * tried, for the report when none was.
 */
export async function findMaximum(
  label: string,
  step: (rate: number, seconds: number) => Promise<StepOutcome>,
  options: { start: number; stepSeconds: number; sustainSeconds: number; limit?: number },
): Promise<{ max: StepOutcome | null; steps: StepOutcome[]; lowest: number }> {
  const steps: StepOutcome[] = [];
  const report = (rate: number, s: StepOutcome, what = 'offered') =>
    console.log(
      `  ${label}: ${what} ${rate.toLocaleString('en-US')}/s → ${s.achieved.toLocaleString('en-US')}/s, p99 ${s.p99} ms, backlog ${s.backlog}, ` +
        `${s.cpuUsPerMessage} µs CPU/msg${s.sustained ? '' : '  ✗'}`,
    );
  // A whole step's length: the server's first seconds under load (compiling its hot paths, the first ANALYZE after the
  // tables filled) stalled it for 150-200 ms, which failed a 5-second first step on its own.
  const warmUp = Math.max(1, Math.round(options.start / 4));
  report(warmUp, await step(warmUp, options.stepSeconds), 'warm-up');
  let best: number | null = null;
  let failed: number | null = null;
  let lowest = options.start;
  /** Rates whose step passed, highest first (the holds try them in this order). */
  const passed: number[] = [];
  for (let rate = options.start; rate <= (options.limit ?? 200_000); rate = Math.round(rate * 1.4)) {
    const s = await step(rate, options.stepSeconds);
    steps.push(s);
    report(rate, s);
    if (!s.sustained) {
      failed = rate;
      break;
    }
    best = rate;
    passed.unshift(rate);
  }
  for (let rate = Math.round(options.start / 2); best === null && rate >= options.start / 16; rate = Math.round(rate / 2)) {
    lowest = rate;
    const s = await step(rate, options.stepSeconds);
    steps.push(s);
    report(rate, s);
    if (s.sustained) {
      best = rate;
      passed.unshift(rate);
    } else failed = rate;
  }
  if (best === null) return { max: null, steps, lowest };
  // Narrow the ×1.4 ladder's last gap (between the best step and the one that failed) twice, at its geometric middle:
  // the maximum is then known within ~9 % instead of 40 %.
  for (let i = 0; i < 2 && failed !== null && failed / best > 1.1; i++) {
    const rate = Math.round(Math.sqrt(best * failed));
    const s = await step(rate, options.stepSeconds);
    steps.push(s);
    report(rate, s, 'between');
    if (s.sustained) {
      best = rate;
      passed.unshift(rate);
    } else failed = rate;
  }
  // Hold it: the maximum is the highest rate sustained for the whole run — the steps that passed from the highest down,
  // then on down by 1.4 until a hold passes (a short step can pass where a long hold does not: what grows over a run
  // shows only in the hold).
  const holds = [...passed.slice(0, 3)];
  for (let rate = Math.round(holds.at(-1)! / 1.4); rate >= Math.max(1, Math.round(options.start / 16)); rate = Math.round(rate / 1.4))
    holds.push(rate);
  for (const rate of holds) {
    const s = await step(rate, options.sustainSeconds);
    console.log(
      `  ${label}: held ${rate.toLocaleString('en-US')}/s for ${options.sustainSeconds} s → ${s.achieved.toLocaleString('en-US')}/s, p99 ${s.p99} ms${
        s.sustained ? '' : '  ✗'
      }`,
    );
    steps.push(s);
    if (s.sustained) return { max: s, steps, lowest };
    lowest = Math.min(lowest, rate);
  }
  return { max: null, steps, lowest };
}
