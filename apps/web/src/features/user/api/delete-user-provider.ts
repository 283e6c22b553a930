import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserProvider } from '@greenroom/contracts/api/user';
import { api } from '../../../lib/api-client';
import { getUserProvidersQueryOptions } from './get-user-providers';

export function deleteUserProvider(id: string): Promise<void> {
  return api.delete(`/api/2/user/providers/${encodeURIComponent(id)}`);
}

/** Removes a sign-in connection: it leaves the cache at once, then the list refreshes. */
export function useDeleteUserProvider() {
  const queryClient = useQueryClient();
  const { queryKey } = getUserProvidersQueryOptions();
  return useMutation({
    mutationFn: deleteUserProvider,
    onSuccess: async (_result, id) => {
      queryClient.setQueryData<UserProvider[]>(queryKey, (list) => list?.filter((item) => item.id !== id));
      await queryClient.invalidateQueries({ queryKey });
    },
  });
}
