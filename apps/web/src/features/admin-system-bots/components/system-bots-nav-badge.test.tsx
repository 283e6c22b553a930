import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SystemBotProvider } from '@greenroom/contracts/api/system-bots';
import { getSystemBotsQueryOptions } from '../api/get-system-bots';
import { installMatchMedia } from '../../../test/mantine';
import { SystemBotsNavBadge } from './system-bots-nav-badge';

beforeAll(installMatchMedia);
afterEach(cleanup);

const bot = (provider: SystemBotProvider['provider'], scopeNeeded: boolean): SystemBotProvider => ({
  provider,
  scope_needed: scopeNeeded,
  display_name: `${provider} bot`,
  provider_user_id: '1',
  connected_at: new Date().toISOString(),
});

function renderWith(bots: SystemBotProvider[]) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(getSystemBotsQueryOptions().queryKey, bots);
  return render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <SystemBotsNavBadge />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('SystemBotsNavBadge', () => {
  it('shows an orange "!" when no system bot exists', () => {
    renderWith([]);
    expect(screen.getByLabelText('No system bot connected').textContent).toBe('!');
  });

  it('counts the bots needing reconnect', () => {
    renderWith([bot('twitch', true), bot('youtube', false), bot('kick', true)]);
    expect(screen.getByLabelText('2 system bots need reconnecting').textContent).toBe('2');
  });

  it('shows nothing when every bot is fine', () => {
    const { container } = renderWith([bot('twitch', false)]);
    expect(container.querySelector('.mantine-Badge-root')).toBeNull();
    expect(screen.queryByLabelText(/system bot/)).toBeNull();
  });
});
