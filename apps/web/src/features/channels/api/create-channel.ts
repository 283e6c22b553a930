import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { channelSchema, type Channel, type createChannelBodySchema } from '@greenroom/contracts/api/channels';
import { api } from '../../../lib/api-client';
import { prependToPages, type PaginatedPages } from '../../../lib/paginated-cache';
import { getChannelQueryOptions } from '../../../api/get-channel';
import { channelListsKey } from '../../../api/get-channels';

export type CreateChannelBody = z.input<typeof createChannelBodySchema>;

export function createChannel(body: CreateChannelBody): Promise<Channel> {
  return api.post('/api/2/channels', body, { schema: channelSchema });
}

/** Creates a channel owned by the signed-in user; it is put at the front of the unfiltered lists. */
export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChannel,
    meta: { errorToast: false },
    onSuccess: async (channel) => {
      queryClient.setQueryData(getChannelQueryOptions(channel.id).queryKey, channel);
      queryClient.setQueriesData<PaginatedPages<Channel>>(
        { queryKey: channelListsKey, predicate: (query) => (query.queryKey[2] as { name?: string } | undefined)?.name === '' },
        (data) => prependToPages(data, channel),
      );
      await queryClient.invalidateQueries({ queryKey: channelListsKey });
    },
  });
}
