import { useParams } from 'react-router';
import { TimerEditorPage } from '../../../features/chatbot/components/timer-editor';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/chat-timers/:timerId` (Editor); `new` creates one. */
export function Component() {
  const { timerId = 'new' } = useParams();
  return <TimerEditorPage key={timerId} channelId={useCurrentChannel().id} timerId={timerId} />;
}
