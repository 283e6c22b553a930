import { ChannelOverview } from '../../../features/dashboard/components/channel-overview';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId` (index): the channel dashboard. */
export function Component() {
  const channel = useCurrentChannel();
  return <ChannelOverview channel={channel} />;
}
