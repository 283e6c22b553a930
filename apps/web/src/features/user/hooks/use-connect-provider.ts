import { useQueryClient } from '@tanstack/react-query';
import { providers, type ProviderId } from '@greenroom/contracts/providers';
import { CONNECT_HASH_KEY, CONNECT_LANDING_PATH, useConnectPopup } from '../../../lib/connect-popup';
import { notifySuccess } from '../../../lib/notify';
import { getConnectUrl } from '../api/get-connect-url';
import { getUserProvidersQueryOptions } from '../api/get-user-providers';

/** The connect flow for user (sign-in) connections. */
export function useConnectProvider() {
  const queryClient = useQueryClient();
  return useConnectPopup<ProviderId>({
    landingPath: CONNECT_LANDING_PATH,
    hashKey: CONNECT_HASH_KEY,
    getUrl: (provider) => getConnectUrl(provider, CONNECT_LANDING_PATH),
    onConnected: (provider) => {
      void queryClient.invalidateQueries({ queryKey: getUserProvidersQueryOptions().queryKey });
      notifySuccess(`${providers[provider].name} connected successfully`);
    },
  });
}
