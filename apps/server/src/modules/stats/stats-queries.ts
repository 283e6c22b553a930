/**
 * The stats page and the dashboard read only the rollups (`stats_minutes`, `stats_chatters`, `stats_streams`), by
 * channel and time — never the chat log — so a page costs the same for a channel with a million messages.
 */
import { sql } from 'drizzle-orm';
import type { LiveStatsDto, StatsDto, StatsPoint, StatsStream } from '@greenroom/contracts/api/stats';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';

/** Bucket widths of the series, narrowest first. */
const BUCKETS = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 86_400];
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

  async range(channelId: string, from: Date, to: Date): Promise<StatsDto> {
    const bucket = bucketSeconds(from, to);
    const f = from.toISOString();
    const t = to.toISOString();
    const inRange = sql`channel_id = ${channelId} AND minute >= ${f} AND minute < ${t}`;
    const [series, platforms, channelViewers, chatters, top, streams] = await Promise.all([
      this.db.execute(sql`
        SELECT channel_provider_id, provider,
          to_timestamp(floor(extract(epoch FROM minute) / ${bucket}) * ${bucket}) AS at,
          avg(viewers) AS viewers, sum(messages) AS messages, sum(follows) AS follows, sum(subs) AS subs,
          sum(moderation) AS moderation
        FROM stats_minutes WHERE ${inRange} GROUP BY 1, 2, 3 ORDER BY 3, 1`),
      this.db.execute(sql`
        SELECT channel_provider_id, provider, sum(messages) AS messages, sum(follows) AS follows, sum(subs) AS subs,
          sum(moderation) AS moderation, max(viewers) AS peak, avg(viewers) AS average, count(viewers) AS minutes_live
        FROM stats_minutes WHERE ${inRange} GROUP BY 1, 2 ORDER BY 1`),
      this.db.execute(sql`
        SELECT max(v) AS peak, avg(v) AS average, count(*) AS minutes_live
        FROM (SELECT minute, sum(viewers) AS v FROM stats_minutes WHERE ${inRange} AND viewers IS NOT NULL GROUP BY minute) t`),
      this.db.execute(sql`
        SELECT count(*) AS n FROM (SELECT DISTINCT provider, author_id FROM stats_chatters
        WHERE channel_id = ${channelId} AND day >= ${dayOf(from)} AND day <= ${dayOf(new Date(to.getTime() - 1))}) t`),
      this.db.execute(sql`
        SELECT provider, author_id, max(author_name) AS display_name, sum(messages) AS messages FROM stats_chatters
        WHERE channel_id = ${channelId} AND day >= ${dayOf(from)} AND day <= ${dayOf(new Date(to.getTime() - 1))}
        GROUP BY 1, 2 ORDER BY 4 DESC, 3 LIMIT 10`),
      this.db.execute(sql`
        SELECT id, channel_provider_id, provider, started_at, ended_at, peak_viewers FROM stats_streams
        WHERE channel_id = ${channelId} AND started_at < ${t} AND (ended_at IS NULL OR ended_at > ${f})
        ORDER BY started_at DESC LIMIT 100`),
    ]);
    type Sums = { messages: string; follows: string; subs: string; moderation: string };
    const perPlatform = rowsOf<
      Sums & { channel_provider_id: string; provider: string; peak: number | null; average: string | null; minutes_live: string }
    >(platforms).map((r) => ({
      channel_provider_id: r.channel_provider_id,
      provider: r.provider as ChannelProviderId,
      messages: num(r.messages),
      follows: num(r.follows),
      subs: num(r.subs),
      moderation: num(r.moderation),
      peak_viewers: numOrNull(r.peak),
      average_viewers: numOrNull(r.average),
      minutes_live: num(r.minutes_live),
    }));
    const viewers = rowsOf<{ peak: string | null; average: string | null; minutes_live: string }>(channelViewers)[0];
    const sum = (key: 'messages' | 'follows' | 'subs' | 'moderation') => perPlatform.reduce((a, p) => a + p[key], 0);
    return {
      from: f,
      to: t,
      bucket_seconds: bucket,
      series: rowsOf<Sums & { channel_provider_id: string; provider: string; at: string | Date; viewers: string | null }>(series).map(
        (r): StatsPoint => ({
          at: iso(r.at),
          channel_provider_id: r.channel_provider_id,
          provider: r.provider as ChannelProviderId,
          viewers: numOrNull(r.viewers),
          messages: num(r.messages),
          follows: num(r.follows),
          subs: num(r.subs),
          moderation: num(r.moderation),
        }),
      ),
      totals: {
        messages: sum('messages'),
        follows: sum('follows'),
        subs: sum('subs'),
        moderation: sum('moderation'),
        peak_viewers: numOrNull(viewers?.peak),
        average_viewers: numOrNull(viewers?.average),
        minutes_live: num(viewers?.minutes_live),
        unique_chatters: num(rowsOf<{ n: string }>(chatters)[0]?.n),
      },
      platforms: perPlatform,
      top_chatters: rowsOf<{ provider: string; author_id: string; display_name: string; messages: string }>(top).map((r) => ({
        provider: r.provider as ChannelProviderId,
        provider_user_id: r.author_id,
        display_name: r.display_name,
        messages: num(r.messages),
      })),
      streams: rowsOf<StreamRow>(streams).map(toStream),
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
