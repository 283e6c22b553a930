import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccessLevelValue } from '@greenroom/contracts/access';
import { staffMemberSchema, type StaffMember } from '@greenroom/contracts/api/staff';
import { api } from '../../../lib/api-client';
import { getAuditLogQueryOptions } from './get-audit-log';
import { getInvitesQueryOptions } from './get-invites';
import { getStaffQueryOptions } from './get-staff';

export function updateStaffLevel(channelId: string, userId: string, level: AccessLevelValue): Promise<StaffMember> {
  return api.patch(
    `/api/2/channels/${encodeURIComponent(channelId)}/users/${encodeURIComponent(userId)}`,
    { level },
    { schema: staffMemberSchema },
  );
}

/** Changes a staff member's level; the row is replaced in the cache with the server's answer. */
export function useUpdateStaffLevel(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getStaffQueryOptions(channelId);
  return useMutation({
    mutationFn: ({ userId, level }: { userId: string; level: AccessLevelValue }) => updateStaffLevel(channelId, userId, level),
    onSuccess: async (member) => {
      queryClient.setQueryData<StaffMember[]>(queryKey, (list) => list?.map((m) => (m.user_id === member.user_id ? member : m)));
      // A demotion can revoke the member's pending invitations.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: getInvitesQueryOptions(channelId).queryKey }),
        queryClient.invalidateQueries({ queryKey: getAuditLogQueryOptions(channelId).queryKey }),
      ]);
    },
  });
}
