import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffMember } from '@greenroom/contracts/api/staff';
import { api } from '../../../lib/api-client';
import { getAuditLogQueryOptions } from './get-audit-log';
import { getInvitesQueryOptions } from './get-invites';
import { getStaffQueryOptions } from './get-staff';

export function removeStaff(channelId: string, userId: string): Promise<void> {
  return api.delete(`/api/2/channels/${encodeURIComponent(channelId)}/users/${encodeURIComponent(userId)}`);
}

/** Removes someone's access: they leave the cache at once, then the lists refresh. */
export function useRemoveStaff(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getStaffQueryOptions(channelId);
  return useMutation({
    mutationFn: (userId: string) => removeStaff(channelId, userId),
    onSuccess: async (_result, userId) => {
      queryClient.setQueryData<StaffMember[]>(queryKey, (list) => list?.filter((m) => m.user_id !== userId));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey }),
        queryClient.invalidateQueries({ queryKey: getInvitesQueryOptions(channelId).queryKey }),
        queryClient.invalidateQueries({ queryKey: getAuditLogQueryOptions(channelId).queryKey }),
      ]);
    },
  });
}
