import { useMutation, useQueryClient } from '@tanstack/react-query';
import { inviteAcceptedSchema, type InviteAccepted } from '@greenroom/contracts/api/staff';
import { api } from '../../../lib/api-client';
import { getInviteQueryOptions } from './get-invite';

export function acceptInvite(inviteId: string): Promise<InviteAccepted> {
  return api.post(`/api/2/channel-invites/${encodeURIComponent(inviteId)}/accept`, undefined, { schema: inviteAcceptedSchema });
}

/** Accepts an invitation. On success the channel lists reload; when it can no longer be used, the page re-reads its state. */
export function useAcceptInvite(inviteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => acceptInvite(inviteId),
    // The page shows the state (expired, used, revoked) itself.
    meta: { errorToast: [410] },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['channels'] }),
    onError: () => queryClient.invalidateQueries({ queryKey: getInviteQueryOptions(inviteId).queryKey }),
  });
}
