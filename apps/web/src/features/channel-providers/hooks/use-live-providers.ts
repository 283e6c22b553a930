import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { providerUpdateMessageSchema } from '@greenroom/contracts/api/channel-providers';
import { parseFrame, useLiveSocket } from '../../../lib/live-socket';
import { getChannelProvidersQueryOptions } from '../../../api/get-channel-providers';
import { applyProviderUpdate } from '../provider-updates';

/**
 * The channel's connections, kept live by `/providers-ws`: refetch on every (re)connect, then apply
 * new/updated/deleted messages to the cache. Every component calling this shares one socket.
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
