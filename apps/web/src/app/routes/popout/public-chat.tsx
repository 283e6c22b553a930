import { useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/document-title';
import { PublicChat } from '../../../features/public-chat/components/public-chat';
import { parsePublicChatOptions } from '../../../features/public-chat/hooks/public-chat-options';

/** `/popout/channels/:channelId/chat` (public, no login): read-only chat for OBS docks and overlays. */
export function Component() {
  const { channelId = '' } = useParams();
  const [params] = useSearchParams();
  const options = useMemo(() => parsePublicChatOptions(params), [params]);
  // The public chat answer carries no channel name: the window is "Chat · Greenroom".
  useDocumentTitle('Chat');
  return <PublicChat channelId={channelId} options={options} />;
}
