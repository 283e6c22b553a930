import { TimersPage } from '../../../features/chatbot/components/timers-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/chat-timers` (Editor). */
export function Component() {
  return <TimersPage channelId={useCurrentChannel().id} />;
}
