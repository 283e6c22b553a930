import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  rouletteSettingsResponseSchema,
  slotsSettingsResponseSchema,
  type RouletteSettingsBody,
  type RouletteSettingsResponse,
  type SlotsSettingsBody,
  type SlotsSettingsResponse,
} from '@greenroom/contracts/api/games';
import { api } from '../../../lib/api-client';

const path = (channelId: string, game: 'slots' | 'roulette') => `/api/2/channels/${encodeURIComponent(channelId)}/games/${game}`;

function slotsQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'games', 'slots'],
    queryFn: ({ signal }) => api.get(path(channelId, 'slots'), { schema: slotsSettingsResponseSchema, signal }),
    meta: { errorToast: false },
  });
}

function rouletteQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'games', 'roulette'],
    queryFn: ({ signal }) => api.get(path(channelId, 'roulette'), { schema: rouletteSettingsResponseSchema, signal }),
    meta: { errorToast: false },
  });
}

export function useSlotsSettings(channelId: string) {
  return useQuery(slotsQueryOptions(channelId));
}

export function useRouletteSettings(channelId: string) {
  return useQuery(rouletteQueryOptions(channelId));
}

export function useSaveSlots(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SlotsSettingsBody): Promise<SlotsSettingsResponse> =>
      api.put(path(channelId, 'slots'), body, { schema: slotsSettingsResponseSchema }),
    meta: { errorToast: false },
    onSuccess: (saved) => queryClient.setQueryData(slotsQueryOptions(channelId).queryKey, saved),
  });
}

export function useSaveRoulette(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RouletteSettingsBody): Promise<RouletteSettingsResponse> =>
      api.put(path(channelId, 'roulette'), body, { schema: rouletteSettingsResponseSchema }),
    meta: { errorToast: false },
    onSuccess: (saved) => queryClient.setQueryData(rouletteQueryOptions(channelId).queryKey, saved),
  });
}
