/**
 * The stats page and the dashboard read only the rollups, by channel and time — never the chat log: per minute
 * (`stats_minutes`, `stats_points`) and per hour (`stats_hours`, `stats_channel_hours`) for the series and totals,
 * per month, cumulative day by day (`stats_chatter_months`) for the chatters, `stats_commands` per day,
 * `stats_streams`. A range reads the coarsest rows that cover it exactly, so 30 days cost about what a day does.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { LiveStatsDto, StatsDto, StatsPoint, StatsPoints, StatsStream } from '@greenroom/contracts/api/stats';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';

/** Bucket widths of the series, narrowest first. */
const BUCKETS = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 86_400];
/** The per-connection counts of the series, summed into each platform's totals. */
const COUNTS = ['messages', 'follows', 'subs', 'moderation', 'commands'] as const;
/** The points economy's figures. */
const POINTS = ['earned', 'spent', 'won', 'lost', 'given', 'adjusted'] as const;
/** At most this many points per platform in a series (so a week is hourly: it comes from the hour rollups). */
const MAX_POINTS = 300;
const HOUR = 3_600_000;

/** The narrowest bucket that keeps a range within MAX_POINTS points. */
export function bucketSeconds(from: Date, to: Date): number {
  const seconds = (to.getTime() - from.getTime()) / 1000;
  return BUCKETS.find((b) => seconds / b <= MAX_POINTS) ?? BUCKETS[BUCKETS.length - 1]!;
}

const num = (v: string | number | null | undefined): number => (v === null || v === undefined ? 0 : Number(v));
const numOrNull = (v: string | number | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));
const iso = (v: string | Date): string => new Date(v).toISOString();
const dayOf = (d: Date): string => d.toISOString().slice(0, 10);

interface StreamRow {
  id: string;
  channel_provider_id: string;
  provider: string;
  started_at: string | Date;
  ended_at: string | Date | null;
  peak_viewers: number | null;
}

function toStream(r: StreamRow): StatsStream {
  return {
    id: r.id,
    channel_provider_id: r.channel_provider_id,
    provider: r.provider as ChannelProviderId,
    started_at: iso(r.started_at),
    ended_at: r.ended_at === null ? null : iso(r.ended_at),
    peak_viewers: r.peak_viewers,
  };
}

export class StatsQueries {
  constructor(private readonly db: Db) {}

