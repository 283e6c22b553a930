import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminChannelListSchema, type AdminChannel } from '@greenroom/contracts/api/channels';
import type { Paginated } from '@greenroom/contracts/api/common';
import { api } from '../../../lib/api-client';

/** Admin channel list page size. */
export const ADMIN_CHANNELS_PAGE_SIZE = 50;

export function getAdminChannels(
  filter: { name?: string; cursor?: string | null },
  signal?: AbortSignal,
): Promise<Paginated<AdminChannel>> {
  return api.get('/api/2/admin/channels', {
    query: { per_page: ADMIN_CHANNELS_PAGE_SIZE, cursor: filter.cursor, name: filter.name?.trim() },
    schema: adminChannelListSchema,
    signal,
  });
}

export function getAdminChannelsInfiniteQueryOptions(filter: { name?: string } = {}) {
  const name = filter.name?.trim() ?? '';
  return infiniteQueryOptions({
    queryKey: ['admin', 'channels', { name }],
    queryFn: ({ pageParam, signal }) => getAdminChannels({ name, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    // A non-operator gets 403: the page shows "You do not have access" instead of a toast.
    meta: { errorToast: [403] },
  });
}

/** Every channel (operators only), newest first, 50 per page. */
export function useAdminChannels(filter: { name?: string } = {}) {
  return useInfiniteQuery(getAdminChannelsInfiniteQueryOptions(filter));
}
