import { useMutation, useQueryClient } from '@tanstack/react-query';
import { channelProviderSchema, type ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { api } from '../../../lib/api-client';
import { applyProviderUpdate } from '../../../api/live-channel-providers';
import { getChannelProvidersQueryOptions } from '../../../api/get-channel-providers';

export function disconnectChannelProvider(channelId: string, channelProviderId: string): Promise<void> {
  return api.delete(`/api/2/channels/${encodeURIComponent(channelId)}/providers/${encodeURIComponent(channelProviderId)}`);
}

/** Disconnects a platform: it leaves the cache at once, then the list refreshes. */
export function useDisconnectChannelProvider(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getChannelProvidersQueryOptions(channelId);
  return useMutation({
    mutationFn: (channelProviderId: string) => disconnectChannelProvider(channelId, channelProviderId),
    onSuccess: async (_result, channelProviderId) => {
      queryClient.setQueryData<ChannelProvider[]>(queryKey, (list) => list?.filter((p) => p.id !== channelProviderId));
      await queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}

export function disconnectChannelBot(channelId: string, channelProviderId: string): Promise<ChannelProvider> {
  return api.delete(`/api/2/channels/${encodeURIComponent(channelId)}/providers/${encodeURIComponent(channelProviderId)}/bot`, {
    schema: channelProviderSchema,
  });
}

/** Removes the channel's own bot account; the answer (the system bot, if any, now sends) replaces the cached connection. */
export function useDisconnectChannelBot(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channelProviderId: string) => disconnectChannelBot(channelId, channelProviderId),
    onSuccess: (updated) => applyProviderUpdate(queryClient, channelId, { action: 'updated', data: updated }),
  });
}