  /**
   * Six indexed range reads of the rollups: the per-connection series (the platform totals are summed from it),
   * the channel's viewers per minute (all platforms together), chatters (unique count and top ten in one pass),
   * commands, points, and the streams of the range.
   */
  async range(channelId: string, from: Date, to: Date): Promise<StatsDto> {
    const bucket = bucketSeconds(from, to);
    const f = from.toISOString();
    const t = to.toISOString();
    const dayFrom = dayOf(from);
    const dayTo = dayOf(new Date(to.getTime() - 1));
    const width = sql`make_interval(secs => ${bucket})`;
    // Whole hours inside the range come from the hour rollups when every bucket holds whole hours; the minutes at
    // either end (or the whole range, for narrower buckets) from the minute rollups. The hour rows equal their
    // minutes' sums, so either way the figures are the same.
    let hFrom = Math.ceil(from.getTime() / HOUR) * HOUR;
    let hTo = Math.floor(to.getTime() / HOUR) * HOUR;
    if (bucket % 3600 !== 0 || hFrom >= hTo) hFrom = hTo = to.getTime();
    const hf = new Date(hFrom).toISOString();
    const ht = new Date(hTo).toISOString();
    const hours = sql`channel_id = ${channelId} AND hour >= ${hf} AND hour < ${ht}`;
    // The minutes before the first whole hour and after the last (two index ranges; an OR would scan them all).
    const minutesOf = (columns: SQL, where: SQL = sql`TRUE`) => sql`
      SELECT ${columns} FROM stats_minutes WHERE channel_id = ${channelId} AND minute >= ${f} AND minute < ${hf} AND ${where}
      UNION ALL
      SELECT ${columns} FROM stats_minutes WHERE channel_id = ${channelId} AND minute >= ${ht} AND minute < ${t} AND ${where}`;
    const [series, channelViewers, chatters, commands, economy, streams] = await Promise.all([
      this.db.execute(sql`
        SELECT channel_provider_id, provider, date_bin(${width}, at, 'epoch') AS at,
          sum(viewer_sum) AS viewer_sum, sum(viewer_minutes) AS viewer_minutes, max(peak) AS peak,
          sum(messages) AS messages, sum(follows) AS follows, sum(subs) AS subs, sum(moderation) AS moderation,
          sum(commands) AS commands
        FROM (
          SELECT channel_provider_id, provider, hour AS at, viewer_sum, viewer_minutes, viewer_peak AS peak, messages,
            follows, subs, moderation, commands
          FROM stats_hours WHERE ${hours}
          UNION ALL
          ${minutesOf(sql`channel_provider_id, provider, minute, viewers, CASE WHEN viewers IS NULL THEN 0 ELSE 1 END, viewers,
            messages, follows, subs, moderation, commands`)}
        ) u GROUP BY 1, 2, 3 ORDER BY 3, 1`),
      this.db.execute(sql`
        SELECT max(peak) AS peak, sum(viewer_sum)::numeric / nullif(sum(viewer_minutes), 0) AS average,
          coalesce(sum(viewer_minutes), 0) AS minutes_live
        FROM (
          SELECT viewer_peak AS peak, viewer_sum, viewer_minutes FROM stats_channel_hours WHERE ${hours} AND viewer_minutes > 0
          UNION ALL
          SELECT v, v, 1 FROM (
            SELECT minute, sum(viewers) AS v FROM (${minutesOf(sql`minute, viewers`, sql`viewers IS NOT NULL`)}) m GROUP BY minute
          ) m
        ) u`),
      this.chatters(channelId, dayFrom, dayTo),
      this.db.execute(sql`
        SELECT s.command_id, max(c.name) AS name, sum(s.uses) AS uses
        FROM stats_commands s LEFT JOIN chat_commands c ON c.id = s.command_id
        WHERE s.channel_id = ${channelId} AND s.day >= ${dayFrom} AND s.day <= ${dayTo}
        GROUP BY 1 ORDER BY 3 DESC, 2 LIMIT 10`),
      // Buckets where nothing changed are left out (the page shows them as 0).
      this.db.execute(sql`
        SELECT date_bin(${width}, at, 'epoch') AS at, sum(earned) AS earned, sum(spent) AS spent, sum(won) AS won,
          sum(lost) AS lost, sum(given) AS given, sum(adjusted) AS adjusted
        FROM (
          SELECT hour AS at, earned, spent, won, lost, given, adjusted FROM stats_channel_hours WHERE ${hours}
          UNION ALL
          SELECT minute, earned, spent, won, lost, given, adjusted FROM stats_points
          WHERE channel_id = ${channelId} AND minute >= ${f} AND minute < ${hf}
          UNION ALL
          SELECT minute, earned, spent, won, lost, given, adjusted FROM stats_points
          WHERE channel_id = ${channelId} AND minute >= ${ht} AND minute < ${t}
        ) u GROUP BY 1
        HAVING sum(earned) <> 0 OR sum(spent) <> 0 OR sum(won) <> 0 OR sum(lost) <> 0 OR sum(given) <> 0 OR sum(adjusted) <> 0
        ORDER BY 1`),
      this.db.execute(sql`
        SELECT id, channel_provider_id, provider, started_at, ended_at, peak_viewers FROM stats_streams
        WHERE channel_id = ${channelId} AND started_at < ${t} AND (ended_at IS NULL OR ended_at > ${f})
        ORDER BY started_at DESC LIMIT 100`),
    ]);
    type SeriesRow = {
      channel_provider_id: string;
      provider: string;
      at: string | Date;
      viewer_sum: string | null;
      viewer_minutes: string;
      peak: number | null;
      messages: string;
      follows: string;
      subs: string;
      moderation: string;
      commands: string;
    };
    const platforms = new Map<string, StatsDto['platforms'][number] & { viewerSum: number }>();
    const seriesPoints: StatsPoint[] = [];
    for (const r of rowsOf<SeriesRow>(series)) {
      const minutes = num(r.viewer_minutes);
      const point: StatsPoint = {
        at: iso(r.at),
        channel_provider_id: r.channel_provider_id,
        provider: r.provider as ChannelProviderId,
        viewers: minutes > 0 ? num(r.viewer_sum) / minutes : null,
        messages: num(r.messages),
        follows: num(r.follows),
        subs: num(r.subs),
        moderation: num(r.moderation),
        commands: num(r.commands),
      };
      seriesPoints.push(point);
      let p = platforms.get(r.channel_provider_id);
      if (!p) {
        p = {
          channel_provider_id: r.channel_provider_id,
          provider: point.provider,
          messages: 0,
          follows: 0,
          subs: 0,
          moderation: 0,
          commands: 0,
          peak_viewers: null,
          average_viewers: null,
          minutes_live: 0,
          viewerSum: 0,
        };
        platforms.set(r.channel_provider_id, p);
      }
      for (const key of COUNTS) p[key] += point[key];
      p.minutes_live += minutes;
      p.viewerSum += num(r.viewer_sum);
      if (r.peak !== null) p.peak_viewers = Math.max(p.peak_viewers ?? 0, num(r.peak));
    }
    const perPlatform = [...platforms.values()]
      .sort((a, b) => a.channel_provider_id.localeCompare(b.channel_provider_id))
      .map(({ viewerSum, ...p }) => ({ ...p, average_viewers: p.minutes_live > 0 ? viewerSum / p.minutes_live : null }));
    const viewers = rowsOf<{ peak: string | null; average: string | null; minutes_live: string }>(channelViewers)[0];
    const sum = (key: (typeof COUNTS)[number]) => perPlatform.reduce((a, p) => a + p[key], 0);
    const chatterRows = rowsOf<{ provider: string; author_id: string; display_name: string; messages: string; chatters: string }>(chatters);
    const pointsSeries = rowsOf<Record<(typeof POINTS)[number], string> & { at: string | Date }>(economy).map((r) => {
      const entry = { at: iso(r.at) } as StatsDto['points_series'][number];
      for (const key of POINTS) entry[key] = num(r[key]);
      return entry;
    });
    const pointsTotals = Object.fromEntries(POINTS.map((key) => [key, pointsSeries.reduce((a, p) => a + p[key], 0)])) as StatsPoints;
    return {
      from: f,
      to: t,
      bucket_seconds: bucket,
      series: seriesPoints,
      totals: {
        messages: sum('messages'),
        follows: sum('follows'),
        subs: sum('subs'),
        moderation: sum('moderation'),
        commands: sum('commands'),
        peak_viewers: numOrNull(viewers?.peak),
        average_viewers: numOrNull(viewers?.average),
        minutes_live: num(viewers?.minutes_live),
        unique_chatters: num(chatterRows[0]?.chatters),
      },
      platforms: perPlatform,
      top_chatters: chatterRows.map((r) => ({
        provider: r.provider as ChannelProviderId,
        provider_user_id: r.author_id,
        display_name: r.display_name,
        messages: num(r.messages),
      })),
      streams: rowsOf<StreamRow>(streams).map(toStream),
      points_series: pointsSeries,
      points_totals: pointsTotals,
      top_commands: rowsOf<{ command_id: string; name: string | null; uses: string }>(commands).map((r) => ({
        command_id: r.command_id,
        name: r.name,
        uses: num(r.uses),
      })),
    };
  }

