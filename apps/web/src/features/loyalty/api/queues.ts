import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  pickResultSchema,
  queueDetailSchema,
  queueListSchema,
  queueSocketMessageSchema,
  type PickBody,
  type PickResult,
  type QueueBody,
  type QueueDetail,
  type QueueStatus,
} from '@greenroom/contracts/api/queues';
import { api } from '../../../lib/api-client';
import { parseFrame, useLiveSocket, type LiveConnection } from '../../../lib/live-socket';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/queues`;
const one = (channelId: string, id: string) => `${base(channelId)}/${encodeURIComponent(id)}`;
const listKey = (channelId: string) => ['channels', channelId, 'queues'] as const;
const oneKey = (channelId: string, id: string) => [...listKey(channelId), id] as const;

function listQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: [...listKey(channelId), 'list'],
    queryFn: ({ signal }) => api.get(base(channelId), { schema: queueListSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useQueues(channelId: string) {
  return useQuery(listQueryOptions(channelId));
}

export function useQueue(channelId: string, id: string, enabled = true) {
  return useQuery({
    queryKey: oneKey(channelId, id),
    queryFn: ({ signal }) => api.get(one(channelId, id), { schema: queueDetailSchema, signal }),
    meta: { errorToast: false },
    enabled,
  });
}

function useStore(channelId: string) {
  const queryClient = useQueryClient();
  return async (saved: QueueDetail) => {
    queryClient.setQueryData(oneKey(channelId, saved.id), saved);
    await queryClient.invalidateQueries({ queryKey: listQueryOptions(channelId).queryKey, exact: true });
  };
}

export function useCreateQueue(channelId: string) {
  const store = useStore(channelId);
  return useMutation({
    mutationFn: (body: QueueBody): Promise<QueueDetail> => api.post(base(channelId), body, { schema: queueDetailSchema }),
    meta: { errorToast: false },
    onSuccess: store,
  });
}

export function useUpdateQueue(channelId: string, id: string) {
  const store = useStore(channelId);
  return useMutation({
    mutationFn: (body: QueueBody): Promise<QueueDetail> => api.put(one(channelId, id), body, { schema: queueDetailSchema }),
    meta: { errorToast: false },
    onSuccess: store,
  });
}

export function useSetQueueStatus(channelId: string, id: string) {
  const store = useStore(channelId);
  return useMutation({
    mutationFn: (status: QueueStatus): Promise<QueueDetail> =>
      api.post(`${one(channelId, id)}/status`, { status }, { schema: queueDetailSchema }),
    onSuccess: store,
  });
}

/** Next, random or a named viewer. */
export function usePick(channelId: string, id: string, toastErrors = true) {
  const store = useStore(channelId);
  return useMutation({
    mutationFn: (body: PickBody): Promise<PickResult> => api.post(`${one(channelId, id)}/pick`, body, { schema: pickResultSchema }),
    meta: toastErrors ? undefined : { errorToast: false },
    onSuccess: (result) => store(result.queue),
  });
}

export function useClearQueue(channelId: string, id: string) {
  const store = useStore(channelId);
  return useMutation({
    mutationFn: (): Promise<QueueDetail> => api.post(`${one(channelId, id)}/clear`, undefined, { schema: queueDetailSchema }),
    onSuccess: store,
  });
}

export function useRemoveEntry(channelId: string, id: string) {
  const store = useStore(channelId);
  return useMutation({
    mutationFn: (entryId: string): Promise<QueueDetail> =>
      api.delete(`${one(channelId, id)}/entries/${encodeURIComponent(entryId)}`, { schema: queueDetailSchema }),
    onSuccess: store,
  });
}

/** Moves a waiting viewer to a position (1 = next); the line shows the move at once and settles on the answer. */
export function useMoveEntry(channelId: string, id: string) {
  const store = useStore(channelId);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ entryId, position }: { entryId: string; position: number }): Promise<QueueDetail> =>
      api.post(`${one(channelId, id)}/entries/${encodeURIComponent(entryId)}/move`, { position }, { schema: queueDetailSchema }),
    onMutate: ({ entryId, position }) => {
      const key = oneKey(channelId, id);
      const before = queryClient.getQueryData<QueueDetail>(key);
      if (!before) return { before };
      const list = [...before.entries];
      const from = list.findIndex((e) => e.id === entryId);
      if (from < 0) return { before };
      const [moved] = list.splice(from, 1);
      list.splice(Math.min(position - 1, list.length), 0, moved!);
      queryClient.setQueryData<QueueDetail>(key, { ...before, entries: list.map((e, i) => ({ ...e, position: i + 1 })) });
      return { before };
    },
    onError: (_e, _v, context) => {
      if (context?.before) queryClient.setQueryData(oneKey(channelId, id), context.before);
    },
    onSuccess: store,
  });
}

export function useDeleteQueue(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(one(channelId, id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listQueryOptions(channelId).queryKey, exact: true }),
  });
}

/** Keeps the channel's queues current while the page is open; on (re)connect everything is fetched again. */
export function useLiveQueues(channelId: string): LiveConnection {
  const queryClient = useQueryClient();
  const onData = useCallback(
    (raw: string) => {
      const message = parseFrame(raw, queueSocketMessageSchema);
      if (!message || message.type === 'pong') return;
      if (message.type === 'queue.updated') {
        const full = message.data.entries.length >= message.data.size;
        // A long line comes cut: fetch it whole.
        if (full) queryClient.setQueryData(oneKey(channelId, message.data.id), message.data);
        else void queryClient.invalidateQueries({ queryKey: oneKey(channelId, message.data.id), exact: true });
      } else {
        queryClient.removeQueries({ queryKey: oneKey(channelId, message.data.id), exact: true });
      }
      void queryClient.invalidateQueries({ queryKey: listQueryOptions(channelId).queryKey, exact: true });
    },
    [channelId, queryClient],
  );
  return useLiveSocket(`/api/2/channels/${encodeURIComponent(channelId)}/queues-ws`, onData, {
    authenticated: true,
    share: true,
    onOpen: () => void queryClient.invalidateQueries({ queryKey: listKey(channelId) }),
  });
}
