import { queryOptions, useQuery } from '@tanstack/react-query';
import { watchChannelSchema, type WatchChannel } from '@greenroom/contracts/api/watch';
import { api } from '../../../lib/api-client';

/** The public watch page's channel (no sign-in): found by one platform's channel name. */
export function getWatchChannel(provider: string, name: string, signal?: AbortSignal): Promise<WatchChannel> {
  return api.get(`/api/2/public/watch/${encodeURIComponent(provider)}/${encodeURIComponent(name)}`, { schema: watchChannelSchema, signal });
}

export function getWatchChannelQueryOptions(provider: string, name: string) {
  return queryOptions({
    queryKey: ['public', 'watch', provider, name.toLowerCase()],
    queryFn: ({ signal }) => getWatchChannel(provider, name, signal),
    // Live state, viewers and titles change while the page is open.
    refetchInterval: (query) => (query.state.status === 'error' ? false : 30_000),
    meta: { errorToast: false }, // the page shows the error itself
  });
}

export function useWatchChannel(provider: string, name: string, enabled: boolean) {
  return useQuery({ ...getWatchChannelQueryOptions(provider, name), enabled });
}
