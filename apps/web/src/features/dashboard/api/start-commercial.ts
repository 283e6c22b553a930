import { useMutation } from '@tanstack/react-query';
import { commercialResultSchema, type CommercialLength, type CommercialResult } from '@greenroom/contracts/api/ads';
import { api } from '../../../lib/api-client';

/** "Run an ad" on one connection (Twitch); errors (offline, cooldown, not an affiliate) are the red toast. */
export function useStartCommercial(channelId: string, channelProviderId: string) {
  return useMutation({
    mutationFn: (lengthSeconds: CommercialLength): Promise<CommercialResult> =>
      api.post(
        `/api/2/channels/${encodeURIComponent(channelId)}/providers/${encodeURIComponent(channelProviderId)}/commercial`,
        { length_seconds: lengthSeconds },
        { schema: commercialResultSchema },
      ),
  });
}
