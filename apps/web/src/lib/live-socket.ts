import { useCallback, useState } from 'react';
import { ReadyState, type Options } from 'react-use-websocket';
import type { z } from 'zod';
import { isAccessCloseCode, LiveCloseCode, liveCloseMessages, type LiveCloseCodeValue } from '@greenroom/contracts/api/live';
import { sessionEnded } from './api-client';
// The package is CommonJS with only a default export, which the production bundle's interop does not
// unwrap; the named export of its module file works in both Vite dev and build.
import { useWebSocket } from 'react-use-websocket/dist/lib/use-websocket';
import { getAccessToken } from './auth-token';
import { liveAccessLost } from './live-access';

/** Live connection heartbeat: ping every 2 s, timeout 3 s, reconnect every 1 s, unlimited attempts. */
export const LIVE_PING_INTERVAL_MS = 2000;
export const LIVE_PING_TIMEOUT_MS = 3000;
export const LIVE_RECONNECT_INTERVAL_MS = 1000;

/** One socket frame checked against its schema; null for a frame that is not JSON or not of that shape. */
export function parseFrame<T>(raw: string, schema: z.ZodType<T>): T | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** ws(s):// URL of an API websocket path on this origin. */
export function socketUrl(path: string): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${path}`;
}

/**
 * react-use-websocket options for a live connection: heartbeat and unlimited reconnects. With `token` the
 * socket authenticates through the protocols `['greenroom', token]`. Messages go to `onMessage` only
 * (`filter` keeps them out of React state, so a busy socket causes no re-render per message).
 */
export interface LiveSocketOptions {
  authenticated: boolean;
  /** Called each time the socket (re)opens: refetch what may have changed while it was down. */
  onOpen?: () => void;
  /** Called when the server closes the socket because the caller's access ended (no reconnect follows). */
  onEnded?: (code: LiveCloseCodeValue) => void;
  /** Share one socket between every component using the same path (react-use-websocket `share`). */
  share?: boolean;
}

/** What to tell the user about a socket the server closed for access reasons. */
export function liveEndedMessage(code: LiveCloseCodeValue): string {
  return liveCloseMessages[code];
}

export function liveSocketOptions(onMessage: (data: string) => void, options: LiveSocketOptions): Options {
  const token = options.authenticated ? getAccessToken() : null;
  return {
    share: options.share ?? false,
    onOpen: options.onOpen ? () => options.onOpen?.() : undefined,
    onClose: (event: CloseEvent) => {
      if (!isAccessCloseCode(event.code)) return;
      options.onEnded?.(event.code);
      if (event.code === LiveCloseCode.SESSION_ENDED) sessionEnded(liveCloseMessages[event.code]);
      else liveAccessLost(event.code);
    },
    protocols: token ? ['greenroom', token] : undefined,
    heartbeat: { message: JSON.stringify({ type: 'ping' }), interval: LIVE_PING_INTERVAL_MS, timeout: LIVE_PING_TIMEOUT_MS },
    // Closed because access ended: reconnecting would only be refused.
    shouldReconnect: (event: CloseEvent) => !isAccessCloseCode(event.code),
    reconnectAttempts: Number.POSITIVE_INFINITY,
    reconnectInterval: LIVE_RECONNECT_INTERVAL_MS,
    retryOnError: true,
    onMessage: (event: MessageEvent) => {
      if (typeof event.data === 'string') onMessage(event.data);
    },
    filter: () => false,
  };
}

/** `ended`: the server closed it because the caller's access ended; it does not reconnect. */
export type LiveState = 'connecting' | 'open' | 'closed' | 'ended';

/** The five ready states folded into what a user needs to see. */
export function liveState(readyState: ReadyState): LiveState {
  switch (readyState) {
    case ReadyState.OPEN:
      return 'open';
    case ReadyState.CONNECTING:
    case ReadyState.UNINSTANTIATED:
      return 'connecting';
    case ReadyState.CLOSING:
    case ReadyState.CLOSED:
      return 'closed';
    default:
      return 'closed';
  }
}

export interface LiveConnection {
  state: LiveState;
  /** Why the server ended it (state `ended`), else null. */
  ended: LiveCloseCodeValue | null;
}

/** A live websocket (heartbeat, unlimited reconnects) whose frames go to `onMessage`; returns its state. `null`: no socket. */
export function useLiveSocket(path: string | null, onMessage: (data: string) => void, options: LiveSocketOptions): LiveConnection {
  const [ended, setEnded] = useState<LiveCloseCodeValue | null>(null);
  const { onEnded: notify } = options;
  const onEnded = useCallback(
    (code: LiveCloseCodeValue) => {
      setEnded(code);
      notify?.(code);
    },
    [notify],
  );
  const { readyState } = useWebSocket(path === null ? null : socketUrl(path), liveSocketOptions(onMessage, { ...options, onEnded }));
  const state = liveState(readyState);
  return { state: ended !== null && state === 'closed' ? 'ended' : state, ended: state === 'closed' ? ended : null };
}
