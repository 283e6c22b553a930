import { queryOptions, useQuery } from '@tanstack/react-query';
import { inviteViewSchema, type InviteView } from '@greenroom/contracts/api/staff';
import { api } from '../../../lib/api-client';

export function getInvite(inviteId: string, signal?: AbortSignal): Promise<InviteView> {
  return api.get(`/api/2/channel-invites/${encodeURIComponent(inviteId)}`, { schema: inviteViewSchema, signal });
}

export function getInviteQueryOptions(inviteId: string) {
  // The page shows every failure itself (unknown invitation, network).
  return queryOptions({
    queryKey: ['channel-invites', inviteId],
    queryFn: ({ signal }) => getInvite(inviteId, signal),
    meta: { errorToast: false },
    staleTime: 0,
  });
}

/** What an invitation link grants, and whether it can still be used. */
export function useInvite(inviteId: string) {
  return useQuery(getInviteQueryOptions(inviteId));
}
