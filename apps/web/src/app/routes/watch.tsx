import { useParams } from 'react-router';
import { PublicChat } from '../../features/public-chat/components/public-chat';
import { DEFAULT_PUBLIC_CHAT_MAX } from '../../features/public-chat/hooks/public-chat-options';
import { WatchPage } from '../../features/watch/components/watch-page';

const chatOptions = { fontSize: 14, providers: [], transparent: false, max: DEFAULT_PUBLIC_CHAT_MAX * 4 };

/** `/watch/:provider/:providerChannelName` (public, no login): the channel's live player beside its public chat. */
export function Component() {
  const { provider = '', providerChannelName = '' } = useParams();
  return (
    <WatchPage
      key={`${provider}/${providerChannelName}`}
      provider={provider}
      name={providerChannelName}
      chat={(channelId) => <PublicChat key={channelId} channelId={channelId} options={chatOptions} panel />}
    />
  );
}
