import { QueuesPage } from '../../../features/loyalty/components/queues-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/queues` (Editor). */
export function Component() {
  return <QueuesPage channelId={useCurrentChannel().id} />;
}
