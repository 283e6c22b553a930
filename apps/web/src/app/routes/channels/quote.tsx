import { useParams } from 'react-router';
import { QuoteEditorPage } from '../../../features/chatbot/components/quote-editor';
import { useUser } from '../../../features/user/api/get-user';
import { useCurrentChannel } from './use-current-channel';

/** `/channels/:channelId/quotes/:channelQuoteId` (Editor); `new` adds one. */
export function Component() {
  const { channelQuoteId = 'new' } = useParams();
  const user = useUser();
  return (
    <QuoteEditorPage
      key={channelQuoteId}
      channelId={useCurrentChannel().id}
      quoteId={channelQuoteId}
      userName={user.data?.display_name ?? ''}
    />
  );
}
