/**
 * The public watch page's data: a channel found by one platform's channel name, every platform it streams to with
 * its live state, title and category, and its latest stream. Nothing here needs a sign-in, so nothing private
 * leaves: no Greenroom row ids but the channel's (its public chat is read by it), no tokens, no staff.
 *
 * Live state and viewers come from the connection rows (the connection manager keeps them current); titles and
 * categories are asked of the platforms through the stream-info service and kept a minute per connection, so a
 * busy watch page costs the platforms one call per connection per minute, not one per viewer.
 */
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { WatchChannel, WatchPlatform } from '@greenroom/contracts/api/watch';
import { providers, streamProviderIds, type StreamProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders, channels, statsStreams } from '../../db/schema';
import type { StreamInfoService } from '../stream-info';

export interface WatchServiceDeps {
  db: Db;
  streamInfo: Pick<StreamInfoService, 'get'>;
  /** How long a title and category are kept per connection (ms, default 60 s). */
  infoTtlMs?: number;
  now?: () => number;
}

interface CachedInfo {
  at: number;
  value: Promise<{ title: string | null; category: string | null }>;
}

const CACHE_MAX = 10_000;

export class WatchService {
  private readonly info = new Map<string, CachedInfo>();
  private readonly ttl: number;
  private readonly now: () => number;

  constructor(private readonly deps: WatchServiceDeps) {
    this.ttl = deps.infoTtlMs ?? 60_000;
    this.now = deps.now ?? Date.now;
  }

  /** The channel streaming as `name` on `provider` (any case), or null. Two channels on one account: the older. */
  async find(provider: StreamProviderId, name: string): Promise<WatchChannel | null> {
    const { db } = this.deps;
    const [hit] = await db
      .select({ channelId: channelProviders.channelId, displayName: channels.displayName })
      .from(channelProviders)
      .innerJoin(channels, eq(channels.id, channelProviders.channelId))
      .where(and(eq(channelProviders.provider, provider), sql`lower(${channelProviders.providerChannelName}) = lower(${name})`))
      .orderBy(asc(channelProviders.createdAt))
      .limit(1);
    if (!hit) return null;

    const [rows, open, [last]] = await Promise.all([
      db
        .select({
          id: channelProviders.id,
          provider: channelProviders.provider,
          name: channelProviders.providerChannelName,
          providerChannelId: channelProviders.providerChannelId,
          isLive: channelProviders.isLive,
          viewers: channelProviders.viewerCount,
          liveStreamId: channelProviders.liveStreamId,
        })
        .from(channelProviders)
        .where(and(eq(channelProviders.channelId, hit.channelId), inArray(channelProviders.provider, [...streamProviderIds])))
        .orderBy(asc(channelProviders.createdAt)),
      db
        .select({ channelProviderId: statsStreams.channelProviderId, startedAt: statsStreams.startedAt })
        .from(statsStreams)
        .where(and(eq(statsStreams.channelId, hit.channelId), isNull(statsStreams.endedAt))),
      db
        .select({
          provider: statsStreams.provider,
          startedAt: statsStreams.startedAt,
          endedAt: statsStreams.endedAt,
          peakViewers: statsStreams.peakViewers,
        })
        .from(statsStreams)
        .where(eq(statsStreams.channelId, hit.channelId))
        .orderBy(desc(statsStreams.startedAt))
        .limit(1),
    ]);
    const since = new Map(open.map((o) => [o.channelProviderId, o.startedAt]));

    const platforms: WatchPlatform[] = await Promise.all(
      rows.map(async (row) => {
        const provider = row.provider as StreamProviderId;
        const { title, category } = await this.titleOf(hit.channelId, row.id, provider);
        return {
          provider,
          provider_channel_name: row.name,
          provider_channel_id: row.providerChannelId,
          is_live: row.isLive,
          viewer_count: row.isLive ? row.viewers : null,
          live_stream_id: row.liveStreamId,
          title,
          category,
          live_since: row.isLive ? (since.get(row.id)?.toISOString() ?? null) : null,
        };
      }),
    );
    const wanted = name.toLocaleLowerCase();
    const index = platforms.findIndex((p) => p.provider === provider && p.provider_channel_name.toLocaleLowerCase() === wanted);
    const platform = platforms[index]!;
    return {
      channel_id: hit.channelId,
      display_name: hit.displayName,
      platform,
      others: platforms.filter((_, i) => i !== index),
      last_stream: last
        ? {
            provider: last.provider as StreamProviderId,
            started_at: last.startedAt.toISOString(),
            ended_at: last.endedAt?.toISOString() ?? null,
            peak_viewers: last.peakViewers,
          }
        : null,
    };
  }

  /** Title and category of a connection, kept `infoTtlMs`; a platform that fails answers nulls (the page still works). */
  private titleOf(channelId: string, channelProviderId: string, provider: StreamProviderId) {
    if (!providers[provider].changeTitle && !providers[provider].changeCategory) {
      return Promise.resolve({ title: null, category: null });
    }
    const now = this.now();
    const cached = this.info.get(channelProviderId);
    if (cached && now - cached.at < this.ttl) return cached.value;
    const value = this.deps.streamInfo
      .get({ channelId, channelProviderId })
      .then((info) => ({ title: info.title || null, category: info.category?.name ?? null }))
      .catch(() => ({ title: null, category: null }));
    this.info.delete(channelProviderId);
    if (this.info.size >= CACHE_MAX) this.info.delete(this.info.keys().next().value!);
    this.info.set(channelProviderId, { at: now, value });
    return value;
  }
}
