import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  categoryListSchema,
  categorySearchResultListSchema,
  streamInfoResultListSchema,
  type CategorySearchResultDto,
  type StreamInfoResultDto,
  type UpdateAllStreamInfoBody,
  streamInfoSchema,
  type CategoryDto,
  type StreamInfoDto,
  type UpdateStreamInfoBody,
} from '@greenroom/contracts/api/stream-info';
import { api } from '../lib/api-client';

const base = (channelId: string, channelProviderId: string) =>
  `/api/2/channels/${encodeURIComponent(channelId)}/providers/${encodeURIComponent(channelProviderId)}`;

export function getStreamInfoQueryOptions(channelId: string, channelProviderId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'providers', channelProviderId, 'stream-info'],
    queryFn: ({ signal }) => api.get(`${base(channelId, channelProviderId)}/stream-info`, { schema: streamInfoSchema, signal }),
  });
}

/** The connection's current title and category, read from the platform. */
export function useStreamInfo(channelId: string, channelProviderId: string, enabled: boolean) {
  return useQuery({ ...getStreamInfoQueryOptions(channelId, channelProviderId), enabled, meta: { errorToast: false } });
}

export function updateStreamInfo(channelId: string, channelProviderId: string, body: UpdateStreamInfoBody): Promise<StreamInfoDto> {
  return api.patch(`${base(channelId, channelProviderId)}/stream-info`, body, { schema: streamInfoSchema });
}

/** Saves title and/or category at the platform; the platform's answer replaces the cached info. */
export function useUpdateStreamInfo(channelId: string, channelProviderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateStreamInfoBody) => updateStreamInfo(channelId, channelProviderId, body),
    meta: { errorToast: false }, // the form shows the error next to its fields
    onSuccess: (info) => queryClient.setQueryData(getStreamInfoQueryOptions(channelId, channelProviderId).queryKey, info),
  });
}

/** Categories (games) matching `query` on the connection's platform. */
export function searchCategories(
  channelId: string,
  channelProviderId: string,
  query: string,
  signal?: AbortSignal,
): Promise<CategoryDto[]> {
  return api.get(`${base(channelId, channelProviderId)}/categories`, { query: { query }, schema: categoryListSchema, signal });
}

export function useCategorySearch(channelId: string, channelProviderId: string, query: string) {
  const trimmed = query.trim();
  return useQuery({
    queryKey: ['channels', channelId, 'providers', channelProviderId, 'categories', trimmed],
    queryFn: ({ signal }) => searchCategories(channelId, channelProviderId, trimmed, signal),
    enabled: trimmed.length > 0,
    staleTime: 60_000,
  });
}

/** Categories matching `query` on every connected platform with categories (each platform's own results). */
export function useCategorySearchAll(channelId: string, query: string) {
  const trimmed = query.trim();
  return useQuery({
    queryKey: ['channels', channelId, 'categories', trimmed],
    queryFn: ({ signal }): Promise<CategorySearchResultDto[]> =>
      api
        .get(`/api/2/channels/${encodeURIComponent(channelId)}/categories`, {
          query: { query: trimmed },
          schema: categorySearchResultListSchema,
          signal,
        })
        .then((r) => r.results),
    enabled: trimmed.length > 0,
    staleTime: 60_000,
    meta: { errorToast: false },
  });
}

/** Title and/or category on several platforms at once; one result per platform (some may fail). */
export function useUpdateAllStreamInfo(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAllStreamInfoBody): Promise<StreamInfoResultDto[]> =>
      api
        .patch(`/api/2/channels/${encodeURIComponent(channelId)}/stream-info`, body, { schema: streamInfoResultListSchema })
        .then((r) => r.results),
    meta: { errorToast: false },
    onSuccess: (results) => {
      for (const result of results) {
        if (result.ok && result.info) {
          queryClient.setQueryData(getStreamInfoQueryOptions(channelId, result.channel_provider_id).queryKey, result.info);
        }
      }
    },
  });
}
