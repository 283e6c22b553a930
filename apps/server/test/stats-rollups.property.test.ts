/**
 * Stats rollups against the raw rows (property): for random chat, activities, moderation, viewer samples, points and
 * command uses — rolled up in two steps, samples overwriting samples — and random ranges (a minute to 93 days, over a
 * month's end), the stats API's answer equals the one computed here from the raw rows: the series per connection
 * and bucket, platform totals, viewers, unique and top chatters (whole UTC days), commands and the points economy.
 * Then the hour and month rollups are rebuilt by the backfill of migration 0020 (from the minute, points and the
 * former per-day chatter rows) and must give the same answers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsDto } from '@greenroom/contracts/api/stats';
import { activities, channelProviders, channels, chatMessages, moderationEvents, pointWallets } from '../src/db/schema';
import { bucketSeconds, StatsQueries, StatsRollup } from '../src/modules/stats';
import { createTestApp, type TestApp } from './helper';

const MINUTE = 60_000;
/** 40 days from 21:00 UTC on 29 January: over the ends of January and February (28 days). */
const base = Date.parse('2026-01-29T21:00:00Z');
const SPAN = 40 * 1440;
const providers = ['twitch', 'kick'] as const;

/** A time in the span: anywhere, or packed into a few hours so minutes and hours hold several rows. */
const when = fc.oneof(
  fc.record({ m: fc.integer({ min: 0, max: SPAN - 1 }), s: fc.integer({ min: 0, max: 59 }) }),
  fc.record({ m: fc.integer({ min: 3 * 1440 + 100, max: 3 * 1440 + 280 }), s: fc.integer({ min: 0, max: 59 }) }),
);
const msOf = (w: { m: number; s: number }) => base + w.m * MINUTE + w.s * 1000;
const p = fc.integer({ min: 0, max: 1 });

const data = fc.record({
  messages: fc.array(fc.record({ p, author: fc.integer({ min: 0, max: 5 }), at: when }), { maxLength: 60 }),
  activities: fc.array(
    fc.record({ p, at: when, type: fc.constantFrom('follow', 'sub', 'gift', 'raid'), count: fc.integer({ min: 1, max: 5 }) }),
    { maxLength: 15 },
  ),
  moderation: fc.array(fc.record({ at: when, kind: fc.constantFrom('ban', 'timeout', 'clear') }), { maxLength: 10 }),
  samples: fc.array(fc.record({ p, at: when, viewers: fc.integer({ min: 0, max: 1000 }) }), { maxLength: 15 }),
  points: fc.array(
    fc.record({
      at: when,
      kind: fc.constantFrom('watch', 'command', 'slots', 'give', 'adjust'),
      delta: fc.integer({ min: -50, max: 50 }),
    }),
    { maxLength: 20 },
  ),
  commands: fc.array(fc.record({ p, at: when, command: fc.constantFrom('cmd-a', 'cmd-b', 'cmd-c') }), { maxLength: 10 }),
  /** The share of each kind of row written before the first rollup (the rest after it, then a second rollup). */
  split: fc.integer({ min: 0, max: 100 }).map((percent) => percent / 100),
  ranges: fc.array(
    fc.record({
      from: fc.record({ m: fc.integer({ min: -1440, max: SPAN }), s: fc.integer({ min: 0, max: 59 }) }),
      minutes: fc.oneof(
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 601, max: 10 * 1440 }),
        fc.integer({ min: 10 * 1440, max: 93 * 1440 }),
      ),
    }),
    { minLength: 1, maxLength: 4 },
  ),
});
type Data = typeof data extends fc.Arbitrary<infer T> ? T : never;

const minuteOf = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const round = (n: number | null) => (n === null ? null : Math.round(n * 1e6) / 1e6);

