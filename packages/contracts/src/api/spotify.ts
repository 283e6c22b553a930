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
