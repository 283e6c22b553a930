/**
 * What the channel's Spotify plays, for `!song`, the now-playing widget and the bus.
 *
 *  - `NowPlayingService.get(channelId)`: asks Spotify at most once per `ttlMs` (5 s) per channel, one call in
 *    flight at a time (chat spamming `!song` and several widget pages cost one call). Never throws: a missing
 *    connection, a refused authorization or a Spotify failure are states or the last answer.
 *  - `NowPlayingJob`: every `everyMs` (15 s), for channels with a Spotify connection and a live streaming
 *    platform, asks again and publishes `spotify.now_playing` on the channel's topic when the track or its
 *    play/pause state changed. Offline channels cost nothing.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { NowPlaying, SpotifyTrackDto } from '@greenroom/contracts/api/spotify';
import { channelTopic } from '@greenroom/contracts/bus';
import { streamProviderIds } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders } from '../../db/schema';
import type { EventBus } from '../../lib/event-bus';
import { isReconnectNeeded } from '../../platforms/platform-error';
import type { TokenSource } from '../../platforms/port';
import type { SpotifyClient, SpotifyTrack } from '../../platforms/spotify/spotify-client';
import type { TokenSources } from '../../platforms/tokens';

export function toTrackDto(t: SpotifyTrack): SpotifyTrackDto {
  return {
    id: t.id,
    uri: t.uri,
    name: t.name,
    artists: t.artists,
    album: t.album,
    duration_ms: t.durationMs,
    url: t.url,
    image_url: t.imageUrl,
  };
}

export interface SpotifyAccessDeps {
  db: Db;
  tokens: Pick<TokenSources, 'get'>;
}

/** The channel's Spotify connection and its credential, or why there is none. */
export async function spotifyTokenOf(
  deps: SpotifyAccessDeps,
  channelId: string,
): Promise<{ token: TokenSource; channelProviderId: string } | 'not_connected' | 'reconnect'> {
  const [row] = await deps.db
    .select({ id: channelProviders.id, scopeNeeded: channelProviders.scopeNeeded })
    .from(channelProviders)
    .where(and(eq(channelProviders.channelId, channelId), eq(channelProviders.provider, 'spotify')))
    .limit(1);
  if (!row) return 'not_connected';
  if (row.scopeNeeded) return 'reconnect';
  const token = await deps.tokens.get({ kind: 'broadcaster', channelProviderId: row.id });
  return token ? { token, channelProviderId: row.id } : 'reconnect';
}

export interface NowPlayingServiceDeps extends SpotifyAccessDeps {
  client: Pick<SpotifyClient, 'nowPlaying'>;
  ttlMs?: number;
  now?: () => number;
  log?: { warn(obj: object, msg?: string): void };
}

export class NowPlayingService {
  private readonly cache = new Map<string, { at: number; value: Promise<NowPlaying> }>();
  private readonly ttl: number;
  private readonly now: () => number;

  constructor(private readonly deps: NowPlayingServiceDeps) {
    this.ttl = deps.ttlMs ?? 5_000;
    this.now = deps.now ?? Date.now;
  }

  get(channelId: string): Promise<NowPlaying> {
    const now = this.now();
    const cached = this.cache.get(channelId);
    if (cached && now - cached.at < this.ttl) return cached.value;
    const previous = cached?.value;
    const value = this.ask(channelId, previous);
    this.cache.set(channelId, { at: now, value });
    return value;
  }

  /** Forgets a channel (its Spotify connection changed). */
  forget(channelId: string): void {
    this.cache.delete(channelId);
  }

  private async ask(channelId: string, previous: Promise<NowPlaying> | undefined): Promise<NowPlaying> {
    const at = new Date(this.now()).toISOString();
    const access = await spotifyTokenOf(this.deps, channelId);
    if (access === 'not_connected' || access === 'reconnect') return { state: access };
    try {
      const playing = await this.deps.client.nowPlaying(access.token);
      if (!playing) return { state: 'idle', at };
      return { state: 'playing', track: toTrackDto(playing.track), is_playing: playing.isPlaying, progress_ms: playing.progressMs, at };
    } catch (error) {
      if (isReconnectNeeded(error)) return { state: 'reconnect' };
      this.deps.log?.warn({ err: error, channelId }, 'spotify now playing failed');
      // A passing failure: keep saying what was known (or nothing).
      return previous ? previous : { state: 'idle', at };
    }
  }
}

/** The fields whose change is news: the track and whether it plays. */
function signature(n: NowPlaying): string {
  return n.state === 'playing' ? `playing:${n.track.id}:${n.is_playing}` : n.state;
}

export class NowPlayingJob {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private readonly last = new Map<string, string>();

  constructor(
    private readonly deps: {
      db: Db;
      bus: Pick<EventBus, 'publish'>;
      nowPlaying: NowPlayingService;
      everyMs?: number;
      log?: { warn(obj: object, msg?: string): void };
    },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.deps.everyMs ?? 15_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One round: live channels with Spotify, four at a time. Returns how many events were published. */
  async tick(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let published = 0;
    try {
      const live = alias(channelProviders, 'live_rows');
      const rows = await this.deps.db
        .selectDistinct({ channelId: channelProviders.channelId })
        .from(channelProviders)
        .innerJoin(
          live,
          and(eq(live.channelId, channelProviders.channelId), inArray(live.provider, [...streamProviderIds]), eq(live.isLive, true)),
        )
        .where(eq(channelProviders.provider, 'spotify'));
      const channels = rows.map((r) => r.channelId);
      const seen = new Set(channels);
      for (const id of this.last.keys()) if (!seen.has(id)) this.last.delete(id);
      for (let i = 0; i < channels.length; i += 4) {
        const batch = channels.slice(i, i + 4);
        const results = await Promise.all(batch.map((id) => this.deps.nowPlaying.get(id)));
        batch.forEach((channelId, j) => {
          const now = results[j]!;
          const sig = signature(now);
          if (this.last.get(channelId) === sig) return;
          this.last.set(channelId, sig);
          this.deps.bus.publish(channelTopic(channelId), {
            type: 'spotify.now_playing',
            data: { channel_id: channelId, now_playing: now },
          });
          published += 1;
        });
      }
    } catch (error) {
      this.deps.log?.warn({ err: error }, 'spotify now playing round failed');
    } finally {
      this.running = false;
    }
    return published;
  }
}
