import { useQuery } from '@tanstack/react-query';
import { liveStatsSchema } from '@greenroom/contracts/api/stats';
import { api } from '../../../lib/api-client';

/** Streams in progress (uptime) and chat messages per minute of the last 30 minutes; refreshed every 30 s. */
export function useLiveStats(channelId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['channels', channelId, 'stats', 'live'],
    queryFn: ({ signal }) => api.get(`/api/2/channels/${encodeURIComponent(channelId)}/stats/live`, { schema: liveStatsSchema, signal }),
    enabled,
    refetchInterval: 30_000,
    meta: { errorToast: false },
  });
}