  /**
   * Unique chatters and the top ten of whole UTC days, from the per-month rows (`stats_chatter_months`, day by day
   * cumulative): one row per chatter and month, so a day costs what a month does and 30 days read at most two rows per
   * chatter (instead of one per chatter and day). The count of chatters rides along on the top ten. A range within
   * one month needs no grouping (one row per chatter).
   */
  private chatters(channelId: string, dayFrom: string, dayTo: string) {
    const monthFrom = `${dayFrom.slice(0, 7)}-01`;
    const monthTo = `${dayTo.slice(0, 7)}-01`;
    const first = Number(dayFrom.slice(8, 10));
    const last = Number(dayTo.slice(8, 10));
    if (monthFrom === monthTo) {
      const before = first > 1 ? sql`days[${first - 1}::int]` : sql`0`;
      return this.db.execute(sql`
        SELECT provider, author_id, display_name, messages, count(*) OVER () AS chatters
        FROM (
          SELECT provider, author_id, author_name AS display_name, days[${last}::int] - ${before} AS messages
          FROM stats_chatter_months WHERE channel_id = ${channelId} AND month = ${monthFrom}::date
        ) r
        WHERE messages > 0 ORDER BY 4 DESC, 3 LIMIT 10`);
    }
    // Messages of the range in a month row: days[last day] - days[day before the first]; whole months: days[31].
    return this.db.execute(sql`
      SELECT provider, author_id, max(author_name) AS display_name, sum(n) AS messages, count(*) OVER () AS chatters
      FROM (
        SELECT provider, author_id, author_name,
          days[CASE WHEN month = ${monthTo}::date THEN ${last}::int ELSE 31 END]
            - CASE WHEN month = ${monthFrom}::date AND ${first}::int > 1 THEN days[${first - 1}::int] ELSE 0 END AS n
        FROM stats_chatter_months WHERE channel_id = ${channelId} AND month >= ${monthFrom}::date AND month <= ${monthTo}::date
      ) r
      WHERE n > 0 GROUP BY 1, 2 ORDER BY 4 DESC, 3 LIMIT 10`);
  }

  /** Streams in progress and the chat messages per minute of the last `minutes` minutes (zeros filled in). */
  async live(channelId: string, now: Date = new Date(), minutes = 30): Promise<LiveStatsDto> {
    const end = Math.floor(now.getTime() / 60_000) * 60_000;
    const start = end - (minutes - 1) * 60_000;
    const [streams, perMinute] = await Promise.all([
      this.db.execute(sql`
        SELECT id, channel_provider_id, provider, started_at, ended_at, peak_viewers FROM stats_streams
        WHERE channel_id = ${channelId} AND ended_at IS NULL ORDER BY started_at`),
      this.db.execute(sql`
        SELECT minute, sum(messages) AS messages FROM stats_minutes
        WHERE channel_id = ${channelId} AND minute >= ${new Date(start).toISOString()} GROUP BY minute`),
    ]);
    const counts = new Map(
      rowsOf<{ minute: string | Date; messages: string }>(perMinute).map((r) => [new Date(r.minute).getTime(), num(r.messages)]),
    );
    const series: LiveStatsDto['messages_per_minute'] = [];
    for (let at = start; at <= end; at += 60_000) series.push({ at: new Date(at).toISOString(), messages: counts.get(at) ?? 0 });
    return { streams: rowsOf<StreamRow>(streams).map(toStream), messages_per_minute: series };
  }
}
