import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { ConnectedLanding } from '../../../components/connected-landing';
import { getUserProvidersQueryOptions } from '../api/get-user-providers';

/**
 * Landing page of the connect popup. In a popup the opener reads the hash and closes it; opened
 * directly (popup blocked, the whole page went through the flow) it confirms and links back to /.
 */
export function ProviderConnected() {
  const queryClient = useQueryClient();
  const inPopup = typeof window !== 'undefined' && window.opener != null;

  useEffect(() => {
    if (!inPopup) void queryClient.invalidateQueries({ queryKey: getUserProvidersQueryOptions().queryKey });
  }, [inPopup, queryClient]);

  return (
    <ConnectedLanding
      text={inPopup ? 'The connection was added. This window closes by itself.' : 'The connection was added to your account.'}
      action={
        !inPopup && (
          <Button component={Link} to="/" mt="xs">
            Back to Greenroom
          </Button>
        )
      }
    />
  );
}
