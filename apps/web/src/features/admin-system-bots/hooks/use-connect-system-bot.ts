import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { providers, type ProviderId } from '@greenroom/contracts/providers';
import { CONNECT_LANDING_PATH, openConnectPopup, watchConnectPopup } from '../../../lib/connect-popup';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { getSystemBotConnectUrl } from '../api/get-system-bot-connect-url';
import { getSystemBotsQueryOptions } from '../api/get-system-bots';

/** Where a system bot connection lands when the popup was blocked and the whole page went through the flow. */
export const systemBotPagePath = (provider: ProviderId) => `/admin/system-provider-bots/${provider}`;

export const connectedMessage = (provider: ProviderId) => `${providers[provider].name} connected successfully`;

/** The connect flow of spec §4 for the operators' system bots (connect and reconnect). */
export function useConnectSystemBot() {
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
        url = await getSystemBotConnectUrl(provider, popup ? CONNECT_LANDING_PATH : systemBotPagePath(provider));
      } catch (error) {
        popup?.close();
        setPending(null);
        notifyError(error);
        return;
      }
      if (!popup || popup.closed) {
        window.location.assign(url);
        return;
      }
      popup.location.href = url;
      stopRef.current = watchConnectPopup(popup, {
        onConnected: () => {
          stopRef.current = null;
          setPending(null);
          void queryClient.invalidateQueries({ queryKey: getSystemBotsQueryOptions().queryKey });
          notifySuccess(connectedMessage(provider));
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
