import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { activityListSchema } from '@greenroom/contracts/api/chat';
import type { z } from 'zod';
import type { ActivityType } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { api } from '../../../lib/api-client';

export const ACTIVITY_PAGE_SIZE = 50;

export interface ActivityFilter {
  types: ActivityType[];
  providers: ChannelProviderId[];
}

export type ActivityPage = z.infer<typeof activityListSchema>;

/** One page newest first (`cursor`), or — with `after`, a reconnect's catch-up — what was stored after that position, oldest first. */
export function getActivity(
  channelId: string,
  params: ActivityFilter & { cursor?: string | null; after?: string | null; perPage?: number },
  signal?: AbortSignal,
): Promise<ActivityPage> {
  return api.get(`/api/2/channels/${encodeURIComponent(channelId)}/activity`, {
    query: {
      cursor: params.cursor,
      after: params.after,
      per_page: params.perPage ?? ACTIVITY_PAGE_SIZE,
      types: params.types.join(','),
      providers: params.providers.join(','),
    },
    schema: activityListSchema,
    signal,
  });
}

/** Key prefix of every activity list of a channel (the live socket prepends to each). */
export const activityListsKey = (channelId: string) => ['channels', channelId, 'activity'] as const;

export function getActivityInfiniteQueryOptions(channelId: string, filter: ActivityFilter) {
  const types = filter.types.toSorted();
  const providers = filter.providers.toSorted();
  return infiniteQueryOptions({
    queryKey: [...activityListsKey(channelId), { types, providers }],
    queryFn: ({ pageParam, signal }) => getActivity(channelId, { types, providers, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
  });
}

/** The channel's activity, newest first, cursor-paginated. */
export function useActivity(channelId: string, filter: ActivityFilter) {
  return useInfiniteQuery(getActivityInfiniteQueryOptions(channelId, filter));
}
