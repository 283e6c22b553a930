import { queryOptions, useQuery } from '@tanstack/react-query';
import { userSchema, type User } from '@greenroom/contracts/api/user';
import { api } from '../../../lib/api-client';

export function getUser(signal?: AbortSignal): Promise<User> {
  return api.get('/api/2/user', { schema: userSchema, signal });
}

export function getUserQueryOptions() {
  return queryOptions({ queryKey: ['user'], queryFn: ({ signal }) => getUser(signal), meta: { errorToast: false } });
}

/** The signed-in user. Loaded once by the signed-in layout, then read from the cache. */
export function useUser() {
  return useQuery(getUserQueryOptions());
}
