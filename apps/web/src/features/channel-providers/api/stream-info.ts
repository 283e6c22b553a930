import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  categoryListSchema,
  streamInfoSchema,
  type CategoryDto,
  type StreamInfoDto,
  type UpdateStreamInfoBody,
} from '@greenroom/contracts/api/stream-info';
import { api } from '../../../lib/api-client';

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
