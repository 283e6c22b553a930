import { useMutation, useQueryClient } from '@tanstack/react-query';
import { channelUserInviteSchema, type ChannelUserInvite, type CreateInviteBody } from '@greenroom/contracts/api/staff';
import { api } from '../../../lib/api-client';
import { getAuditLogQueryOptions } from './get-audit-log';
import { getInvitesQueryOptions } from './get-invites';

export function createInvite(channelId: string, body: CreateInviteBody): Promise<ChannelUserInvite> {
  return api.post(`/api/2/channels/${encodeURIComponent(channelId)}/user-invites`, body, { schema: channelUserInviteSchema });
}

/** Creates an invitation; it is put at the front of the pending list. */
export function useCreateInvite(channelId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = getInvitesQueryOptions(channelId);
  return useMutation({
    mutationFn: (body: CreateInviteBody) => createInvite(channelId, body),
    meta: { errorToast: false }, // the form shows the error
    onSuccess: async (invite) => {
      queryClient.setQueryData<ChannelUserInvite[]>(queryKey, (list) => [invite, ...(list ?? []).filter((i) => i.id !== invite.id)]);
      await queryClient.invalidateQueries({ queryKey: getAuditLogQueryOptions(channelId).queryKey });
    },
  });
}
