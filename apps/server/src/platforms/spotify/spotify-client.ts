/**
 * A small typed client for the Spotify Web API (`spotify.apiUrl`) used by song requests: now
 * playing, the queue, adding to it, and track search. Calls run as the streamer's TokenSource; a
 * 401 refreshes once and retries, then asks for reconnecting. Player errors become clear 422s.
 */
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import type { TokenSource } from '../port';
import { readJsonBody, sendAuthorized } from '../authorized-call';
import { PlatformError, reconnectNeeded, retryAfterSeconds, unreachable, unreadable, type PlatformFailure } from '../platform-error';

export interface SpotifyClientOptions {
  apiUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const trackSchema = z.object({
  id: z.string(),
  uri: z.string(),
  name: z.string(),
  duration_ms: z.number(),
  explicit: z.boolean().optional(),
  artists: z.array(z.object({ name: z.string() })).default([]),
  album: z.object({ name: z.string(), images: z.array(z.object({ url: z.string() })).default([]) }).optional(),
  external_urls: z.object({ spotify: z.string().optional() }).optional(),
});

export interface SpotifyTrack {
  id: string;
  uri: string;
  name: string;
  artists: string[];
  album: string | null;
  durationMs: number;
  explicit: boolean;
  url: string | null;
  imageUrl: string | null;
}

export interface SpotifyNowPlaying {
  track: SpotifyTrack;
  progressMs: number;
  isPlaying: boolean;
}

function toTrack(t: z.infer<typeof trackSchema>): SpotifyTrack {
  return {
    id: t.id,
    uri: t.uri,
    name: t.name,
    artists: t.artists.map((a) => a.name),
    album: t.album?.name ?? null,
    durationMs: t.duration_ms,
    explicit: t.explicit ?? false,
    url: t.external_urls?.spotify ?? null,
    imageUrl: t.album?.images[0]?.url ?? null,
  };
}

/** A Spotify track URI from a URI, an open.spotify.com link or a bare id; null when it is none of these. */
export function spotifyTrackUri(input: string): string | null {
  const value = input.trim();
  const match =
    /^spotify:track:([0-9A-Za-z]{22})$/.exec(value) ??
    /open\.spotify\.com\/(?:intl-[a-z-]+\/)?track\/([0-9A-Za-z]{22})/.exec(value) ??
    /^([0-9A-Za-z]{22})$/.exec(value);
  return match?.[1] ? `spotify:track:${match[1]}` : null;
}

function spotifyError(body: unknown): { message: string; reason: string } {
  const error =
    body && typeof body === 'object' && 'error' in body ? (body.error as { message?: unknown; reason?: unknown } | string) : null;
  if (typeof error === 'string') return { message: error, reason: '' };
  return {
    message: typeof error?.message === 'string' ? error.message : '',
    reason: typeof error?.reason === 'string' ? error.reason : '',
  };
}

/** Spotify's error parser: `{ error: { status, message, reason } }` bodies to the one PlatformError (see platform-error.ts). */
export function parseSpotifyError(failure: PlatformFailure, what: string): PlatformError {
  const { status } = failure;
  const { message, reason } = spotifyError(failure.body);
  const options = { reason: reason || null };
  if (status === 401) return reconnectNeeded('spotify', 'the token was refused');
  if (reason === 'PREMIUM_REQUIRED')
    return new PlatformError('refused', 'spotify', 'Adding songs to the queue needs Spotify Premium on the connected account.', options);
  if (reason === 'NO_ACTIVE_DEVICE')
    return new PlatformError(
      'refused',
      'spotify',
      'Spotify has no active device: start playing music in Spotify, then try again.',
      options,
    );
  if (status === 403 && /scope/i.test(message))
    return reconnectNeeded('spotify', 'missing scope, reconnect Spotify to grant playback access', 'insufficient_scope');
  if (status === 403)
    return new PlatformError('refused', 'spotify', `Spotify did not allow Greenroom to ${what}: ${message || 'forbidden'}.`, options);
  if (status === 404) return new PlatformError('not_found', 'spotify', `Spotify could not ${what}: ${message || 'not found'}.`, options);
  if (status === 429)
    return new PlatformError('rate_limited', 'spotify', `Spotify is rate limiting Greenroom, wait a moment and try again to ${what}.`, {
      ...options,
      retryAfterSeconds: failure.retryAfterSeconds ?? null,
    });
  if (status >= 500) return new PlatformError('temporary', 'spotify', `Spotify failed to ${what} (HTTP ${status}), try again.`, options);
  return new PlatformError('refused', 'spotify', `Spotify refused to ${what}: ${message || `HTTP ${status}`}.`, options);
}

type Method = 'GET' | 'POST';

export class SpotifyClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: SpotifyClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  private async send(method: Method, path: string, query: Record<string, string>, accessToken: string, what: string): Promise<Response> {
    const url = new URL(`${this.options.apiUrl.replace(/\/$/, '')}/${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    try {
      return await this.fetch(url, {
        method,
        headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (cause) {
      throw unreachable('spotify', what, cause);
    }
  }

  /** One call; returns the JSON body, or null for 204 / an empty body. */
  private async call(token: TokenSource, method: Method, path: string, query: Record<string, string>, what: string): Promise<unknown> {
    const response = await sendAuthorized(token, (access) => this.send(method, path, query, access, what));
    const json = await readJsonBody(response);
    if (!response.ok)
      throw parseSpotifyError({ status: response.status, body: json, retryAfterSeconds: retryAfterSeconds(response.headers) }, what);
    return json;
  }

  private parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
    const result = schema.safeParse(body);
    if (!result.success) throw unreadable('spotify', what);
    return result.data;
  }

  /** What is playing now, or null when nothing is (no active device, or an episode/ad). */
  async nowPlaying(token: TokenSource): Promise<SpotifyNowPlaying | null> {
    const what = 'read what is playing';
    const body = await this.call(token, 'GET', 'me/player/currently-playing', {}, what);
    if (body === null) return null;
    const parsed = this.parse(
      z.object({
        item: trackSchema.nullable().optional().catch(null),
        progress_ms: z.number().nullable().optional(),
        is_playing: z.boolean(),
      }),
      body,
      what,
    );
    if (!parsed.item) return null;
    return { track: toTrack(parsed.item), progressMs: parsed.progress_ms ?? 0, isPlaying: parsed.is_playing };
  }

  async queue(token: TokenSource): Promise<{ current: SpotifyTrack | null; queue: SpotifyTrack[] }> {
    const what = 'read the queue';
    const body = await this.call(token, 'GET', 'me/player/queue', {}, what);
    const parsed = this.parse(
      z.object({ currently_playing: trackSchema.nullable().optional().catch(null), queue: z.array(z.unknown()).default([]) }),
      body,
      what,
    );
    const queue = parsed.queue.flatMap((item) => {
      const t = trackSchema.safeParse(item);
      return t.success ? [toTrack(t.data)] : [];
    });
    return { current: parsed.currently_playing ? toTrack(parsed.currently_playing) : null, queue };
  }

  /** Adds a track (URI, link or id) to the queue of the active device. Premium only. */
  async addToQueue(token: TokenSource, track: string, deviceId?: string): Promise<void> {
    const uri = spotifyTrackUri(track);
    if (!uri) throw new AppError(400, 'validation_error', 'That is not a Spotify track link or URI.');
    await this.call(token, 'POST', 'me/player/queue', { uri, ...(deviceId ? { device_id: deviceId } : {}) }, 'add the song to the queue');
  }

  /** Skips the playing track on the active device (Premium only). */
  async skipToNext(token: TokenSource): Promise<void> {
    await this.call(token, 'POST', 'me/player/next', {}, 'skip to the next song');
  }

  async searchTracks(token: TokenSource, query: string, limit = 5): Promise<SpotifyTrack[]> {
    const q = query.trim();
    if (q === '') return [];
    const what = 'search tracks';
    const body = await this.call(token, 'GET', 'search', { q, type: 'track', limit: String(Math.min(50, Math.max(1, limit))) }, what);
    return this.parse(z.object({ tracks: z.object({ items: z.array(trackSchema) }) }), body, what).tracks.items.map(toTrack);
  }

  async track(token: TokenSource, id: string): Promise<SpotifyTrack> {
    const what = 'read the track';
    return toTrack(this.parse(trackSchema, await this.call(token, 'GET', `tracks/${encodeURIComponent(id)}`, {}, what), what));
  }
}
