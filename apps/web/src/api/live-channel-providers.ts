import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { providerUpdateMessageSchema, type ChannelProvider, type ProviderUpdateMessage } from '@greenroom/contracts/api/channel-providers';
import { parseFrame, useLiveSocket } from '../lib/live-socket';
import { getChannelQueryOptions } from './get-channel';
import { getChannelProviderQueryOptions, getChannelProvidersQueryOptions } from './get-channel-providers';

/**
 * Applies a provider updates message to a cached list: "new" puts the item at the front, "updated"
 * replaces the item with the same id, "deleted" removes it. Applying the same message twice changes nothing
 * (a "new" for an id already listed replaces it; an "updated" for an id not listed — one the socket delivered
 * before the list loaded — is put at the front, so nothing is lost).
 */
export function applyToList(list: ChannelProvider[], message: ProviderUpdateMessage): ChannelProvider[] {
  const { action, data } = message;
  const index = list.findIndex((p) => p.id === data.id);
  switch (action) {
    case 'deleted':
      return index === -1 ? list : list.filter((p) => p.id !== data.id);
    case 'new':
      return [data, ...list.filter((p) => p.id !== data.id)];
    case 'updated':
      return index === -1 ? [data, ...list] : list.map((p, i) => (i === index ? data : p));
  }
}

/** Applies a message to the channel's cached list and to the cached single connection. */
export function applyProviderUpdate(queryClient: QueryClient, channelId: string, message: ProviderUpdateMessage): void {
  queryClient.setQueryData<ChannelProvider[]>(getChannelProvidersQueryOptions(channelId).queryKey, (list) =>
    list ? applyToList(list, message) : list,
  );
  if (message.action !== 'deleted')
    queryClient.setQueryData<ChannelProvider>(getChannelProviderQueryOptions(channelId, message.data.id).queryKey, message.data);
  // The channel itself lists its platforms (dashboard): refresh it when one comes or goes.
  if (message.action !== 'updated')
    void queryClient.invalidateQueries({ queryKey: getChannelQueryOptions(channelId).queryKey, exact: true });
}

/**
 * The channel's connections, kept live by `/providers-ws`: refetch on every (re)connect, then apply
 * new/updated/deleted messages to the cache. Every component calling this shares one socket (the Platforms
 * pages, the nav badge and the chat header's platform states).
 */
export function useLiveChannelProviders(channelId: string) {
  const queryClient = useQueryClient();
  const options = getChannelProvidersQueryOptions(channelId);
  const query = useQuery(options);
  const onMessage = useCallback(
    (data: string) => {
      const message = parseFrame(data, providerUpdateMessageSchema);
      if (message) applyProviderUpdate(queryClient, channelId, message);
    },
    [queryClient, channelId],
  );
  const onOpen = useCallback(() => {
    void queryClient.refetchQueries({ queryKey: options.queryKey, exact: true }, { cancelRefetch: false });
  }, [queryClient, options.queryKey]);
  const live = useLiveSocket(`/api/2/channels/${encodeURIComponent(channelId)}/providers-ws`, onMessage, {
    authenticated: true,
    share: true,
    onOpen,
  });
  return { ...query, live };
}
