import { GiveawaysPage } from '../../../features/loyalty/components/giveaways-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/giveaways` (Editor). */
export function Component() {
  return <GiveawaysPage channelId={useCurrentChannel().id} />;
}
