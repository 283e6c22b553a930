import { CommandsPage } from '../../../features/chatbot/components/commands-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/chat-commands` (Editor). */
export function Component() {
  return <CommandsPage channelId={useCurrentChannel().id} />;
}
