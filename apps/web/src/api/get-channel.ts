import { queryOptions, useQuery } from '@tanstack/react-query';
import { channelSchema, type Channel } from '@greenroom/contracts/api/channels';
import { api } from '../lib/api-client';

export function getChannel(channelId: string, signal?: AbortSignal): Promise<Channel> {
  return api.get(`/api/2/channels/${encodeURIComponent(channelId)}`, { schema: channelSchema, signal });
}

export function getChannelQueryOptions(channelId: string) {
  // The channel shell shows "Channel not found" itself; other failures still toast.
  return queryOptions({
    queryKey: ['channels', 'detail', channelId],
    queryFn: ({ signal }) => getChannel(channelId, signal),
    meta: { errorToast: [403, 404] },
  });
}

/** One channel with the caller's access level and its connected platforms. */
export function useChannel(channelId: string) {
  return useQuery(getChannelQueryOptions(channelId));
}
