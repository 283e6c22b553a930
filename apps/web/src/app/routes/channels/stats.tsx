import { StatsPage } from '../../../features/stats/components/stats-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/stats` (Editor+). */
export function Component() {
  const channel = useCurrentChannel();
  return <StatsPage key={channel.id} channelId={channel.id} channelName={channel.display_name} />;
}
