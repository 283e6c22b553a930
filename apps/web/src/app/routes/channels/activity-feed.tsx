import { ActivityFeed } from '../../../features/activity-feed/components/activity-feed';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/activity-feed`: the channel's activity (Mod+). */
export function Component() {
  const channel = useCurrentChannel();
  return <ActivityFeed key={channel.id} channelId={channel.id} />;
}
