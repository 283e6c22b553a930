import { queryOptions, useQuery } from '@tanstack/react-query';
import { channelProviderListSchema, type ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { api } from '../../../lib/api-client';

export function getChannelProviders(channelId: string, signal?: AbortSignal): Promise<ChannelProvider[]> {
  return api.get(`/api/2/channels/${encodeURIComponent(channelId)}/providers`, { schema: channelProviderListSchema, signal });
}

/** Same key as the Platforms page's list, so both share one cache entry. */
export function getChannelProvidersQueryOptions(channelId: string) {
  return queryOptions({ queryKey: ['channels', channelId, 'providers'], queryFn: ({ signal }) => getChannelProviders(channelId, signal) });
}

/** The channel's connected platforms (who the composer can send to). */
export function useChannelProviders(channelId: string) {
  return useQuery(getChannelProvidersQueryOptions(channelId));
}
