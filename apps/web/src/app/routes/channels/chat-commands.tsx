import { CommandsPage } from '../../../features/chatbot/components/commands-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/chat-commands` (Editor). */
export function Component() {
  const channel = useCurrentChannel();
  return <CommandsPage channelId={channel.id} channelName={channel.display_name} />;
}
