import { SlotsPage } from '../../../features/loyalty/components/slots-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/gambling/slots-settings` (Editor). */
export function Component() {
  return <SlotsPage channelId={useCurrentChannel().id} />;
}
