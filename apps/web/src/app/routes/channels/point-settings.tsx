import { PointsPage } from '../../../features/loyalty/components/points-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/gambling/point-settings` (Editor). */
export function Component() {
  return <PointsPage channelId={useCurrentChannel().id} />;
}
