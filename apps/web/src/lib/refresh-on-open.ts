import { hashKey, type InvalidateQueryFilters, type QueryClient, type QueryKey } from '@tanstack/react-query';

/** Refreshes under way, by client and filters: the callers of one shared socket all open at once and share one. */
const running = new WeakMap<QueryClient, Map<string, Promise<void>>>();

/**
 * Reads the queries matching `filters` again now that their live socket is open: the updates it sends from now on
 * apply to what is read from now on. A read still in flight when the socket opened (the page's first one, usually)
 * may have been answered before the server joined the socket: what changed in between reached neither. TanStack
 * hands such a read to a refetch instead of starting another (always while the query has no data yet), so it is
 * waited for and read once more.
 */
export function refreshOnOpen(queryClient: QueryClient, filters: InvalidateQueryFilters & { queryKey: QueryKey }): Promise<void> {
  let byKey = running.get(queryClient);
  if (!byKey) running.set(queryClient, (byKey = new Map<string, Promise<void>>()));
  const key = `${filters.exact ? 'exact' : 'prefix'}:${hashKey(filters.queryKey)}`;
  const existing = byKey.get(key);
  if (existing) return existing;
  const refresh = (async () => {
    if (queryClient.isFetching(filters) > 0) await queryClient.refetchQueries(filters, { cancelRefetch: false }).catch(() => undefined);
    await queryClient.invalidateQueries(filters, { cancelRefetch: false });
  })().finally(() => byKey.delete(key));
  byKey.set(key, refresh);
  return refresh;
}
