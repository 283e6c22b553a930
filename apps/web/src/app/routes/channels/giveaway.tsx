import { useParams } from 'react-router';
import { GiveawayPage } from '../../../features/loyalty/components/giveaway-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/giveaways/:giveawayId` (Editor); `new` creates one. */
export function Component() {
  const { giveawayId = 'new' } = useParams();
  return <GiveawayPage key={giveawayId} channelId={useCurrentChannel().id} giveawayId={giveawayId} />;
}
