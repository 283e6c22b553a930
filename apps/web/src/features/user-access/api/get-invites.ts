import { queryOptions, useQuery } from '@tanstack/react-query';
import { channelUserInviteListSchema, type ChannelUserInvite } from '@greenroom/contracts/api/staff';
import { api } from '../../../lib/api-client';

export function getInvites(channelId: string, signal?: AbortSignal): Promise<ChannelUserInvite[]> {
  return api.get(`/api/2/channels/${encodeURIComponent(channelId)}/user-invites`, { schema: channelUserInviteListSchema, signal });
}

export function getInvitesQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'user-invites'],
    queryFn: ({ signal }) => getInvites(channelId, signal),
    meta: { errorToast: false },
  });
}

/** Pending invitations of the channel, newest first. */
export function useInvites(channelId: string) {
  return useQuery(getInvitesQueryOptions(channelId));
}
