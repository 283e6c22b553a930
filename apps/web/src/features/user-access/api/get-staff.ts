import { queryOptions, useQuery } from '@tanstack/react-query';
import { staffListSchema, type StaffMember } from '@greenroom/contracts/api/staff';
import { api } from '../../../lib/api-client';

export function getStaff(channelId: string, signal?: AbortSignal): Promise<StaffMember[]> {
  return api.get(`/api/2/channels/${encodeURIComponent(channelId)}/users`, { schema: staffListSchema, signal });
}

export function getStaffQueryOptions(channelId: string) {
  return queryOptions({
    queryKey: ['channels', channelId, 'staff'],
    queryFn: ({ signal }) => getStaff(channelId, signal),
    meta: { errorToast: false },
  });
}

/** The channel's staff (Admins only), highest level first. */
export function useStaff(channelId: string) {
  return useQuery(getStaffQueryOptions(channelId));
}
