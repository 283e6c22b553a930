import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Re-sends an activity to the channel's widgets. */
export function replayActivity(channelId: string, activityId: string): Promise<void> {
  return api.post(`/api/2/channels/${encodeURIComponent(channelId)}/activity/${encodeURIComponent(activityId)}/replay`);
}

export function useReplayActivity(channelId: string) {
  // The feed shows the one toast.
  return useMutation({ mutationFn: (activityId: string) => replayActivity(channelId, activityId), meta: { errorToast: false } });
}
