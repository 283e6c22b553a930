import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  chatTimerListSchema,
  chatTimerSchema,
  timerImportResultSchema,
  type ChatTimer,
  type ImportBody,
  type TimerBody,
} from '@greenroom/contracts/api/chatbot';
import { api } from '../../../lib/api-client';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/chat-timers`;

export function getChatTimersQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'chat-timers'],
    queryFn: ({ signal }) => api.get(base(channelId), { schema: chatTimerListSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useChatTimers(channelId: string) {
  return useQuery(getChatTimersQueryOptions(channelId));
}

export function useChatTimer(channelId: string, timerId: string, enabled = true) {
  return useQuery({
    queryKey: ['channels', channelId, 'chat-timers', timerId],
    queryFn: ({ signal }) => api.get(`${base(channelId)}/${encodeURIComponent(timerId)}`, { schema: chatTimerSchema, signal }),
    meta: { errorToast: false },
    enabled,
  });
}

export function toTimerBody(t: ChatTimer): TimerBody {
  return {
    name: t.name,
    messages: t.messages,
    interval_minutes: t.interval_minutes,
    min_lines: t.min_lines,
    online_only: t.online_only,
    platforms: t.platforms,
    enabled: t.enabled,
  };
}

export function useSaveChatTimer(channelId: string, timerId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TimerBody): Promise<ChatTimer> =>
      timerId
        ? api.put(`${base(channelId)}/${encodeURIComponent(timerId)}`, body, { schema: chatTimerSchema })
        : api.post(base(channelId), body, { schema: chatTimerSchema }),
    meta: { errorToast: false },
    onSuccess: async (saved) => {
      queryClient.setQueryData(['channels', channelId, 'chat-timers', saved.id], saved);
      await queryClient.invalidateQueries({ queryKey: getChatTimersQueryOptions(channelId).queryKey, exact: true });
    },
  });
}

export function useToggleChatTimer(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getChatTimersQueryOptions(channelId);
  return useMutation({
    mutationFn: (t: ChatTimer) =>
      api.put(`${base(channelId)}/${encodeURIComponent(t.id)}`, { ...toTimerBody(t), enabled: !t.enabled }, { schema: chatTimerSchema }),
    onSuccess: async (saved) => {
      queryClient.setQueryData<ChatTimer[]>(queryKey, (list) => list?.map((t) => (t.id === saved.id ? saved : t)));
      await queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}

export function useDeleteChatTimer(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getChatTimersQueryOptions(channelId);
  return useMutation({
    mutationFn: (timerId: string) => api.delete(`${base(channelId)}/${encodeURIComponent(timerId)}`),
    onSuccess: async (_r, timerId) => {
      queryClient.setQueryData<ChatTimer[]>(queryKey, (list) => list?.filter((t) => t.id !== timerId));
      await queryClient.invalidateQueries({ queryKey, exact: true });
    },
  });
}

/** Previews (apply: false) or saves the chosen lines (apply: true, `only`) of a Nightbot / StreamElements timer export. */
export function useImportChatTimers(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportBody) => api.post(`${base(channelId)}/import`, body, { schema: timerImportResultSchema }),
    meta: { errorToast: false },
    onSuccess: async (result) => {
      if (result.saved > 0) await queryClient.invalidateQueries({ queryKey: getChatTimersQueryOptions(channelId).queryKey, exact: true });
    },
  });
}
