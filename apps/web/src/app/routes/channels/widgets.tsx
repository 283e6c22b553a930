import { WidgetsPage } from '../../../features/widgets/components/widgets-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/widgets` (Editor). */
export function Component() {
  return <WidgetsPage channelId={useCurrentChannel().id} />;
}
