import { useCallback, useEffect, useRef, useState } from 'react';
import { CONNECT_ERROR_HASH_KEY } from '@greenroom/contracts/api/user';
import { notifyError, notifyWarning } from './notify';

/**
 * The connect popup, shared by every "Connect" button (user connections, channel platforms,
 * system bots): an 800×800 popup polled every 100 ms until it lands back on this site.
 */

/** The landing page of the user connect popup; it carries `#user_provider_id=…`. */
export const CONNECT_LANDING_PATH = '/user-provider-connected';
export const CONNECT_HASH_KEY = 'user_provider_id';

/** Popup size and polling interval. */
export const CONNECT_POPUP_SIZE = 800;
export const CONNECT_POLL_MS = 100;

/** Opens an empty, centred 800×800 popup; null when the browser blocked it. Must run inside the click handler. */
export function openConnectPopup(win: Window = window): Window | null {
  return openCenteredPopup('', 'greenroom-connect', win);
}

/** Opens `url` in a centred 800×800 popup (also used for the YouTube Studio button); null when blocked. */
export function openCenteredPopup(url: string, name: string, win: Window = window): Window | null {
  const left = Math.max(0, Math.round(win.screenX + (win.outerWidth - CONNECT_POPUP_SIZE) / 2));
  const top = Math.max(0, Math.round(win.screenY + (win.outerHeight - CONNECT_POPUP_SIZE) / 2));
  const popup = win.open(url, name, `popup=yes,width=${CONNECT_POPUP_SIZE},height=${CONNECT_POPUP_SIZE},left=${left},top=${top}`);
  if (!popup || popup.closed) return null;
  return popup;
}

/** The message a connect page put in its hash when the platform did not connect (cancelled, refused), or null. */
export function connectErrorOf(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get(CONNECT_ERROR_HASH_KEY);
}

/**
 * Polls the popup every 100 ms until it reaches `path`; then reads `hashKey` from its hash,
 * closes it and calls `onConnected`. A page of this site carrying `#connect_error=…` (the user cancelled
 * on the consent page, the platform refused) closes it and calls `onFailed` with the message instead.
 * Stops (calling `onClosed`) when the user closes the popup first. Returns a function that stops polling.
 */
export function watchConnectPopup(
  popup: Pick<Window, 'closed' | 'close'> & { location: { href: string } },
  handlers: { onConnected: (id: string | null) => void; onClosed: () => void; onFailed?: (message: string) => void },
  options: { path?: string; hashKey?: string; intervalMs?: number } = {},
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
    const failure = connectErrorOf(url.hash);
    if (failure !== null) {
      clearInterval(timer);
      popup.close();
      (handlers.onFailed ?? handlers.onClosed)(failure);
      return;
    }
    if (url.pathname !== path) return;
    clearInterval(timer);
    const id = new URLSearchParams(url.hash.replace(/^#/, '')).get(options.hashKey ?? CONNECT_HASH_KEY);
    popup.close();
    handlers.onConnected(id);
  }, options.intervalMs ?? CONNECT_POLL_MS);
  return () => clearInterval(timer);
}

export interface ConnectFlow<T> {
  /** Page the platform sends the browser back to (its pathname is what the poll waits for). */
  landingPath: string;
  /** Hash parameter the landing page carries the new connection's id in. */
  hashKey: string;
  /**
   * The platform authorization URL for `target`. `inPopup` is false when the browser blocked the popup: the
   * whole page then goes through the flow, so the URL should land somewhere that finishes the job alone.
   */
  getUrl: (target: T, inPopup: boolean) => Promise<string>;
  /** After the popup landed: refresh what changed and show the "{provider name} connected successfully" toast. */
  onConnected: (target: T, id: string | null) => void;
}

/**
 * The connect flow as a hook: open the popup inside the click, fetch the URL, load it, poll until the
 * landing page, then `onConnected`. A blocked popup makes the whole page navigate to the URL instead; closing the
 * popup stops polling. `pending` is the target being connected.
 */
export function useConnectPopup<T>(flow: ConnectFlow<T>) {
  const [pending, setPending] = useState<T | null>(null);
  const stopRef = useRef<(() => void) | null>(null);
  const flowRef = useRef(flow);
  useEffect(() => {
    flowRef.current = flow;
  });
  useEffect(() => () => stopRef.current?.(), []);

  const connect = useCallback(async (target: T) => {
    stopRef.current?.();
    const popup = openConnectPopup();
    setPending(() => target);
    const current = flowRef.current;
    let url: string;
    try {
      url = await current.getUrl(target, popup != null);
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
    const done = () => {
      stopRef.current = null;
      setPending(null);
    };
    stopRef.current = watchConnectPopup(
      popup,
      {
        onConnected: (id) => {
          done();
          flowRef.current.onConnected(target, id);
        },
        onFailed: (message) => {
          done();
          notifyWarning(message);
        },
        onClosed: done,
      },
      { path: current.landingPath, hashKey: current.hashKey },
    );
  }, []);

  return { connect, pending };
}
