import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NowPlaying } from '@greenroom/contracts/api/spotify';
import { defaultWidgetSettings, type PublicWidget } from '@greenroom/contracts/api/widgets';
import type { FrameListener, WidgetConnection } from '../hooks/use-widget-connection';
import { NowPlayingWidget } from './now-playing-widget';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const track = (id: string, name: string, duration_ms = 200_000) => ({
  id,
  uri: `spotify:track:${id}`,
  name,
  artists: ['Coffee Tape', 'Turbo Kids'],
  album: 'Morning Loops',
  duration_ms,
  url: null,
  image_url: null,
});

function connection(nowPlaying: NowPlaying, serverTime: string) {
  const listeners = new Set<FrameListener>();
  const refresh = vi.fn();
  const snapshot = { type: 'spotify', now_playing: nowPlaying, server_time: serverTime } as unknown as PublicWidget;
  const value: WidgetConnection = {
    status: 'live',
    snapshot,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    refresh,
  };
  const push = (data: NowPlaying) =>
    act(() => {
      listeners.forEach((l) => l({ type: 'now_playing', data }));
    });
  return { value, refresh, push };
}

describe('NowPlayingWidget', () => {
  it('shows the track, follows pushed changes, and draws nothing when Spotify is not connected', () => {
    const at = new Date().toISOString();
    const c = connection({ state: 'playing', track: track('a', 'Lo-Fi Sunrise'), is_playing: true, progress_ms: 65_000, at }, at);
    render(<NowPlayingWidget settings={defaultWidgetSettings('spotify')} connection={c.value} />);
    expect(screen.getByTestId('now-playing-title').textContent).toBe('Lo-Fi Sunrise');
    expect(screen.getByTestId('now-playing-artists').textContent).toBe('Coffee Tape, Turbo Kids');
    expect(screen.getByText('1:05')).toBeTruthy();
    expect(screen.getByText('3:20')).toBeTruthy();

    c.push({ state: 'playing', track: track('b', 'Speedrun'), is_playing: false, progress_ms: 10_000, at });
    expect(screen.getByTestId('now-playing-title').textContent).toBe('Speedrun');
    expect(screen.getByLabelText('Paused')).toBeTruthy();

    c.push({ state: 'not_connected' });
    expect(screen.queryByLabelText('Now playing')).toBeNull();
  });

  it('shows the idle text when nothing plays, and asks again when a track should have ended', () => {
    vi.useFakeTimers();
    const at = new Date().toISOString();
    const c = connection({ state: 'playing', track: track('a', 'Short', 3_000), is_playing: true, progress_ms: 1_000, at }, at);
    render(<NowPlayingWidget settings={{ ...defaultWidgetSettings('spotify'), idle_text: 'Music is off' }} connection={c.value} />);
    expect(c.refresh).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(3_000);
    });
    expect(c.refresh).toHaveBeenCalledTimes(1);
    // Not again at once: at most every 5 s.
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(c.refresh).toHaveBeenCalledTimes(1);
    c.push({ state: 'idle', at });
    expect(screen.getByLabelText('Now playing').textContent).toBe('Music is off');
  });
});
