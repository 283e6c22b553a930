import { useParams } from 'react-router';
import { QueuePage } from '../../../features/loyalty/components/queue-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/queues/:queueId` (Editor); `new` creates one. */
export function Component() {
  const { queueId = 'new' } = useParams();
  return <QueuePage key={queueId} channelId={useCurrentChannel().id} queueId={queueId} />;
}
