import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { LEAVE_WITHOUT_ASKING } from '../components/unsaved-changes';
import { setSessionEndedHandler, signInPathFor } from '../lib/api-client';
import { setLiveAccessLostHandler } from '../lib/live-access';
import { createQueryClient } from '../lib/query-client';
import { installStaleChunkGuard } from '../lib/stale-chunk';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));

  useEffect(() => installStaleChunkGuard(), []);

  useEffect(() => {
    // A 401 "unauthenticated"/"user_no_longer_exists": the token is already cleared; go to /sign-in
    // with `next` (unless at /), then drop the cached data of the ended session.
    setSessionEndedHandler(() => {
      if (window.location.pathname === '/sign-in') return;
      void router.navigate(signInPathFor(window.location), { replace: true, state: LEAVE_WITHOUT_ASKING }).then(() => queryClient.clear());
    });
    // A live socket closed because access to a channel ended (removed, lowered, channel deleted): the
    // channel pages refetch what the user may still see (the shell then shows "Channel not found" or
    // hides what is no longer theirs).
    setLiveAccessLostHandler(() => void queryClient.invalidateQueries({ queryKey: ['channels'] }));
  }, [router, queryClient]);

  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