/** The answer computed from the raw rows. */
function expected(d: Data, cpIds: string[], from: number, to: number) {
  const bucket = bucketSeconds(new Date(from), new Date(to)) * 1000;
  const inRange = (ms: number) => minuteOf(ms) >= from && minuteOf(ms) < to;
  type Point = { messages: number; follows: number; subs: number; moderation: number; commands: number };
  const series = new Map<string, Point & { cp: number; at: number; viewerSum: number; viewerMinutes: number }>();
  const point = (cp: number, ms: number) => {
    const at = Math.floor(minuteOf(ms) / bucket) * bucket;
    const key = `${cp}/${at}`;
    let e = series.get(key);
    if (!e) {
      e = { cp, at, messages: 0, follows: 0, subs: 0, moderation: 0, commands: 0, viewerSum: 0, viewerMinutes: 0 };
      series.set(key, e);
    }
    return e;
  };
  for (const m of d.messages) if (inRange(msOf(m.at))) point(m.p, msOf(m.at)).messages += 1;
  for (const a of d.activities) {
    if (!inRange(msOf(a.at)) || a.type === 'raid') continue;
    const e = point(a.p, msOf(a.at));
    if (a.type === 'follow') e.follows += 1;
    else e.subs += a.type === 'gift' ? a.count : 1;
  }
  for (const m of d.moderation) if (inRange(msOf(m.at)) && m.kind !== 'clear') point(0, msOf(m.at)).moderation += 1;
  for (const c of d.commands) if (inRange(msOf(c.at))) point(c.p, msOf(c.at)).commands += 1;
  // Samples: the last one of a connection's minute counts.
  const samples = new Map<string, { p: number; minute: number; viewers: number }>();
  for (const s of d.samples) samples.set(`${s.p}/${minuteOf(msOf(s.at))}`, { p: s.p, minute: minuteOf(msOf(s.at)), viewers: s.viewers });
  const channelMinutes = new Map<number, number>();
  for (const s of samples.values()) {
    if (!inRange(s.minute)) continue;
    const e = point(s.p, s.minute);
    e.viewerSum += s.viewers;
    e.viewerMinutes += 1;
    channelMinutes.set(s.minute, (channelMinutes.get(s.minute) ?? 0) + s.viewers);
  }
  const peaks = new Map<string, number>();
  for (const s of samples.values()) {
    if (!inRange(s.minute)) continue;
    const key = `${s.p}/${Math.floor(s.minute / bucket) * bucket}`;
    peaks.set(key, Math.max(peaks.get(key) ?? 0, s.viewers));
  }
  const seriesOut = [...series.entries()]
    .map(([, e]) => ({
      at: new Date(e.at).toISOString(),
      channel_provider_id: cpIds[e.cp]!,
      messages: e.messages,
      follows: e.follows,
      subs: e.subs,
      moderation: e.moderation,
      commands: e.commands,
      viewers: e.viewerMinutes > 0 ? round(e.viewerSum / e.viewerMinutes) : null,
    }))
    .sort((a, b) => a.at.localeCompare(b.at) || a.channel_provider_id.localeCompare(b.channel_provider_id));
  const platforms = cpIds
    .map((id) => {
      const own = [...series.values()].filter((e) => cpIds[e.cp] === id);
      const minutes = own.reduce((a, e) => a + e.viewerMinutes, 0);
      const peak = [...peaks.entries()].filter(([k]) => cpIds[Number(k.split('/')[0])] === id).map(([, v]) => v);
      return {
        channel_provider_id: id,
        rows: own.length,
        messages: own.reduce((a, e) => a + e.messages, 0),
        follows: own.reduce((a, e) => a + e.follows, 0),
        subs: own.reduce((a, e) => a + e.subs, 0),
        moderation: own.reduce((a, e) => a + e.moderation, 0),
        commands: own.reduce((a, e) => a + e.commands, 0),
        minutes_live: minutes,
        peak_viewers: peak.length > 0 ? Math.max(...peak) : null,
        average_viewers: minutes > 0 ? round(own.reduce((a, e) => a + e.viewerSum, 0) / minutes) : null,
      };
    })
    .filter((x) => x.rows > 0)
    .map(({ rows: _rows, ...x }) => x)
    .sort((a, b) => a.channel_provider_id.localeCompare(b.channel_provider_id));
  const viewerSums = [...channelMinutes.values()];
  // Chatters and commands: whole UTC days.
  const dayFrom = dayOf(from);
  const dayTo = dayOf(to - 1);
  const inDays = (ms: number) => dayOf(ms) >= dayFrom && dayOf(ms) <= dayTo;
  const chatters = new Map<string, { provider: string; id: string; name: string; messages: number }>();
  for (const m of d.messages) {
    if (!inDays(msOf(m.at))) continue;
    const provider = providers[m.p]!;
    const key = `${provider}/${m.author}`;
    const c = chatters.get(key) ?? { provider, id: `u${m.author}`, name: `${provider}-u${m.author}`, messages: 0 };
    c.messages += 1;
    chatters.set(key, c);
  }
  const uses = new Map<string, number>();
  for (const c of d.commands) if (inDays(msOf(c.at))) uses.set(c.command, (uses.get(c.command) ?? 0) + 1);
  const economy = new Map<number, Record<'earned' | 'spent' | 'won' | 'lost' | 'given' | 'adjusted', number>>();
  for (const x of d.points) {
    if (!inRange(msOf(x.at))) continue;
    const at = Math.floor(minuteOf(msOf(x.at)) / bucket) * bucket;
    const e = economy.get(at) ?? { earned: 0, spent: 0, won: 0, lost: 0, given: 0, adjusted: 0 };
    if (x.kind === 'watch' && x.delta > 0) e.earned += x.delta;
    if (x.kind === 'command') e.spent -= x.delta;
    if (x.kind === 'slots' && x.delta > 0) e.won += x.delta;
    if (x.kind === 'slots' && x.delta < 0) e.lost -= x.delta;
    if (x.kind === 'give' && x.delta > 0) e.given += x.delta;
    if (x.kind === 'adjust') e.adjusted += x.delta;
    economy.set(at, e);
  }
  const pointsSeries = [...economy.entries()]
    .filter(([, e]) => Object.values(e).some((v) => v !== 0))
    .sort(([a], [b]) => a - b)
    .map(([at, e]) => ({ at: new Date(at).toISOString(), ...e }));
  return {
    bucket_seconds: bucket / 1000,
    series: seriesOut,
    platforms,
    viewers: {
      peak_viewers: viewerSums.length > 0 ? Math.max(...viewerSums) : null,
      average_viewers: viewerSums.length > 0 ? round(viewerSums.reduce((a, v) => a + v, 0) / viewerSums.length) : null,
      minutes_live: viewerSums.length,
    },
    unique_chatters: chatters.size,
    top_chatters: [...chatters.values()]
      .sort((a, b) => b.messages - a.messages || a.name.localeCompare(b.name))
      .slice(0, 10)
      .map((c) => ({ provider: c.provider, provider_user_id: c.id, display_name: c.name, messages: c.messages })),
    top_commands: [...uses.entries()]
      .map(([command_id, n]) => ({ command_id, uses: n }))
      .sort((a, b) => a.command_id.localeCompare(b.command_id)),
    points_series: pointsSeries,
  };
}

