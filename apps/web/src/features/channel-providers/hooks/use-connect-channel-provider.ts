import { useQueryClient } from '@tanstack/react-query';
import { CHANNEL_PROVIDER_HASH_KEY } from '@greenroom/contracts/api/channel-providers';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { useConnectPopup } from '../../../lib/connect-popup';
import { notifySuccess } from '../../../lib/notify';
import { CHANNEL_PROVIDER_CONNECTED_PATH, getChannelConnectUrl } from '../api/get-channel-connect-url';
import { getChannelProvidersQueryOptions } from '../../../api/get-channel-providers';

export interface ChannelConnectTarget {
  provider: ChannelProviderId;
  /** Connect the channel's own bot account instead of the broadcaster. */
  bot: boolean;
}

export const connectedMessage = (provider: ChannelProviderId) => `${providers[provider].name} connected successfully`;

/** The connect flow for a channel's platforms and their bot accounts (connect and reconnect). */
export function useConnectChannelProvider(channelId: string) {
  const queryClient = useQueryClient();
  return useConnectPopup<ChannelConnectTarget>({
    landingPath: CHANNEL_PROVIDER_CONNECTED_PATH,
    hashKey: CHANNEL_PROVIDER_HASH_KEY,
    getUrl: (target) => getChannelConnectUrl(channelId, target.provider, target.bot),
    onConnected: (target) => {
      void queryClient.invalidateQueries({ queryKey: getChannelProvidersQueryOptions(channelId).queryKey });
      notifySuccess(connectedMessage(target.provider));
    },
  });
}
