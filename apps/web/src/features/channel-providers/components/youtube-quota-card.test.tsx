import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ChannelProvider, YoutubeQuota } from '@greenroom/contracts/api/channel-providers';
import { installMatchMedia } from '../../../test/mantine';
import { getYoutubeQuotaQueryOptions } from '../api/get-youtube-quota';
import { YoutubeQuotaCard } from './youtube-quota-card';

beforeAll(installMatchMedia);
afterEach(cleanup);

const provider = { id: 'cp1', channel_id: 'c1', provider: 'youtube' } as ChannelProvider;
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

function renderWith(quota: YoutubeQuota) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(getYoutubeQuotaQueryOptions('c1', 'cp1').queryKey, quota);
  return render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <YoutubeQuotaCard provider={provider} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('YoutubeQuotaCard', () => {
  it('shows the units used of the daily quota and when it resets', () => {
    renderWith({ day: '2026-11-23', used: 2_345, limit: 10_000, exhausted: false, resets_at: inHours(5) });
    expect(screen.getByText(/units used today/).textContent).toBe('2,345 of 10,000 units used today');
    expect(screen.getByText('23%')).toBeTruthy();
    expect(screen.getByText(/midnight Pacific time/).textContent).toMatch(/in 4:59:5\d\./);
    expect(screen.queryByText('Quota used up for today')).toBeNull();
  });

  it('says plainly when the quota is used up and what pauses', () => {
    renderWith({ day: '2026-11-23', used: 9_990, limit: 10_000, exhausted: true, resets_at: inHours(2) });
    expect(screen.getByText('Quota used up for today')).toBeTruthy();
    expect(screen.getByText(/YouTube refuses Greenroom's calls/).textContent).toMatch(
      /chat, moderation and stream info on YouTube are paused/,
    );
  });
});
