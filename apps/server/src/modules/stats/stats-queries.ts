/**
 * The stats page and the dashboard read only the rollups (`stats_minutes`, `stats_chatters`, `stats_streams`), by
 * channel and time — never the chat log — so a page costs the same for a channel with a million messages.
 */
import { sql } from 'drizzle-orm';
import type { LiveStatsDto, StatsDto, StatsPoint, StatsPoints, StatsStream } from '@greenroom/contracts/api/stats';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';

/** Bucket widths of the series, narrowest first. */
const BUCKETS = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 86_400];
/** The per-connection counts of the series, summed into each platform's totals. */
const COUNTS = ['messages', 'follows', 'subs', 'moderation', 'commands'] as const;
/** The points economy's figures. */
const POINTS = ['earned', 'spent', 'won', 'lost', 'given', 'adjusted'] as const;
/** At most this many points per platform in a series. */
const MAX_POINTS = 400;

/** The narrowest bucket that keeps a range within MAX_POINTS points. */
export function bucketSeconds(from: Date, to: Date): number {
  const seconds = (to.getTime() - from.getTime()) / 1000;
  return BUCKETS.find((b) => seconds / b <= MAX_POINTS) ?? BUCKETS[BUCKETS.length - 1]!;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
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
   * Five indexed range reads of the rollups: the per-connection series (the platform totals are summed from it),
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
    const inRange = sql`channel_id = ${channelId} AND minute >= ${f} AND minute < ${t}`;
    const [series, channelViewers, chatters, commands, economy, streams] = await Promise.all([
      this.db.execute(sql`
        SELECT channel_provider_id, provider, date_bin(${width}, minute, 'epoch') AS at,
          sum(viewers) AS viewer_sum, count(viewers) AS viewer_minutes, max(viewers) AS peak,
          sum(messages) AS messages, sum(follows) AS follows, sum(subs) AS subs, sum(moderation) AS moderation,
          sum(commands) AS commands
        FROM stats_minutes WHERE ${inRange} GROUP BY 1, 2, 3 ORDER BY 3, 1`),
      this.db.execute(sql`
        SELECT max(v) AS peak, avg(v) AS average, count(*) AS minutes_live
        FROM (SELECT minute, sum(viewers) AS v FROM stats_minutes WHERE ${inRange} AND viewers IS NOT NULL GROUP BY minute) t`),
      // One aggregate over the chatters of the range: the count of groups rides along on the top ten.
      this.db.execute(sql`
        SELECT provider, author_id, max(author_name) AS display_name, sum(messages) AS messages, count(*) OVER () AS chatters
        FROM stats_chatters WHERE channel_id = ${channelId} AND day >= ${dayFrom} AND day <= ${dayTo}
        GROUP BY 1, 2 ORDER BY 4 DESC, 3 LIMIT 10`),
      this.db.execute(sql`
        SELECT s.command_id, max(c.name) AS name, sum(s.uses) AS uses
        FROM stats_commands s LEFT JOIN chat_commands c ON c.id = s.command_id
        WHERE s.channel_id = ${channelId} AND s.day >= ${dayFrom} AND s.day <= ${dayTo}
        GROUP BY 1 ORDER BY 3 DESC, 2 LIMIT 10`),
      this.db.execute(sql`
        SELECT date_bin(${width}, minute, 'epoch') AS at, sum(earned) AS earned, sum(spent) AS spent, sum(won) AS won,
          sum(lost) AS lost, sum(given) AS given, sum(adjusted) AS adjusted
        FROM stats_points WHERE ${inRange} GROUP BY 1 ORDER BY 1`),
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