/** The same figures from the API's answer (the series' peak is not in the answer: compared through the totals). */
function actual(r: StatsDto) {
  return {
    bucket_seconds: r.bucket_seconds,
    series: r.series
      .map((s) => ({
        at: s.at,
        channel_provider_id: s.channel_provider_id,
        messages: s.messages,
        follows: s.follows,
        subs: s.subs,
        moderation: s.moderation,
        commands: s.commands,
        viewers: round(s.viewers),
      }))
      .sort((a, b) => a.at.localeCompare(b.at) || a.channel_provider_id.localeCompare(b.channel_provider_id)),
    platforms: r.platforms.map((x) => ({
      channel_provider_id: x.channel_provider_id,
      messages: x.messages,
      follows: x.follows,
      subs: x.subs,
      moderation: x.moderation,
      commands: x.commands,
      minutes_live: x.minutes_live,
      peak_viewers: x.peak_viewers,
      average_viewers: round(x.average_viewers),
    })),
    viewers: {
      peak_viewers: r.totals.peak_viewers,
      average_viewers: round(r.totals.average_viewers),
      minutes_live: r.totals.minutes_live,
    },
    unique_chatters: r.totals.unique_chatters,
    top_chatters: r.top_chatters.map((c) => ({ ...c })),
    top_commands: r.top_commands
      .map((c) => ({ command_id: c.command_id, uses: c.uses }))
      .sort((a, b) => a.command_id.localeCompare(b.command_id)),
    points_series: r.points_series,
  };
}

/** The backfill statements of migration 0020 (the INSERTs that build the hour and month rollups from the older ones). */
const backfill = readFileSync(path.join(__dirname, '../src/db/migrations/0020_stats_rollups.sql'), 'utf8')
  .split('--> statement-breakpoint')
  .map((s) => s.trim())
  .filter((s) => s.startsWith('INSERT'));

