import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { providers, type ProviderId } from '@greenroom/contracts/providers';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { getConnectUrl, USER_PROVIDER_CONNECTED_PATH } from '../api/get-connect-url';
import { getUserProvidersQueryOptions } from '../api/get-user-providers';

/** Popup size and polling interval of spec §9. */
export const CONNECT_POPUP_SIZE = 800;
export const CONNECT_POLL_MS = 100;

/** Opens an empty, centred 800×800 popup; null when the browser blocked it. Must run inside the click handler. */
export function openConnectPopup(win: Window = window): Window | null {
  const left = Math.max(0, Math.round(win.screenX + (win.outerWidth - CONNECT_POPUP_SIZE) / 2));
  const top = Math.max(0, Math.round(win.screenY + (win.outerHeight - CONNECT_POPUP_SIZE) / 2));
  const popup = win.open('', 'greenroom-connect', `popup=yes,width=${CONNECT_POPUP_SIZE},height=${CONNECT_POPUP_SIZE},left=${left},top=${top}`);
  if (!popup || popup.closed) return null;
  return popup;
}

/**
 * Polls the popup every 100 ms (spec §4) until it reaches `path`; then reads `user_provider_id` from its hash,
 * closes it and calls `onConnected`. Stops (calling `onClosed`) when the user closes the popup first.
 * Returns a function that stops polling.
 */
export function watchConnectPopup(
  popup: Pick<Window, 'closed' | 'close'> & { location: { href: string } },
  handlers: { onConnected: (userProviderId: string | null) => void; onClosed: () => void },
  options: { path?: string; intervalMs?: number } = {},
): () => void {
  const path = options.path ?? USER_PROVIDER_CONNECTED_PATH;
  const timer = setInterval(() => {
    if (popup.closed) {
      clearInterval(timer);
      handlers.onClosed();
      return;
    }
    let href: string;
    try {
      href = popup.location.href; // throws while the popup shows the platform's (cross-origin) page
    } catch {
      return;
    }
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return;
    }
    if (url.pathname !== path) return;
    clearInterval(timer);
    const id = new URLSearchParams(url.hash.replace(/^#/, '')).get('user_provider_id');
    popup.close();
    handlers.onConnected(id);
  }, options.intervalMs ?? CONNECT_POLL_MS);
  return () => clearInterval(timer);
}

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
