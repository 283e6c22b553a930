/** A small fixed track catalogue with Spotify-shaped base62 ids (stable across runs). */
import { createHash } from 'node:crypto';

export interface CatalogueTrack {
  id: string;
  name: string;
  artist: string;
  album: string;
  durationMs: number;
  releaseDate: string;
}

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function spotifyId(seed: string): string {
  const bytes = createHash('sha256').update(seed).digest();
  let id = '';
  for (let i = 0; i < 22; i++) id += base62[bytes[i]! % 62];
  return id;
}

const raw: [string, string, string, number][] = [
  ['Neon Skyline', 'The Midnight Drivers', 'Night Transit', 214_000],
  ['Lo-Fi Sunrise', 'Coffee Tape', 'Morning Loops', 168_000],
  ['Pixel Hearts', '8-Bit Orchestra', 'Save Point', 192_000],
  ['Boss Fight Theme', '8-Bit Orchestra', 'Save Point', 241_000],
  ['Chill Stream Beats', 'Coffee Tape', 'Morning Loops', 187_000],
  ['Speedrun', 'Turbo Kids', 'Any Percent', 156_000],
  ['Raid Train', 'Turbo Kids', 'Any Percent', 203_000],
  ['Ocean Drive at Dusk', 'Sunset Arcade', 'Coastline', 228_000],
  ['Late Night Lobby', 'Sunset Arcade', 'Coastline', 199_000],
  ['Victory Royale', 'Drop Zone', 'Storm Circle', 174_000],
  ['Respawn', 'Drop Zone', 'Storm Circle', 183_000],
  ['Cozy Rain', 'Window Seat', 'Quiet Hours', 245_000],
  ['Snowfall Study', 'Window Seat', 'Quiet Hours', 232_000],
  ['Hype Train Departure', 'Emote Only', 'Sub Goals', 161_000],
  ['Clip That', 'Emote Only', 'Sub Goals', 149_000],
  ['Golden Kappa', 'The Moderators', 'Timeout', 207_000],
  ['Banhammer Blues', 'The Moderators', 'Timeout', 219_000],
  ['Midnight Queue', 'Request Line', 'Song Requests', 196_000],
  ['First Time Chatter', 'Request Line', 'Song Requests', 178_000],
  ['Outro Credits', 'Fade Out', 'Ending Screen', 262_000],
];

export const spotifyCatalogue: readonly CatalogueTrack[] = raw.map(([name, artist, album, durationMs], i) => ({
  id: spotifyId(`track:${name}`),
  name,
  artist,
  album,
  durationMs,
  releaseDate: `20${String(15 + (i % 10)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
}));
