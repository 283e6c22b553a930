import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { providers, type ProviderId } from '@greenroom/contracts/providers';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { CONNECT_POLL_MS, CONNECT_POPUP_SIZE, openConnectPopup, watchConnectPopup } from '../../../lib/connect-popup';
import { getConnectUrl } from '../api/get-connect-url';
import { getUserProvidersQueryOptions } from '../api/get-user-providers';

export { CONNECT_POLL_MS, CONNECT_POPUP_SIZE, openConnectPopup, watchConnectPopup };

/** The connect flow of spec §4 for user (sign-in) connections. */
export function useConnectProvider() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<ProviderId | null>(null);
  const stopRef = useRef<(() => void) | null>(null);

  useEffect(() => () => stopRef.current?.(), []);

  const connect = useCallback(
    async (provider: ProviderId) => {
      stopRef.current?.();
      const popup = openConnectPopup();
      setPending(provider);
      let url: string;
      try {
        url = await getConnectUrl(provider);
      } catch (error) {
        popup?.close();
        setPending(null);
        notifyError(error);
        return;
      }
      if (!popup || popup.closed) {
        // Popup blocked: the whole page goes through the flow and lands on /user-provider-connected.
        window.location.assign(url);
        return;
      }
      popup.location.href = url;
      stopRef.current = watchConnectPopup(popup, {
        onConnected: () => {
          stopRef.current = null;
          setPending(null);
          void queryClient.invalidateQueries({ queryKey: getUserProvidersQueryOptions().queryKey });
          notifySuccess(`${providers[provider].name} connected successfully`);
        },
        onClosed: () => {
          stopRef.current = null;
          setPending(null);
        },
      });
    },
    [queryClient],
  );

  return { connect, pending };
}
