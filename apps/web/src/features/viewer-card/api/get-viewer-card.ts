import { queryOptions, useQuery } from '@tanstack/react-query';
import { viewerCardSchema, type ViewerCard } from '@greenroom/contracts/api/chat';
import { api } from '../../../lib/api-client';

export function getViewerCard(channelId: string, provider: string, providerViewerId: string, signal?: AbortSignal): Promise<ViewerCard> {
  return api.get(
    `/api/2/channels/${encodeURIComponent(channelId)}/viewers/${encodeURIComponent(provider)}/${encodeURIComponent(providerViewerId)}`,
    { schema: viewerCardSchema, signal },
  );
}

export function getViewerCardQueryOptions(channelId: string, provider: string, providerViewerId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'viewers', provider, providerViewerId],
    queryFn: ({ signal }) => getViewerCard(channelId, provider, providerViewerId, signal),
  });
}

/** A viewer of the channel: profile, counts, recent messages and moderation history. */
export function useViewerCard(channelId: string, provider: string, providerViewerId: string) {
  return useQuery(getViewerCardQueryOptions(channelId, provider, providerViewerId));
}
