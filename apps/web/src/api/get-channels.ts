import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { channelListSchema, type Channel } from '@greenroom/contracts/api/channels';
import type { Paginated } from '@greenroom/contracts/api/common';
import { api } from '../lib/api-client';

export interface ChannelsFilter {
  name?: string;
  perPage?: number;
}

export const CHANNELS_PAGE_SIZE = 30;

export function getChannels(filter: ChannelsFilter & { cursor?: string | null }, signal?: AbortSignal): Promise<Paginated<Channel>> {
  return api.get('/api/2/channels', {
    query: { name: filter.name?.trim(), cursor: filter.cursor, per_page: filter.perPage ?? CHANNELS_PAGE_SIZE },
    schema: channelListSchema,
    signal,
  });
}

/** Key prefix of every channel list, for invalidation. */
export const channelListsKey = ['channels', 'list'] as const;

export function getChannelsInfiniteQueryOptions(filter: ChannelsFilter = {}) {
  const name = filter.name?.trim() ?? '';
  const perPage = filter.perPage ?? CHANNELS_PAGE_SIZE;
  return infiniteQueryOptions({
    queryKey: [...channelListsKey, { name, perPage }],
    queryFn: ({ pageParam, signal }) => getChannels({ name, perPage, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });
}

/** The signed-in user's channels, cursor-paginated, optionally filtered by name. */
export function useChannels(filter: ChannelsFilter = {}) {
  return useInfiniteQuery(getChannelsInfiniteQueryOptions(filter));
}
