import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../../lib/api-client';
import { clearAccessToken } from '../../../lib/auth-token';
import { LEAVE_WITHOUT_ASKING } from '../../../components/unsaved-changes';

/** Revokes the session on the server. */
export function signOut(): Promise<void> {
  return api.post('/api/2/auth/sign-out');
}

/** Sign out: clears stored credentials and goes to /sign-in, even when the server call fails. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      try {
        await signOut();
      } finally {
        clearAccessToken();
        await navigate('/sign-in', { replace: true, state: LEAVE_WITHOUT_ASKING });
        queryClient.clear();
      }
    },
    meta: { errorToast: false },
  });
}
