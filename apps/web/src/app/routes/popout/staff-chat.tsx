import { useParams } from 'react-router';
import { AccessLevel } from '@greenroom/contracts/access';
import { ChatPage } from '../../../features/chat/components/chat-page';
import { PopoutChannelGate } from './popout-channel-gate';

/**
 * `/popout/channels/:channelId/staff-chat`: the unified chat with moderation and the composer in its own window,
 * without the shell (Mod+), e.g. as an OBS dock.
 */
export function Component() {
  const { channelId = '' } = useParams();
  return (
    <PopoutChannelGate channelId={channelId} minLevel={AccessLevel.MOD} title="Chat">
      {(channel) => <ChatPage key={channel.id} channel={channel} popout />}
    </PopoutChannelGate>
  );
}
