import { RoulettePage } from '../../../features/loyalty/components/roulette-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/gambling/roulette-settings` (Editor). */
export function Component() {
  return <RoulettePage channelId={useCurrentChannel().id} />;
}
