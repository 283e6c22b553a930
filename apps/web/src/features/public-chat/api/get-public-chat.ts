import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicChatHistorySchema, type PublicChatMessage } from '@greenroom/contracts/api/chat';
import { api } from '../../../lib/api-client';

export interface PublicChatPage {
  records: PublicChatMessage[];
  /** Position of the newest record: pass as `after` to catch up after a reconnect. */
  head: string | null;
}

/** Recent public chat of a channel (no login; only public fields), or with `after` what was stored after that position. */
export function getPublicChat(channelId: string, signal?: AbortSignal, after?: string): Promise<PublicChatPage> {
  return api.get(`/api/2/public/channels/${encodeURIComponent(channelId)}/chat/messages`, {
    query: { after },
    schema: publicChatHistorySchema,
    signal,
  });
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
