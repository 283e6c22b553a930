import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { chatSocketMessageSchema } from '@greenroom/contracts/api/chat';
import type { Paginated } from '@greenroom/contracts/api/common';
import type { Activity } from '@greenroom/contracts/api/events';
import { parseFrame, useLiveSocket } from '../../../lib/live-socket';
import { prependToPages, type PaginatedPages } from '../../../lib/paginated-cache';
import { activityListsKey, getActivity, type ActivityFilter, type ActivityPage } from '../api/get-activity';

/** Whether a live activity belongs in a list with this filter. */
export function matchesFilter(activity: Activity, filter: ActivityFilter): boolean {
  return (
    (filter.types.length === 0 || filter.types.includes(activity.type)) &&
    (filter.providers.length === 0 || filter.providers.includes(activity.provider))
  );
}

/**
 * Puts a live activity where it belongs in the loaded list: usually at the front, but one delivered late (a
 * retried webhook) goes below newer ones, as the server would list it. The server lists by time, ties in
 * arrival order (newest arrival first), and a live frame is the newest arrival: it goes above every record
 * at the same time (two events in the same millisecond — a raid and a sub sent together — stay in the
 * order they came in). Older than everything loaded on the first page, it waits for that page to be
 * fetched again.
 */
export function insertByTime(data: PaginatedPages<Activity> | undefined, activity: Activity): PaginatedPages<Activity> | undefined {
  if (!data || data.pages.some((page) => page.records.some((r) => r.id === activity.id))) return data;
  const [first, ...rest] = data.pages;
  const notOlder = (r: Activity) => activity.occurred_at >= r.occurred_at;
  if (!first || first.records.length === 0 || notOlder(first.records[0]!)) return prependToPages(data, activity);
  const at = first.records.findIndex(notOlder);
  if (at === -1 && first.cursor !== null) return data;
  const records = at === -1 ? [...first.records, activity] : [...first.records.slice(0, at), activity, ...first.records.slice(at)];
  return { ...data, pages: [{ ...first, records }, ...rest] };
}

/** At most this many catch-up pages after a reconnect (beyond that the lists are simply refetched). */
const CATCH_UP_PAGES = 10;
const CATCH_UP_PAGE_SIZE = 200;

/**
 * Activity frames of the staff websocket, put in order into every cached activity list whose filter they
 * match. After a reconnect, what was stored meanwhile is fetched by position (`after` the newest seen)
 * and put in the same way: no gap, no duplicate. `loaded`: the page's list has been read (its first read may
 * have come before the socket opened).
 */
export function useLiveActivity(channelId: string, loaded: boolean) {
  const queryClient = useQueryClient();
  /** The newest stored position seen (frames and loaded lists); 0 = none yet. */
  const head = useRef(0);
  const opened = useRef(false);

  const apply = useCallback(
    (activity: Activity) => {
      for (const [key] of queryClient.getQueriesData({ queryKey: activityListsKey(channelId) })) {
        const filter = key[3] as ActivityFilter | undefined;
        if (filter && !matchesFilter(activity, filter)) continue;
        queryClient.setQueryData<InfiniteData<Paginated<Activity>, string | null>>(key, (data) => insertByTime(data, activity));
      }
    },
    [channelId, queryClient],
  );

  const onData = useCallback(
    (raw: string) => {
      if (!raw.includes('"activity"')) return;
      const frame = parseFrame(raw, chatSocketMessageSchema);
      if (frame?.type !== 'activity') return;
      head.current = Math.max(head.current, frame.seq);
      apply(frame.data);
    },
    [apply],
  );

  const catchUp = useCallback(async () => {
    // The lists' own newest positions count too (a list loaded after the last frame).
    let from = head.current;
    for (const [, data] of queryClient.getQueriesData<InfiniteData<ActivityPage, string | null>>({ queryKey: activityListsKey(channelId) }))
      from = Math.max(from, Number(data?.pages[0]?.head ?? 0));
    // From 0 too (the lists were empty when read): merged like frames, never a refetch that could answer with a read
    // older than a frame already shown and put the list back without it.
    let after = String(from);
    for (let page = 0; page < CATCH_UP_PAGES; page++) {
      const got = await getActivity(channelId, { types: [], providers: [], after, perPage: CATCH_UP_PAGE_SIZE });
      for (const activity of got.records) apply(activity);
      head.current = Math.max(head.current, Number(got.head ?? 0));
      if (!got.cursor) return;
      after = got.cursor;
    }
    await queryClient.invalidateQueries({ queryKey: activityListsKey(channelId) });
  }, [apply, channelId, queryClient]);

  const catchUpOrRefetch = useCallback(() => {
    catchUp().catch(() => void queryClient.invalidateQueries({ queryKey: activityListsKey(channelId) }));
  }, [catchUp, channelId, queryClient]);

  // Every (re)connect, the first one too: a list read before the socket opened misses what was stored in between.
  const onOpen = useCallback(() => {
    opened.current = true;
    const anyRead = queryClient.getQueriesData({ queryKey: activityListsKey(channelId) }).some(([, data]) => data !== undefined);
    if (anyRead) catchUpOrRefetch();
  }, [catchUpOrRefetch, channelId, queryClient]);

  // The list was read after the socket opened, but asked for before: what was stored in between is fetched now.
  const listRead = useRef(false);
  useEffect(() => {
    if (!loaded || listRead.current) return;
    listRead.current = true;
    if (opened.current) catchUpOrRefetch();
  }, [loaded, catchUpOrRefetch]);

  return useLiveSocket(`/api/2/channels/${encodeURIComponent(channelId)}/chat-ws`, onData, { authenticated: true, onOpen });
}
