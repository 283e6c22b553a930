import { useQueryClient } from '@tanstack/react-query';
import { SYSTEM_BOT_HASH_KEY } from '@greenroom/contracts/api/system-bots';
import { providers, type ProviderId } from '@greenroom/contracts/providers';
import { CONNECT_LANDING_PATH, useConnectPopup } from '../../../lib/connect-popup';
import { notifySuccess } from '../../../lib/notify';
import { getSystemBotConnectUrl } from '../api/get-system-bot-connect-url';
import { getSystemBotsQueryOptions } from '../api/get-system-bots';

/** Where a system bot connection lands when the popup was blocked and the whole page went through the flow. */
export const systemBotPagePath = (provider: ProviderId) => `/admin/system-provider-bots/${provider}`;

export const connectedMessage = (provider: ProviderId) => `${providers[provider].name} connected successfully`;

/** The connect flow for the operators' system bots (connect and reconnect). */
export function useConnectSystemBot() {
  const queryClient = useQueryClient();
  return useConnectPopup<ProviderId>({
    landingPath: CONNECT_LANDING_PATH,
    hashKey: SYSTEM_BOT_HASH_KEY,
    getUrl: (provider, inPopup) => getSystemBotConnectUrl(provider, inPopup ? CONNECT_LANDING_PATH : systemBotPagePath(provider)),
    onConnected: (provider) => {
      void queryClient.invalidateQueries({ queryKey: getSystemBotsQueryOptions().queryKey });
      notifySuccess(connectedMessage(provider));
    },
  });
}
