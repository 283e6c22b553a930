import { useParams } from 'react-router';
import { CommandEditorPage } from '../../../features/chatbot/components/command-editor';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/chat-commands/:commandId` (Editor); `new` creates one. */
export function Component() {
  const { commandId = 'new' } = useParams();
  return <CommandEditorPage key={commandId} channelId={useCurrentChannel().id} commandId={commandId} />;
}
