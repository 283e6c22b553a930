import { queryOptions, useQuery } from '@tanstack/react-query';
import { youtubeQuotaSchema } from '@greenroom/contracts/api/channel-providers';
import { api } from '../../../lib/api-client';

/** The quota changes with every poll: refreshed every minute while the page is open. */
const REFRESH_MS = 60_000;

export function getYoutubeQuotaQueryOptions(channelId: string, channelProviderId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'providers', channelProviderId, 'youtube-quota'],
    queryFn: ({ signal }) =>
      api.get(`/api/2/channels/${encodeURIComponent(channelId)}/providers/${encodeURIComponent(channelProviderId)}/youtube-quota`, {
        schema: youtubeQuotaSchema,
        signal,
      }),
    refetchInterval: REFRESH_MS,
  });
}

/** The YouTube API quota this connection spends from today. */
export function useYoutubeQuota(channelId: string, channelProviderId: string) {
  return useQuery({ ...getYoutubeQuotaQueryOptions(channelId, channelProviderId), meta: { errorToast: false } });
}
