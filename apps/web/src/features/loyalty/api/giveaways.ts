import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  giveawayEntriesSchema,
  giveawayListSchema,
  giveawaySchema,
  giveawaySocketMessageSchema,
  type Giveaway,
  type GiveawayAction,
  type GiveawayBody,
} from '@greenroom/contracts/api/giveaways';
import { api } from '../../../lib/api-client';
import { parseFrame, useLiveSocket, type LiveConnection } from '../../../lib/live-socket';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/giveaways`;
const one = (channelId: string, id: string) => `${base(channelId)}/${encodeURIComponent(id)}`;
const listKey = (channelId: string) => ['channels', channelId, 'giveaways'] as const;
const oneKey = (channelId: string, id: string) => [...listKey(channelId), id] as const;

function listQueryOptions(channelId: string) {
  return infiniteQueryOptions({
    queryKey: [...listKey(channelId), 'list'],
    queryFn: ({ signal, pageParam }) =>
      api.get(base(channelId), { schema: giveawayListSchema, signal, query: { per_page: 50, cursor: pageParam ?? undefined } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    meta: { errorToast: false },
  });
}

/** The channel's giveaways, newest first (the open one and the history), 50 a page. */
export function useGiveaways(channelId: string) {
  return useInfiniteQuery(listQueryOptions(channelId));
}

export function useGiveaway(channelId: string, id: string, enabled = true) {
  return useQuery({
    queryKey: oneKey(channelId, id),
    queryFn: ({ signal }) => api.get(one(channelId, id), { schema: giveawaySchema, signal }),
    meta: { errorToast: false },
    enabled,
  });
}

/** A giveaway's entries, most tickets first, 100 a page (the first page carries the total weight). */
export function useGiveawayEntries(channelId: string, id: string, enabled = true) {
  return useInfiniteQuery({
    queryKey: [...oneKey(channelId, id), 'entries'],
    queryFn: ({ signal, pageParam }) =>
      api.get(`${one(channelId, id)}/entries`, { schema: giveawayEntriesSchema, signal, query: { cursor: pageParam ?? undefined } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    meta: { errorToast: false },
    enabled,
  });
}

function useStore(channelId: string) {
  const queryClient = useQueryClient();
  return async (saved: Giveaway) => {
    queryClient.setQueryData(oneKey(channelId, saved.id), saved);
    await queryClient.invalidateQueries({ queryKey: listQueryOptions(channelId).queryKey, exact: true });
  };
}

export function useCreateGiveaway(channelId: string) {
  const store = useStore(channelId);
  return useMutation({
    mutationFn: (body: GiveawayBody): Promise<Giveaway> => api.post(base(channelId), body, { schema: giveawaySchema }),
    meta: { errorToast: false },
    onSuccess: store,
  });
}

export function useUpdateGiveaway(channelId: string, id: string) {
  const store = useStore(channelId);
  return useMutation({
    mutationFn: (body: GiveawayBody): Promise<Giveaway> => api.put(one(channelId, id), body, { schema: giveawaySchema }),
    meta: { errorToast: false },
    onSuccess: store,
  });
}

/** Open, close, draw or cancel (failures toast: there is no form to show them). */
export function useGiveawayAction(channelId: string, id: string) {
  const store = useStore(channelId);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: GiveawayAction): Promise<Giveaway> =>
      api.post(`${one(channelId, id)}/${action}`, undefined, { schema: giveawaySchema }),
    onSuccess: async (saved) => {
      await store(saved);
      await queryClient.invalidateQueries({ queryKey: [...oneKey(channelId, id), 'entries'] });
    },
  });
}

export function useRerollWinner(channelId: string, id: string) {
  const store = useStore(channelId);
  return useMutation({
    mutationFn: (winnerId: string): Promise<Giveaway> =>
      api.post(`${one(channelId, id)}/winners/${encodeURIComponent(winnerId)}/reroll`, undefined, { schema: giveawaySchema }),
    onSuccess: store,
  });
}

export function useDeleteGiveaway(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(one(channelId, id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listQueryOptions(channelId).queryKey, exact: true }),
  });
}

/**
 * Keeps the channel's giveaways current while the page is open: each `giveaway.updated` replaces the giveaway in the
 * cache and refreshes its entries; on (re)connect everything is fetched again.
 */
export function useLiveGiveaways(channelId: string): LiveConnection {
  const queryClient = useQueryClient();
  const onData = useCallback(
    (raw: string) => {
      const message = parseFrame(raw, giveawaySocketMessageSchema);
      if (message?.type !== 'giveaway.updated') return;
      queryClient.setQueryData(oneKey(channelId, message.data.id), message.data);
      void queryClient.invalidateQueries({ queryKey: [...oneKey(channelId, message.data.id), 'entries'] });
      void queryClient.invalidateQueries({ queryKey: listQueryOptions(channelId).queryKey, exact: true });
    },
    [channelId, queryClient],
  );
  return useLiveSocket(`/api/2/channels/${encodeURIComponent(channelId)}/giveaways-ws`, onData, {
    authenticated: true,
    share: true,
    onOpen: () => void queryClient.invalidateQueries({ queryKey: listKey(channelId) }),
  });
}
