import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { hasLevel, type AccessLevelValue } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import { ErrorAlert } from '../../../components/error-alert';
import { FullHeightLoader } from '../../../components/full-height-loader';
import { PageState } from '../../../components/page-state';
import { isApiError } from '../../../lib/api-client';
import { TitleScope } from '../../../lib/document-title';
import { useChannel } from '../../../api/get-channel';
import { ChannelNotFound } from '../../../features/channel-shell/components/channel-not-found';

/**
 * A shell-less popout page of a channel: loads the channel and checks the caller's level before rendering. The
 * window is titled "{title} · {channel} · Greenroom" (what the page adds comes first).
 */
export function PopoutChannelGate({
  channelId,
  minLevel,
  title,
  children,
}: {
  channelId: string;
  minLevel: AccessLevelValue;
  title: string;
  children: (channel: Channel) => ReactNode;
}) {
  const channel = useChannel(channelId);
  let content: ReactNode;
  if (channel.isPending) content = <FullHeightLoader label="Loading channel" />;
  else if (channel.isError) content = isApiError(channel.error, 404) ? <ChannelNotFound /> : <ErrorAlert error={channel.error} m="md" />;
  else if (!hasLevel(channel.data.access_level, minLevel)) {
    content = (
      <PageState
        order={1}
        color="red"
        icon={<IconLock size={28} />}
        title="You do not have access"
        description="Your role in this channel does not include this page."
      />
    );
  } else content = <main>{children(channel.data)}</main>;
  return (
    <TitleScope title={channel.data?.display_name}>
      <TitleScope title={channel.isError ? undefined : title}>{content}</TitleScope>
    </TitleScope>
  );
}
