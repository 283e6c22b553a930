import { FiltersPage } from '../../../features/chatbot/components/filters-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/chat-filters` (Editor). */
export function Component() {
  return <FiltersPage channelId={useCurrentChannel().id} />;
}
