import { z } from 'zod';

/** A Spotify track as Greenroom shows it (chat replies, the now-playing widget, the request queue). */
export const spotifyTrackSchema = z.object({
  id: z.string(),
  uri: z.string(),
  name: z.string(),
  artists: z.array(z.string()),
  album: z.string().nullable(),
  duration_ms: z.number().int(),
  url: z.string().nullable(),
  image_url: z.string().nullable(),
});
export type SpotifyTrackDto = z.infer<typeof spotifyTrackSchema>;

/**
 * What the channel's Spotify plays: `playing` (a track, paused or not), `idle` (nothing, or no active device),
 * `not_connected` (no Spotify connection), `reconnect` (Spotify refused the stored authorization).
 */
export const nowPlayingSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('playing'),
    track: spotifyTrackSchema,
    is_playing: z.boolean(),
    progress_ms: z.number().int(),
    /** When Spotify was asked (ISO): progress is as of then. */
    at: z.string(),
  }),
  z.object({ state: z.literal('idle'), at: z.string() }),
  z.object({ state: z.literal('not_connected') }),
  z.object({ state: z.literal('reconnect') }),
]);
export type NowPlaying = z.infer<typeof nowPlayingSchema>;

/** Bus event (channel topic) when the track or its play/pause state changes while the channel is live. */
export const spotifyNowPlayingEventSchema = z.object({
  type: z.literal('spotify.now_playing'),
  data: z.object({ channel_id: z.string(), now_playing: nowPlayingSchema }),
});

// Song requests -----------------------------------------------------------------------------------

export const SONG_REQUEST_BLOCKED_MAX = 500;
/** The shortest and longest length limit a channel may set (seconds). */
export const SONG_REQUEST_LENGTH_MIN = 30;
export const SONG_REQUEST_LENGTH_MAX = 3_600;
export const SONG_REQUEST_COST_MAX = 1_000_000_000;

/** A track the channel refuses (`!sr` answers that it is blocked). */
export const blockedTrackSchema = z.object({
  uri: z.string().regex(/^spotify:track:[0-9A-Za-z]{22}$/, 'A Spotify track URI'),
  name: z.string().max(300),
  artists: z.array(z.string().max(200)).max(20),
});
export type BlockedTrack = z.infer<typeof blockedTrackSchema>;

export const songRequestSettingsSchema = z.object({
  /** `!sr` takes requests. */
  enabled: z.boolean().default(false),
  /** The lowest audience level that may request (Public, Sub, VIP, Mod, Owner). */
  level: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(7), z.literal(500)]).default(0),
  /** Points a request costs (taken when it is accepted, given back when it is refused or removed before it plays). */
  cost: z
    .number({ error: 'Enter a number' })
    .int('A whole number')
    .min(0, 'At least 0')
    .max(SONG_REQUEST_COST_MAX, 'Too many points')
    .default(0),
  /** The longest track accepted. */
  max_duration_seconds: z
    .number({ error: 'Enter a number of seconds' })
    .int('Whole seconds')
    .min(SONG_REQUEST_LENGTH_MIN, `At least ${SONG_REQUEST_LENGTH_MIN} seconds`)
    .max(SONG_REQUEST_LENGTH_MAX, `At most ${SONG_REQUEST_LENGTH_MAX} seconds (one hour)`)
    .default(600),
  /** Requests one viewer may have waiting at once; 0: no limit. */
  max_per_user: z.number({ error: 'Enter a number' }).int('A whole number').min(0, 'At least 0').max(100, 'At most 100').default(2),
  blocked: z.array(blockedTrackSchema).max(SONG_REQUEST_BLOCKED_MAX, `At most ${SONG_REQUEST_BLOCKED_MAX} blocked tracks`).default([]),
});
export type SongRequestSettings = z.infer<typeof songRequestSettingsSchema>;
export type SongRequestSettingsBody = z.input<typeof songRequestSettingsSchema>;
export const defaultSongRequestSettings: SongRequestSettings = songRequestSettingsSchema.parse({});

/**
 * A request's life: `pending` (paid, Spotify not answered yet), `queued` (in the Spotify queue), `playing`, then
 * `played`, `skipped` (skipped while it played) or `removed` (by staff or the viewer before it played; refunded);
 * `refused` (Spotify refused to queue it; refunded).
 */
export const songRequestStatusSchema = z.enum(['pending', 'queued', 'playing', 'played', 'skipped', 'removed', 'refused']);
export type SongRequestStatus = z.infer<typeof songRequestStatusSchema>;
export const songRequestStatusLabels: Record<SongRequestStatus, string> = {
  pending: 'Sending',
  queued: 'Queued',
  playing: 'Playing',
  played: 'Played',
  skipped: 'Skipped',
  removed: 'Removed',
  refused: 'Refused',
};

export const songRequestSchema = z.object({
  id: z.string(),
  provider: z.string(),
  provider_user_id: z.string(),
  display_name: z.string(),
  track: spotifyTrackSchema,
  cost: z.number().int(),
  status: songRequestStatusSchema,
  /** Why it was refused or removed, in words. */
  reason: z.string().nullable(),
  requested_at: z.string(),
  updated_at: z.string(),
});
export type SongRequest = z.infer<typeof songRequestSchema>;

/** The request queue page: what waits or plays (oldest first) and the last finished ones (newest first). */
export const songRequestListSchema = z.object({
  active: z.array(songRequestSchema),
  recent: z.array(songRequestSchema),
});
export type SongRequestList = z.infer<typeof songRequestListSchema>;

export const songRequestParamsSchema = z.object({ channelId: z.string().min(1).max(64), requestId: z.string().min(1).max(64) });

/** Bus event (channel topic): a request was made or changed state (the request queue page). */
export const songRequestEventSchema = z.object({
  type: z.literal('spotify.request'),
  data: z.object({ channel_id: z.string(), request: songRequestSchema }),
});

export const songRequestSocketMessageSchema = z.discriminatedUnion('type', [songRequestEventSchema, z.object({ type: z.literal('pong') })]);
