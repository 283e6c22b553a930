import type { NowPlaying, SpotifyTrackDto } from '@greenroom/contracts/api/spotify';
import type { NowPlayingSettings } from '@greenroom/contracts/api/widgets';

/** What a now-playing widget draws: a track (playing or paused), the idle text, or nothing at all. */
export type NowPlayingView =
  { kind: 'track'; track: SpotifyTrackDto; playing: boolean } | { kind: 'idle'; text: string } | { kind: 'nothing' };

/**
 * The widget never shows a setup problem on stream: without a Spotify connection (or one that needs reconnecting)
 * it draws nothing, and the editor says why. Nothing playing shows the idle text, or nothing when it is empty.
 */
export function nowPlayingView(
  now: NowPlaying | null,
  settings: Pick<NowPlayingSettings, 'hide_when_paused' | 'idle_text'>,
): NowPlayingView {
  if (!now || now.state === 'not_connected' || now.state === 'reconnect') return { kind: 'nothing' };
  const idle = (): NowPlayingView => (settings.idle_text ? { kind: 'idle', text: settings.idle_text } : { kind: 'nothing' });
  if (now.state === 'idle') return idle();
  if (!now.is_playing && settings.hide_when_paused) return idle();
  return { kind: 'track', track: now.track, playing: now.is_playing };
}

/**
 * Where the track is at `localNow`: Spotify's progress as of `at` (server time), moved on by the time since while it
 * plays. `clockOffset` is the server's clock minus this browser's (from the state's `server_time`).
 */
export function progressAt(now: NowPlaying | null, localNow: number, clockOffset: number): number {
  if (!now || now.state !== 'playing') return 0;
  if (!now.is_playing) return Math.min(now.progress_ms, now.track.duration_ms);
  const elapsed = Math.max(0, localNow + clockOffset - Date.parse(now.at));
  return Math.min(now.track.duration_ms, now.progress_ms + elapsed);
}

/** A position in a track as music players write it: m:ss (h:mm:ss from an hour on). */
export function trackTime(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
