import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicChatHistorySchema, type PublicChatMessage } from '@greenroom/contracts/api/chat';
import { api } from '../../../lib/api-client';

/** Recent public chat of a channel (no login; only public fields). */
export async function getPublicChat(channelId: string, signal?: AbortSignal): Promise<PublicChatMessage[]> {
  const body = await api.get(`/api/2/public/channels/${encodeURIComponent(channelId)}/chat/messages`, {
    schema: publicChatHistorySchema,
    signal,
  });
  return body.records;
}

export function getPublicChatQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['public', 'channels', channelId, 'chat'],
    queryFn: ({ signal }) => getPublicChat(channelId, signal),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { errorToast: false }, // the popout shows the error itself (no toasts over an OBS overlay)
  });
}

export function usePublicChat(channelId: string) {
  return useQuery(getPublicChatQueryOptions(channelId));
}
