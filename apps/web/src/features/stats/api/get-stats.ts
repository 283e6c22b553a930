import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { statsSchema } from '@greenroom/contracts/api/stats';
import { api } from '../../../lib/api-client';

/** The channel's stats for a range (from the rollups); the previous range stays shown while the next loads. */
export function useStats(channelId: string, range: { from: string; to: string }) {
  return useQuery({
    queryKey: ['channels', channelId, 'stats', range.from, range.to],
    queryFn: ({ signal }) =>
      api.get(`/api/2/channels/${encodeURIComponent(channelId)}/stats`, { query: range, schema: statsSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorToast: false },
  });
}
