import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback } from 'react';
import { chatSocketMessageSchema } from '@greenroom/contracts/api/chat';
import type { Paginated } from '@greenroom/contracts/api/common';
import type { Activity } from '@greenroom/contracts/api/events';
import { parseFrame, useLiveSocket } from '../../../lib/live-socket';
import { prependToPages, type PaginatedPages } from '../../../lib/paginated-cache';
import { activityListsKey, type ActivityFilter } from '../api/get-activity';

/** Whether a live activity belongs in a list with this filter. */
export function matchesFilter(activity: Activity, filter: ActivityFilter): boolean {
  return (
    (filter.types.length === 0 || filter.types.includes(activity.type)) &&
    (filter.providers.length === 0 || filter.providers.includes(activity.provider))
  );
}

/** Newest first by when it happened, ties by id: the order the server lists them in. */
export function newerFirst(a: Activity, b: Activity): number {
  return b.occurred_at.localeCompare(a.occurred_at) || b.id.localeCompare(a.id);
}

/**
 * Puts a live activity where it belongs in the loaded list: usually at the front, but one delivered late (a
 * retried webhook) goes below newer ones, as the server would list it. Older than everything loaded on the
 * first page, it waits for that page to be fetched again.
 */
export function insertByTime(data: PaginatedPages<Activity> | undefined, activity: Activity): PaginatedPages<Activity> | undefined {
  if (!data || data.pages.some((page) => page.records.some((r) => r.id === activity.id))) return data;
  const [first, ...rest] = data.pages;
  if (!first || first.records.length === 0 || newerFirst(activity, first.records[0]!) <= 0) return prependToPages(data, activity);
  const at = first.records.findIndex((r) => newerFirst(activity, r) < 0);
  if (at === -1 && first.cursor !== null) return data;
  const records = at === -1 ? [...first.records, activity] : [...first.records.slice(0, at), activity, ...first.records.slice(at)];
  return { ...data, pages: [{ ...first, records }, ...rest] };
}

/** Activity frames of the staff websocket, put in order into every cached activity list whose filter they match. */
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
        queryClient.setQueryData<InfiniteData<Paginated<Activity>, string | null>>(key, (data) => insertByTime(data, activity));
      }
    },
    [channelId, queryClient],
  );
  const state = useLiveSocket(`/api/2/channels/${encodeURIComponent(channelId)}/chat-ws`, onData, { authenticated: true });
  return state;
}