let t: TestApp;
let run = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('stats rollups (property)', () => {
  it('answer every range as the raw rows do, incrementally and after the migration rebuilds them', async () => {
    expect(backfill).toHaveLength(4);
    const db = t.s.db;
    const rollup = new StatsRollup(db);
    const queries = new StatsQueries(db);
    await fc.assert(
      fc.asyncProperty(data, async (d) => {
        run += 1;
        const channelId = `prop-${run}`;
        const cpIds = providers.map((provider) => `${channelId}-${provider}`);
        await db.insert(channels).values({ id: channelId, displayName: 'Prop' });
        await db.insert(channelProviders).values(
          providers.map((provider, i) => ({
            id: cpIds[i]!,
            channelId,
            provider,
            providerChannelId: `${channelId}-${provider}`,
            providerChannelName: `${channelId}${provider}`,
          })),
        );
        const walletId = `${channelId}-wallet`;
        await db.insert(pointWallets).values({ id: walletId, channelId, displayName: 'Viewer', balance: 1_000_000 });
        let n = 0;
        const write = async (part: 0 | 1) => {
          const pick = <T>(xs: T[]) => {
            const cut = Math.floor(xs.length * d.split);
            return part === 0 ? xs.slice(0, cut) : xs.slice(cut);
          };
          const messages = pick(d.messages);
          if (messages.length > 0) {
            await db.insert(chatMessages).values(
              messages.map((m) => {
                n += 1;
                const provider = providers[m.p]!;
                return {
                  id: `${channelId}:m${n}`,
                  channelId,
                  channelProviderId: cpIds[m.p]!,
                  provider,
                  providerMessageId: `${channelId}-m${n}`,
                  authorId: `u${m.author}`,
                  authorLogin: `u${m.author}`,
                  authorName: `${provider}-u${m.author}`,
                  authorBadges: [],
                  authorRoles: { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false },
                  text: 'hi',
                  emotes: [],
                  mentions: [],
                  sentAt: new Date(msOf(m.at)),
                  receivedAt: new Date(msOf(m.at)),
                };
              }),
            );
          }
          const acts = pick(d.activities);
          if (acts.length > 0) {
            await db.insert(activities).values(
              acts.map((a) => {
                n += 1;
                return {
                  id: `${channelId}:a${n}`,
                  channelId,
                  channelProviderId: cpIds[a.p]!,
                  provider: providers[a.p]!,
                  providerEventId: `${channelId}-a${n}`,
                  type: a.type,
                  count: a.type === 'gift' ? a.count : null,
                  occurredAt: new Date(msOf(a.at)),
                };
              }),
            );
          }
          const mods = pick(d.moderation);
          if (mods.length > 0) {
            await db.insert(moderationEvents).values(
              mods.map((m) => {
                n += 1;
                return {
                  id: `${channelId}:mod${n}`,
                  channelId,
                  channelProviderId: cpIds[0]!,
                  provider: 'twitch',
                  kind: m.kind,
                  source: 'platform' as const,
                  occurredAt: new Date(msOf(m.at)),
                };
              }),
            );
          }
          for (const x of pick(d.points)) {
            n += 1;
            await db.execute(sql`
              INSERT INTO point_ledger (channel_id, wallet_id, delta, kind, idempotency_key, created_at)
              VALUES (${channelId}, ${walletId}, ${x.delta}, ${x.kind}, ${`k${n}`}, ${new Date(msOf(x.at)).toISOString()})`);
          }
          for (const c of pick(d.commands)) {
            n += 1;
            rollup.commandUsed({
              effectId: `${channelId}-e${n}`,
              channelId,
              channelProviderId: cpIds[c.p]!,
              provider: providers[c.p]!,
              commandId: c.command,
              at: new Date(msOf(c.at)),
            });
          }
          // The sampler writes the live connection's count into its minute (a later sample of the minute replaces it).
          for (const s of pick(d.samples)) {
            for (const [i, id] of cpIds.entries()) {
              await db
                .update(channelProviders)
                .set({ isLive: i === s.p, viewerCount: i === s.p ? s.viewers : null })
                .where(eq(channelProviders.id, id));
            }
            await rollup.sample(new Date(msOf(s.at)));
          }
          await rollup.rollup();
        };
        await write(0);
        await write(1);
        await db.update(channelProviders).set({ isLive: false, viewerCount: null }).where(eq(channelProviders.channelId, channelId));

        const check = async () => {
          // Beside the random ranges, two that hold most of the data: the whole span (months read whole and in part),
          // and a week over the end of January around the packed hours (a month's last days and the next's first).
          for (const r of [...d.ranges, { from: { m: 0, s: 0 }, minutes: SPAN }, { from: { m: 1000, s: 0 }, minutes: 7 * 1440 + 13 }]) {
            const from = msOf(r.from);
            const to = from + r.minutes * MINUTE;
            const answer = await queries.range(channelId, new Date(from), new Date(to));
            expect(actual(answer)).toEqual(expected(d, cpIds, from, to));
          }
        };
        try {
          await check();
          // The migration's backfill rebuilds the hour and month rollups from the minute, day and points rows. The
          // day rows (stats_chatters, dropped by migration 0021) are made here as the rollup wrote them before: messages
          // per chatter and UTC day, the last name seen.
          await db.execute(sql`DELETE FROM stats_hours`);
          await db.execute(sql`DELETE FROM stats_channel_hours`);
          await db.execute(sql`DELETE FROM stats_chatter_months`);
          await db.execute(sql`
            CREATE TABLE stats_chatters AS
            SELECT channel_id, (received_at AT TIME ZONE 'UTC')::date AS day, provider, author_id, max(author_name) AS author_name,
              count(*)::integer AS messages
            FROM chat_messages WHERE channel_id = ${channelId} AND NOT author_is_self GROUP BY 1, 2, 3, 4`);
          try {
            for (const statement of backfill) await db.execute(sql.raw(statement));
          } finally {
            await db.execute(sql`DROP TABLE stats_chatters`);
          }
          await check();
        } finally {
          await db.delete(channels).where(eq(channels.id, channelId));
        }
      }),
      { numRuns: 30 },
    );
  }, 600_000);
});
