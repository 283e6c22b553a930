/**
 * The connect popup of spec §4, shared by every "Connect" button (user connections, channel platforms,
 * system bots): an 800×800 popup polled every 100 ms until it lands back on this site.
 */

/** The landing page of the connect popup (spec §2). */
export const CONNECT_LANDING_PATH = '/user-provider-connected';

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
  const path = options.path ?? CONNECT_LANDING_PATH;
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

