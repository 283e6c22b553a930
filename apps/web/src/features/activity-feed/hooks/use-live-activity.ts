import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback } from 'react';
import { chatSocketMessageSchema } from '@greenroom/contracts/api/chat';
import type { Paginated } from '@greenroom/contracts/api/common';
import type { Activity } from '@greenroom/contracts/api/events';
import { parseFrame, useLiveSocket } from '../../../lib/live-socket';
import { prependToPages } from '../../../lib/paginated-cache';
import { activityListsKey, type ActivityFilter } from '../api/get-activity';

/** Whether a live activity belongs in a list with this filter. */
export function matchesFilter(activity: Activity, filter: ActivityFilter): boolean {
  return (
    (filter.types.length === 0 || filter.types.includes(activity.type)) &&
    (filter.providers.length === 0 || filter.providers.includes(activity.provider))
  );
}

/** Activity frames of the staff websocket, prepended to every cached activity list whose filter they match. */
export function useLiveActivity(channelId: string) {
  const queryClient = useQueryClient();
  const onData = useCallback(
    (raw: string) => {
      if (!raw.includes('"activity"')) return;
      const frame = parseFrame(raw, chatSocketMessageSchema);
      if (frame?.type !== 'activity') return;
      const activity = frame.data;
      for (const [key] of queryClient.getQueriesData({ queryKey: activityListsKey(channelId) })) {
        const filter = key[3] as ActivityFilter | undefined;
        if (filter && !matchesFilter(activity, filter)) continue;
        queryClient.setQueryData<InfiniteData<Paginated<Activity>, string | null>>(key, (data) =>
          data?.pages.some((page) => page.records.some((r) => r.id === activity.id)) ? data : prependToPages(data, activity),
        );
      }
    },
    [channelId, queryClient],
  );
  const state = useLiveSocket(`/api/2/channels/${encodeURIComponent(channelId)}/chat-ws`, onData, { authenticated: true });
  return state;
}
