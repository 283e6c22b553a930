import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Deletes the signed-in user's account; `username` must equal their display name (checked by the server). */
export function deleteUser(username: string): Promise<void> {
  return api.delete('/api/2/user', { query: { username } });
}

export function useDeleteUser() {
  return useMutation({ mutationFn: deleteUser, meta: { errorToast: false } });
}
