import { useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PublicChat } from '../../../features/public-chat/components/public-chat';
import { parsePublicChatOptions } from '../../../features/public-chat/hooks/public-chat-options';

/** `/popout/channels/:channelId/chat` (public, no login): read-only chat for OBS docks and overlays. */
export function Component() {
  const { channelId = '' } = useParams();
  const [params] = useSearchParams();
  const options = useMemo(() => parsePublicChatOptions(params), [params]);
  return <PublicChat channelId={channelId} options={options} />;
}
