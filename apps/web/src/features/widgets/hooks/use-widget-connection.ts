import { useCallback, useEffect, useRef, useState } from 'react';
import {
  WIDGET_GONE_CLOSE_CODE,
  widgetSocketMessageSchema,
  type PublicWidget,
  type WidgetSocketMessage,
} from '@greenroom/contracts/api/widgets';
import { isApiError } from '../../../lib/api-client';
import { parseFrame, socketUrl } from '../../../lib/live-socket';
import { getPublicWidget } from '../api/widgets';

/** `loading` first, `live` while the socket is open, `reconnecting` between attempts, `gone` for an unknown or rotated URL. */
export type WidgetStatus = 'loading' | 'live' | 'reconnecting' | 'gone';

export const WIDGET_PING_MS = 5_000;
/** No frame (not even a pong) for this long: the connection is dead even if the browser has not noticed. */
export const WIDGET_SILENCE_MS = 12_000;
export const WIDGET_BACKOFF_MAX_MS = 30_000;

/** The wait before reconnect attempt `attempt` (0-based): 1 s doubling to 30 s, with jitter so many pages spread out. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(WIDGET_BACKOFF_MAX_MS, 1000 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.5 + random() / 2));
}

export type FrameListener = (frame: WidgetSocketMessage) => void;

export interface WidgetConnection {
  status: WidgetStatus;
  /** The state the page starts from, fetched again at every reconnect (lists and counts replace what was shown). */
  snapshot: PublicWidget | null;
  /** Live frames after the snapshot; returns the unsubscribe function. */
  subscribe: (listener: FrameListener) => () => void;
  /** Reads the state again (a count that no event moves, such as a points goal). */
  refresh: () => void;
}

/**
 * A widget page's connection: fetch its state, open its socket, and on any drop wait (backoff) and do both again,
 * forever — except when the server says the URL no longer works (404 or close code 4404), then stop.
 * After a reconnect the server sends the alerts of the last minute since the last state this page had.
 */
export function useWidgetConnection(token: string): WidgetConnection {
  const [status, setStatus] = useState<WidgetStatus>('loading');
  const [snapshot, setSnapshot] = useState<PublicWidget | null>(null);
  const listeners = useRef(new Set<FrameListener>());
  const refreshRef = useRef<() => void>(() => {});

  useEffect(() => {
    let stopped = false;
    let attempt = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let socket: WebSocket | null = null;
    /** The server time to resume from after a drop: of the first state, then of the last connection that was live. */
    let resumeSince: string | null = null;
    let connectedBefore = false;
    const controller = new AbortController();

    const schedule = () => {
      if (stopped) return;
      setStatus((s) => (s === 'loading' ? s : 'reconnecting'));
      retry = setTimeout(() => void connect(), backoffDelay(attempt));
      attempt += 1;
    };

    const connect = async () => {
      if (stopped) return;
      let state: PublicWidget;
      try {
        state = await getPublicWidget(token, controller.signal);
        if (stopped) return;
        setSnapshot(state);
        resumeSince ??= state.server_time;
      } catch (error) {
        if (stopped) return;
        if (isApiError(error, 404)) {
          stopped = true;
          setStatus('gone');
          return;
        }
        schedule();
        return;
      }
      // A reconnect asks for the alerts it missed since then (alert boxes drop the ids they have: none shows twice).
      const since = connectedBefore && resumeSince ? `?since=${encodeURIComponent(resumeSince)}` : '';
      connectedBefore = true;
      const ws = new WebSocket(socketUrl(`/api/2/public/widgets/${encodeURIComponent(token)}/ws${since}`));
      socket = ws;
      let openedAt = 0;
      let lastFrameAt = Date.now();
      let ping: ReturnType<typeof setInterval> | undefined;
      ws.onopen = () => {
        openedAt = Date.now();
        lastFrameAt = openedAt;
        resumeSince = state.server_time;
        setStatus('live');
        ping = setInterval(() => {
          if (Date.now() - lastFrameAt > WIDGET_SILENCE_MS) ws.close();
          else if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping' }));
        }, WIDGET_PING_MS);
      };
      ws.onmessage = (event: MessageEvent) => {
        lastFrameAt = Date.now();
        if (typeof event.data !== 'string') return;
        const frame = parseFrame(event.data, widgetSocketMessageSchema);
        if (!frame || frame.type === 'pong') return;
        for (const listener of listeners.current) listener(frame);
      };
      ws.onclose = (event) => {
        clearInterval(ping);
        if (socket === ws) socket = null;
        if (stopped) return;
        if (event.code === WIDGET_GONE_CLOSE_CODE) {
          stopped = true;
          setStatus('gone');
          return;
        }
        // A connection that held for a while starts the backoff over.
        if (openedAt && Date.now() - openedAt > 10_000) attempt = 0;
        schedule();
      };
    };

    refreshRef.current = () => {
      if (stopped) return;
      getPublicWidget(token, controller.signal).then(
        (state) => {
          if (!stopped) setSnapshot(state);
        },
        () => {},
      );
    };
    void connect();
    return () => {
      stopped = true;
      controller.abort();
      clearTimeout(retry);
      socket?.close();
    };
  }, [token]);

  const subscribe = useCallback((listener: FrameListener) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  const refresh = useCallback(() => refreshRef.current(), []);
  return { status, snapshot, subscribe, refresh };
}
