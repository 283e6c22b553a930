import { useQuery } from '@tanstack/react-query';
import { liveStatsSchema } from '@greenroom/contracts/api/stats';
import { api } from '../../../lib/api-client';

/** How often the live stats refresh; and while a live connection has no stream yet (its uptime). */
const REFRESH_MS = 30_000;
const AWAITING_STREAM_MS = 2_000;

/**
 * Streams in progress (uptime) and chat messages per minute of the last 30 minutes; refreshed every 30 s, and every
 * 2 s while a connection in `liveConnectionIds` has no stream in progress yet (the stats job opens it within seconds
 * of seeing the platform live, so the uptime shows without waiting for the next 30 s refresh).
 */
export function useLiveStats(channelId: string, enabled: boolean, liveConnectionIds: readonly string[] = []) {
  return useQuery({
    queryKey: ['channels', channelId, 'stats', 'live'],
    queryFn: ({ signal }) => api.get(`/api/2/channels/${encodeURIComponent(channelId)}/stats/live`, { schema: liveStatsSchema, signal }),
    enabled,
    refetchInterval: (query) => {
      const streams = query.state.data?.streams ?? [];
      const awaiting = liveConnectionIds.some((id) => !streams.some((s) => s.channel_provider_id === id));
      return awaiting ? AWAITING_STREAM_MS : REFRESH_MS;
    },
    meta: { errorToast: false },
  });
}
