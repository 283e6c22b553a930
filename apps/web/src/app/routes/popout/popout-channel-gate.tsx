import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { hasLevel, type AccessLevelValue } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import { ErrorAlert } from '../../../components/error-alert';
import { FullHeightLoader } from '../../../components/full-height-loader';
import { PageState } from '../../../components/page-state';
import { isApiError } from '../../../lib/api-client';
import { useChannel } from '../../../api/get-channel';
import { ChannelNotFound } from '../../../features/channel-shell/components/channel-not-found';

/** A shell-less popout page of a channel: loads the channel and checks the caller's level before rendering. */
export function PopoutChannelGate({
  channelId,
  minLevel,
  children,
}: {
  channelId: string;
  minLevel: AccessLevelValue;
  children: (channel: Channel) => ReactNode;
}) {
  const channel = useChannel(channelId);
  if (channel.isPending) return <FullHeightLoader label="Loading channel" />;
  if (channel.isError) return isApiError(channel.error, 404) ? <ChannelNotFound /> : <ErrorAlert error={channel.error} m="md" />;
  if (!hasLevel(channel.data.access_level, minLevel)) {
    return (
      <PageState
        order={1}
        color="red"
        icon={<IconLock size={28} />}
        title="You do not have access"
        description="Your role in this channel does not include this page."
      />
    );
  }
  return <main>{children(channel.data)}</main>;
}
