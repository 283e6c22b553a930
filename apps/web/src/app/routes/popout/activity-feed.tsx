import { useParams } from 'react-router';
import { AccessLevel } from '@greenroom/contracts/access';
import { ActivityFeed } from '../../../features/activity-feed/components/activity-feed';
import { PopoutChannelGate } from './popout-channel-gate';

/** `/popout/channels/:channelId/activity-feed`: the activity feed without the shell (Mod+). */
export function Component() {
  const { channelId = '' } = useParams();
  return (
    <PopoutChannelGate channelId={channelId} minLevel={AccessLevel.MOD} title="Activity Feed">
      {(channel) => <ActivityFeed channelId={channel.id} compact />}
    </PopoutChannelGate>
  );
}
