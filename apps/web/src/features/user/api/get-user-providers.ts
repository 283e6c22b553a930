import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { userProviderSchema, type UserProvider } from '@greenroom/contracts/api/user';
import { api } from '../../../lib/api-client';

export function getUserProviders(signal?: AbortSignal): Promise<UserProvider[]> {
  return api.get('/api/2/user/providers', { schema: z.array(userProviderSchema), signal });
}

export function getUserProvidersQueryOptions() {
  return queryOptions({ queryKey: ['user', 'providers'], queryFn: ({ signal }) => getUserProviders(signal), meta: { errorToast: false } });
}

/** The user's sign-in connections (user providers). */
export function useUserProviders() {
  return useQuery(getUserProvidersQueryOptions());
}
