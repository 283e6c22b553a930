import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  chatFilterListSchema,
  chatFilterSchema,
  filterLogPageSchema,
  type ChatFilter,
  type FilterBody,
} from '@greenroom/contracts/api/chatbot';
import { api } from '../../../lib/api-client';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/chat-filters`;

export function getChatFiltersQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'chat-filters'],
    queryFn: ({ signal }) => api.get(base(channelId), { schema: chatFilterListSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useChatFilters(channelId: string) {
  return useQuery(getChatFiltersQueryOptions(channelId));
}

export function useChatFilter(channelId: string, filterId: string, enabled = true) {
  return useQuery({
    queryKey: ['channels', channelId, 'chat-filters', filterId],
    queryFn: ({ signal }) => api.get(`${base(channelId)}/${encodeURIComponent(filterId)}`, { schema: chatFilterSchema, signal }),
    meta: { errorToast: false },
    enabled,
  });
}

/** The editable body of a saved filter. */
export function toFilterBody(f: ChatFilter): FilterBody {
  return {
    name: f.name,
    type: f.type,
    settings: f.settings,
    exempt_level: f.exempt_level,
    action: f.action,
    duration_seconds: f.duration_seconds,
    warn_first: f.warn_first,
    message: f.message,
    enabled: f.enabled,
  };
}

export function useSaveChatFilter(channelId: string, filterId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FilterBody): Promise<ChatFilter> =>
      filterId
        ? api.put(`${base(channelId)}/${encodeURIComponent(filterId)}`, body, { schema: chatFilterSchema })
        : api.post(base(channelId), body, { schema: chatFilterSchema }),
    meta: { errorToast: false },
    onSuccess: async (saved) => {
      queryClient.setQueryData(['channels', channelId, 'chat-filters', saved.id], saved);
      await queryClient.invalidateQueries({ queryKey: getChatFiltersQueryOptions(channelId).queryKey, exact: true });
    },
  });
}

export function useToggleChatFilter(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getChatFiltersQueryOptions(channelId);
  return useMutation({
    mutationFn: (f: ChatFilter) =>
      api.put(`${base(channelId)}/${encodeURIComponent(f.id)}`, { ...toFilterBody(f), enabled: !f.enabled }, { schema: chatFilterSchema }),
    onSuccess: async (saved) => {
      queryClient.setQueryData<ChatFilter[]>(queryKey, (list) => list?.map((f) => (f.id === saved.id ? saved : f)));
      await queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}

export function useDeleteChatFilter(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getChatFiltersQueryOptions(channelId);
  return useMutation({
    mutationFn: (filterId: string) => api.delete(`${base(channelId)}/${encodeURIComponent(filterId)}`),
    onSuccess: async (_r, filterId) => {
      queryClient.setQueryData<ChatFilter[]>(queryKey, (list) => list?.filter((f) => f.id !== filterId));
      await queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}

/** One page of the filter action log, newest first (`cursor` from the previous page). */
export function useFilterLog(channelId: string, cursor: string | null, filterId?: string) {
  return useQuery({
    queryKey: ['channels', channelId, 'chat-filter-log', filterId ?? null, cursor],
    queryFn: ({ signal }) =>
      api.get(`/api/2/channels/${encodeURIComponent(channelId)}/chat-filter-log`, {
        schema: filterLogPageSchema,
        signal,
        query: { cursor: cursor ?? undefined, filter_id: filterId, per_page: 50 },
      }),
    // The newest page follows what the filters do while it is open; older pages do not change.
    refetchInterval: cursor === null ? 15_000 : false,
    meta: { errorToast: false },
  });
}
