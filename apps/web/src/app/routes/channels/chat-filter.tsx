import { useParams } from 'react-router';
import { FilterEditorPage } from '../../../features/chatbot/components/filter-editor';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/chat-filters/:filterId` (Editor); `new` creates one. */
export function Component() {
  const { filterId = 'new' } = useParams();
  return <FilterEditorPage key={filterId} channelId={useCurrentChannel().id} filterId={filterId} />;
}
