import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { platformModeSchema, signinProvidersSchema } from '@greenroom/contracts/api/user';
import { api } from '../lib/api-client';

/** Answer of GET /api/2/auth/providers, composed from the shared contract schemas. */
export const authProvidersSchema = z.object({ providers: signinProvidersSchema, platforms: platformModeSchema });
export type AuthProviders = z.infer<typeof authProvidersSchema>;

export function getAuthProviders(signal?: AbortSignal): Promise<AuthProviders> {
  return api.get('/api/2/auth/providers', { schema: authProvidersSchema, signal });
}

export function getAuthProvidersQueryOptions() {
  return queryOptions({
    queryKey: ['auth', 'providers'],
    queryFn: ({ signal }) => getAuthProviders(signal),
    staleTime: Infinity,
    meta: { errorToast: false },
  });
}

/** Sign-in providers and whether the platforms are the local emulator (public). */
export function useAuthProviders() {
  return useQuery(getAuthProvidersQueryOptions());
}
