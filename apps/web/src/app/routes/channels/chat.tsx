import { ChatPage } from '../../../features/chat/components/chat-page';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/chat`: unified chat (Mod+). */
export function Component() {
  const channel = useCurrentChannel();
  return <ChatPage key={channel.id} channel={channel} />;
}
