import { can } from '@greenroom/contracts/abilities';
import { ActivityFeed } from '../../../features/activity-feed/components/activity-feed';
import { ConnectionStatus } from '../../../features/channel-providers/components/connection-status';
import { useLiveChannelProviders } from '../../../api/live-channel-providers';
import { DashboardPage } from '../../../features/dashboard/components/dashboard-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId` (index): the channel dashboard, with the live platforms and the recent activity. */
export function Component() {
  const channel = useCurrentChannel();
  return can(channel.access_level, 'platforms.view') ? (
    <StaffDashboard />
  ) : (
    <DashboardPage channel={channel} providers={{ data: [], isPending: false, error: null }} renderStatus={() => null} />
  );
}

function StaffDashboard() {
  const channel = useCurrentChannel();
  const providers = useLiveChannelProviders(channel.id);
  return (
    <DashboardPage
      channel={channel}
      providers={providers}
      renderStatus={(p) => <ConnectionStatus provider={p} />}
      activity={can(channel.access_level, 'activity.read') ? <ActivityFeed channelId={channel.id} compact /> : undefined}
    />
  );
}
