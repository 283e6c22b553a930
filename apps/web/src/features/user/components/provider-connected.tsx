import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { SYSTEM_BOT_HASH_KEY } from '@greenroom/contracts/api/system-bots';
import { ConnectedLanding } from '../../../components/connected-landing';
import { CONNECT_HASH_KEY, connectErrorOf } from '../../../lib/connect-popup';
import { getUserProvidersQueryOptions } from '../api/get-user-providers';

/**
 * Landing page of the connect popup. In a popup the opener reads the hash and closes it. Opened in the whole
 * window it says what happened: connected (the hash names the new connection), not connected (the platform's
 * answer in `#connect_error`), or — opened directly — that nothing was connected.
 */
export function ProviderConnected() {
  const queryClient = useQueryClient();
  const { hash } = useLocation();
  const inPopup = typeof window !== 'undefined' && window.opener != null;
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const failure = connectErrorOf(hash);
  const connected = failure === null && (params.has(CONNECT_HASH_KEY) || params.has(SYSTEM_BOT_HASH_KEY));

  useEffect(() => {
    if (!inPopup && connected) void queryClient.invalidateQueries({ queryKey: getUserProvidersQueryOptions().queryKey });
  }, [inPopup, connected, queryClient]);

  const back = !inPopup && (
    <Button component={Link} to="/" mt="xs">
      Back to Greenroom
    </Button>
  );
  if (failure !== null)
    return <ConnectedLanding outcome="failed" text={inPopup ? `${failure} This window closes by itself.` : failure} action={back} />;
  if (!connected)
    return (
      <ConnectedLanding
        outcome="nothing"
        text="This page finishes connecting an account, and nothing was connected. Connect accounts from Settings or the Platforms page."
        action={back}
      />
    );
  return (
    <ConnectedLanding
      text={inPopup ? 'The connection was added. This window closes by itself.' : 'The connection was added to your account.'}
      action={back}
    />
  );
}
