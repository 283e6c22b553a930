import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../lib/api-client';

export function leaveChannel(channelId: string): Promise<void> {
  return api.post(`/api/2/channels/${encodeURIComponent(channelId)}/leave`);
}

/** Gives up one's own access to a channel; every cached channel query is dropped. */
export function useLeaveChannel(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => leaveChannel(channelId),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['channels'] });
    },
  });
}
