import { QuotesPage } from '../../../features/chatbot/components/quotes-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/quotes` (Editor). */
export function Component() {
  return <QuotesPage channelId={useCurrentChannel().id} />;
}
