import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChannelUserInvite } from '@greenroom/contracts/api/staff';
import { api } from '../../../lib/api-client';
import { getAuditLogQueryOptions } from './get-audit-log';
import { getInvitesQueryOptions } from './get-invites';

export function revokeInvite(channelId: string, inviteId: string): Promise<void> {
  return api.delete(`/api/2/channels/${encodeURIComponent(channelId)}/user-invites/${encodeURIComponent(inviteId)}`);
}

/** Revokes a pending invitation: it leaves the list at once, then the list refreshes. */
export function useRevokeInvite(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getInvitesQueryOptions(channelId);
  return useMutation({
    mutationFn: (inviteId: string) => revokeInvite(channelId, inviteId),
    onSuccess: async (_result, inviteId) => {
      queryClient.setQueryData<ChannelUserInvite[]>(queryKey, (list) => list?.filter((i) => i.id !== inviteId));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey }),
        queryClient.invalidateQueries({ queryKey: getAuditLogQueryOptions(channelId).queryKey }),
      ]);
    },
  });
}
