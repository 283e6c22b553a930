import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { LiveStatsDto } from '@greenroom/contracts/api/stats';
import { useLiveStats } from './get-live-stats';

const stream = (connectionId: string): LiveStatsDto['streams'][number] => ({
  id: `s-${connectionId}`,
  channel_provider_id: connectionId,
  provider: 'twitch',
  started_at: new Date().toISOString(),
  ended_at: null,
  peak_viewers: 42,
});

describe('useLiveStats', () => {
  const fetchMock = vi.fn<typeof fetch>();
  let streams: LiveStatsDto['streams'] = [];

  beforeEach(() => {
    vi.useFakeTimers();
    streams = [];
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        new Response(JSON.stringify({ streams, messages_per_minute: [] } satisfies LiveStatsDto), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  function render(liveConnectionIds: string[]) {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    return renderHook(({ ids }) => useLiveStats('c1', true, ids), { wrapper, initialProps: { ids: liveConnectionIds } });
  }

  const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

  it('refreshes every 2 s while a live connection has no stream yet, then every 30 s', async () => {
    const { result } = render(['cp1']);
    await advance(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(result.current.data?.streams).toEqual([]);

    // The stats job opens the stream a few seconds after the platform went live: the uptime follows within 2 s.
    await advance(2_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    streams = [stream('cp1')];
    await advance(2_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await advance(1);
    expect(result.current.data?.streams.map((s) => s.channel_provider_id)).toEqual(['cp1']);

    // Every live connection has its stream: back to the 30 s refresh.
    await advance(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await advance(19_999);
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it('refreshes every 30 s when nothing is live, and sooner once a connection goes live without its stream', async () => {
    const { rerender } = render([]);
    await advance(0);
    await advance(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    rerender({ ids: ['cp2'] });
    await advance(2_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
