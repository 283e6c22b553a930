import { Button, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { CHANNEL_PROVIDER_HASH_KEY } from '@greenroom/contracts/api/channel-providers';
import { ConnectedLanding } from '../../../components/connected-landing';
import { connectErrorOf } from '../../../lib/connect-popup';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { getChannelProviderQueryOptions, getChannelProvidersQueryOptions } from '../../../api/get-channel-providers';
import { connectedMessage } from '../hooks/use-connect-channel-provider';

/**
 * `/channel-provider-connected`: landing page of the channel connect flow. In a popup the opener reads
 * `#channel_provider_id=…` and closes it. Reached in the whole window (popup blocked, or from the register page),
 * it shows the toast and goes on to the new connection's page.
 */
export function ChannelProviderConnected() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const inPopup = typeof window !== 'undefined' && window.opener != null;
  const channelId = new URLSearchParams(location.search).get('channel_id');
  const channelProviderId = new URLSearchParams(location.hash.replace(/^#/, '')).get(CHANNEL_PROVIDER_HASH_KEY);
  const failure = connectErrorOf(location.hash);
  const forward = !inPopup && failure === null && channelId != null && channelProviderId != null;

  useEffect(() => {
    if (!forward) return;
    let cancelled = false;
    void queryClient.invalidateQueries({ queryKey: getChannelProvidersQueryOptions(channelId).queryKey });
    queryClient
      .fetchQuery(getChannelProviderQueryOptions(channelId, channelProviderId))
      .then((p) => {
        if (cancelled) return;
        notifySuccess(connectedMessage(p.provider));
        void navigate(`/channels/${channelId}/providers/${p.id}`, { replace: true });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        notifyError(error);
        void navigate(`/channels/${channelId}/providers`, { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [forward, channelId, channelProviderId, queryClient, navigate]);

  const back = !inPopup && (
    <Button component={Link} to={channelId ? `/channels/${channelId}/providers` : '/'} mt="xs">
      {channelId ? 'Back to Platforms' : 'Back to Greenroom'}
    </Button>
  );
  if (failure !== null)
    return <ConnectedLanding outcome="failed" text={inPopup ? `${failure} This window closes by itself.` : failure} action={back} />;
  if (channelProviderId === null)
    return (
      <ConnectedLanding
        outcome="nothing"
        text="This page finishes connecting a platform to a channel, and nothing was connected. Connect platforms from the channel's Platforms page."
        action={back}
      />
    );
  return (
    <ConnectedLanding
      icon={forward ? <Loader aria-label="Opening the platform" /> : undefined}
      text={
        inPopup
          ? 'The platform was connected to the channel. This window closes by itself.'
          : forward
            ? 'Opening the platform…'
            : 'The platform was connected to the channel.'
      }
      action={!forward && back}
    />
  );
}
