import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  nowPlayingSchema,
  songRequestListSchema,
  songRequestSchema,
  songRequestSettingsSchema,
  songRequestSocketMessageSchema,
  type SongRequest,
  type SongRequestList,
  type SongRequestSettings,
  type SongRequestSettingsBody,
} from '@greenroom/contracts/api/spotify';
import { api } from '../../../lib/api-client';
import { parseFrame, useLiveSocket, type LiveConnection } from '../../../lib/live-socket';

const base = (channelId: string) => `/api/2/channels/${encodeURIComponent(channelId)}/spotify`;
const key = (channelId: string) => ['channels', channelId, 'spotify'] as const;

function requestsQuery(channelId: string) {
  return queryOptions({
    queryKey: [...key(channelId), 'requests'],
    queryFn: ({ signal }) => api.get(`${base(channelId)}/requests`, { schema: songRequestListSchema, signal }),
    meta: { errorToast: false },
  });
}

function nowPlayingQuery(channelId: string) {
  return queryOptions({
    queryKey: [...key(channelId), 'now-playing'],
    queryFn: ({ signal }) => api.get(`${base(channelId)}/now-playing`, { schema: nowPlayingSchema, signal }),
    meta: { errorToast: false },
  });
}

function settingsQuery(channelId: string) {
  return queryOptions({
    queryKey: [...key(channelId), 'request-settings'],
    queryFn: ({ signal }) => api.get(`${base(channelId)}/request-settings`, { schema: songRequestSettingsSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useSongRequests(channelId: string) {
  return useQuery(requestsQuery(channelId));
}

/** What Spotify plays; asked again every 15 s while the page is open (Spotify has no push for it). */
export function useNowPlaying(channelId: string) {
  return useQuery({ ...nowPlayingQuery(channelId), refetchInterval: 15_000 });
}

export function useSongRequestSettings(channelId: string, enabled: boolean) {
  return useQuery({ ...settingsQuery(channelId), enabled });
}

export function useSaveSongRequestSettings(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SongRequestSettingsBody): Promise<SongRequestSettings> =>
      api.put(`${base(channelId)}/request-settings`, body, { schema: songRequestSettingsSchema }),
    meta: { errorToast: false },
    onSuccess: (saved) => queryClient.setQueryData(settingsQuery(channelId).queryKey, saved),
  });
}

/** Puts a changed request in the cached lists: active ones stay oldest first, finished ones go to the top of "recent". */
function merge(list: SongRequestList, r: SongRequest): SongRequestList {
  const active = list.active.filter((x) => x.id !== r.id);
  const recent = list.recent.filter((x) => x.id !== r.id);
  if (r.status === 'pending' || r.status === 'queued' || r.status === 'playing') {
    active.push(r);
    active.sort((a, b) => a.requested_at.localeCompare(b.requested_at) || a.id.localeCompare(b.id));
    return { active, recent };
  }
  return { active, recent: [r, ...recent].slice(0, Math.max(20, list.recent.length)) };
}

export function useRemoveSongRequest(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<SongRequest> =>
      api.delete(`${base(channelId)}/requests/${encodeURIComponent(id)}`, { schema: songRequestSchema }),
    onSuccess: (removed) =>
      queryClient.setQueryData<SongRequestList>(requestsQuery(channelId).queryKey, (list) => (list ? merge(list, removed) : list)),
  });
}

export function useSkipSong(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<SongRequestList> => api.post(`${base(channelId)}/skip`, undefined, { schema: songRequestListSchema }),
    onSuccess: async (list) => {
      queryClient.setQueryData(requestsQuery(channelId).queryKey, list);
      await queryClient.invalidateQueries({ queryKey: nowPlayingQuery(channelId).queryKey });
    },
  });
}

/** Keeps the request list current while the page is open; on (re)connect it is fetched again. */
export function useLiveSongRequests(channelId: string): LiveConnection {
  const queryClient = useQueryClient();
  const onData = useCallback(
    (raw: string) => {
      const message = parseFrame(raw, songRequestSocketMessageSchema);
      if (!message || message.type === 'pong') return;
      const changed = message.data.request;
      queryClient.setQueryData<SongRequestList>(requestsQuery(channelId).queryKey, (list) => (list ? merge(list, changed) : list));
      if (changed.status === 'playing') void queryClient.invalidateQueries({ queryKey: nowPlayingQuery(channelId).queryKey });
    },
    [channelId, queryClient],
  );
  return useLiveSocket(`${base(channelId)}/requests-ws`, onData, {
    authenticated: true,
    share: true,
    onOpen: () => void queryClient.invalidateQueries({ queryKey: requestsQuery(channelId).queryKey }),
  });
}
