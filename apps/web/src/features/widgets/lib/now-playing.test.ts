import { describe, expect, it } from 'vitest';
import type { NowPlaying } from '@greenroom/contracts/api/spotify';
import { nowPlayingView, progressAt, trackTime } from './now-playing';

const track = {
  id: 't1',
  uri: 'spotify:track:t1',
  name: 'Neon Skyline',
  artists: ['The Midnight Drivers'],
  album: 'Night Transit',
  duration_ms: 214_000,
  url: null,
  image_url: null,
};
const at = '2026-01-01T12:00:00.000Z';
const playing: NowPlaying = { state: 'playing', track, is_playing: true, progress_ms: 30_000, at };
const paused: NowPlaying = { ...playing, is_playing: false };
const shown = { hide_when_paused: false, idle_text: '' };

describe('nowPlayingView', () => {
  it('shows the track, playing or paused', () => {
    expect(nowPlayingView(playing, shown)).toEqual({ kind: 'track', track, playing: true });
    expect(nowPlayingView(paused, shown)).toEqual({ kind: 'track', track, playing: false });
  });

  it('never shows a missing or broken Spotify connection on stream', () => {
    for (const now of [null, { state: 'not_connected' }, { state: 'reconnect' }] as const)
      expect(nowPlayingView(now, { hide_when_paused: false, idle_text: 'Nothing playing' })).toEqual({ kind: 'nothing' });
  });

  it('shows the idle text when nothing plays (or a paused track is hidden), nothing when it is empty', () => {
    const idle: NowPlaying = { state: 'idle', at };
    expect(nowPlayingView(idle, shown)).toEqual({ kind: 'nothing' });
    expect(nowPlayingView(idle, { ...shown, idle_text: 'Music off' })).toEqual({ kind: 'idle', text: 'Music off' });
    expect(nowPlayingView(paused, { hide_when_paused: true, idle_text: '' })).toEqual({ kind: 'nothing' });
    expect(nowPlayingView(paused, { hide_when_paused: true, idle_text: 'Paused' })).toEqual({ kind: 'idle', text: 'Paused' });
    expect(nowPlayingView(playing, { hide_when_paused: true, idle_text: '' }).kind).toBe('track');
  });
});

describe('progressAt', () => {
  const t0 = Date.parse(at);
  it('moves on while playing, on the server clock, and stops at the end of the track', () => {
    expect(progressAt(playing, t0 + 5_000, 0)).toBe(35_000);
    // This browser's clock is 2 s behind the server's.
    expect(progressAt(playing, t0 + 3_000, 2_000)).toBe(35_000);
    expect(progressAt(playing, t0 + 10 * 60_000, 0)).toBe(214_000);
    // A clock ahead of Spotify's answer never moves it back.
    expect(progressAt(playing, t0 - 5_000, 0)).toBe(30_000);
  });
  it('stays put while paused; nothing playing is 0', () => {
    expect(progressAt(paused, t0 + 60_000, 0)).toBe(30_000);
    expect(progressAt({ state: 'idle', at }, t0, 0)).toBe(0);
    expect(progressAt(null, t0, 0)).toBe(0);
  });
});

describe('trackTime', () => {
  it('writes m:ss, and h:mm:ss from an hour on', () => {
    expect(trackTime(0)).toBe('0:00');
    expect(trackTime(59_999)).toBe('0:59');
    expect(trackTime(214_000)).toBe('3:34');
    expect(trackTime(3_725_000)).toBe('1:02:05');
    expect(trackTime(-5)).toBe('0:00');
  });
});
