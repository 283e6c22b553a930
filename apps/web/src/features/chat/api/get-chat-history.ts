import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { chatHistorySchema } from '@greenroom/contracts/api/chat';
import type { ChatGap, ChatMessage } from '@greenroom/contracts/api/events';
import { api } from '../../../lib/api-client';

export const CHAT_HISTORY_PAGE_SIZE = 200;
/** The first page fills the view with the most recent log at once (the API's maximum). */
export const CHAT_HISTORY_FIRST_PAGE_SIZE = 500;

export interface ChatHistoryPage {
  records: ChatMessage[];
  cursor: string | null;
  /** Position of the newest record (pass as `after` to get what follows). */
  head: string | null;
  gaps: ChatGap[];
}

/**
 * One page of the persisted chat log, newest first; pass `before` = the previous page's cursor for
 * older ones. With `after` (a position): what was stored after it, oldest first (a reconnect's catch-up).
 */
export function getChatHistory(
  channelId: string,
  params: { before?: string | null; after?: string | null; limit?: number },
  signal?: AbortSignal,
): Promise<ChatHistoryPage> {
  return api.get(`/api/2/channels/${encodeURIComponent(channelId)}/chat/messages`, {
    query: { before: params.before, after: params.after, limit: params.limit ?? CHAT_HISTORY_PAGE_SIZE },
    schema: chatHistorySchema,
    signal,
  });
}

export function getChatHistoryQueryOptions(channelId: string) {
  return infiniteQueryOptions({
    queryKey: ['channels', channelId, 'chat', 'history'],
    queryFn: ({ pageParam, signal }) =>
      getChatHistory(channelId, { before: pageParam, limit: pageParam ? CHAT_HISTORY_PAGE_SIZE : CHAT_HISTORY_FIRST_PAGE_SIZE }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor,
    // The live socket keeps the view current; the log is read once per visit.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

/** The chat log behind the live view (older pages load on scroll to the top). */
export function useChatHistory(channelId: string) {
  return useInfiniteQuery(getChatHistoryQueryOptions(channelId));
}
