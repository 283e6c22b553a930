import { queryOptions, useQuery } from '@tanstack/react-query';
import { channelProviderListSchema, channelProviderSchema, type ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { api } from '../lib/api-client';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/providers`;

export function getChannelProviders(channelId: string, signal?: AbortSignal): Promise<ChannelProvider[]> {
  return api.get(base(channelId), { schema: channelProviderListSchema, signal });
}

/** One cache entry per channel, shared by the Platforms pages, the nav badge and the chat composer; kept live by the providers websocket. */
export function getChannelProvidersQueryOptions(channelId: string) {
  return queryOptions({ queryKey: ['channels', channelId, 'providers'], queryFn: ({ signal }) => getChannelProviders(channelId, signal) });
}

/** The channel's connected platforms. */
export function useChannelProviders(channelId: string) {
  return useQuery(getChannelProvidersQueryOptions(channelId));
}

export function getChannelProvider(channelId: string, channelProviderId: string, signal?: AbortSignal): Promise<ChannelProvider> {
  return api.get(`${base(channelId)}/${encodeURIComponent(channelProviderId)}`, { schema: channelProviderSchema, signal });
}

/** One connection, seeded from the list cache when it is there (the list is kept live, so it is fresh). */
export function getChannelProviderQueryOptions(channelId: string, channelProviderId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'providers', channelProviderId],
    queryFn: ({ signal }) => getChannelProvider(channelId, channelProviderId, signal),
  });
}

/** "Reconnect needed": the connection's own scope, or its channel bot's. */
export function needsReconnect(p: ChannelProvider): boolean {
  return p.scope_needed || (p.bot_provider != null && !p.bot_provider.system && p.bot_provider.scope_needed);
}
