/**
 * Server side of the product's live websockets: JSON frames, the client's heartbeat
 * (`{"type":"ping"}` → `{"type":"pong"}`), and backpressure (a client whose unsent bytes pass the
 * cap is closed with 1013 "try again later"; it reconnects and refetches).
 */
import type { WebSocket } from 'ws';

export interface LiveSocketOptions {
  /** Unsent bytes allowed before the client is considered too slow (default 1 MiB). */
  maxBufferedBytes?: number;
  /** Other client frames (already parsed); pings are answered here. */
  onMessage?: (message: unknown) => void;
  onClose?: () => void;
}

export interface LiveSocket {
  /** Sends a JSON frame; false when the socket is gone or was closed for being too slow. */
  send(frame: unknown): boolean;
  close(code?: number, reason?: string): void;
  readonly open: boolean;
}

const PONG = JSON.stringify({ type: 'pong' });

export function liveSocket(socket: WebSocket, options: LiveSocketOptions = {}): LiveSocket {
  const max = options.maxBufferedBytes ?? 1024 * 1024;
  let open = socket.readyState === socket.OPEN;
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    let message: unknown;
    try {
      message = JSON.parse(
        Buffer.isBuffer(data)
          ? data.toString('utf8')
          : Array.isArray(data)
            ? Buffer.concat(data).toString('utf8')
            : Buffer.from(data).toString('utf8'),
      );
    } catch {
      return;
    }
    if (message && typeof message === 'object' && 'type' in message && message.type === 'ping') {
      if (socket.readyState === socket.OPEN) socket.send(PONG);
      return;
    }
    options.onMessage?.(message);
  });
  socket.on('close', () => {
    open = false;
    options.onClose?.();
  });
  socket.on('error', () => {
    open = false;
  });
  return {
    get open() {
      return open && socket.readyState === socket.OPEN;
    },
    send(frame) {
      if (!open || socket.readyState !== socket.OPEN) return false;
      if (socket.bufferedAmount > max) {
        open = false;
        socket.close(1013, 'Too slow: reconnect and refetch');
        return false;
      }
      socket.send(JSON.stringify(frame));
      return true;
    },
    close(code = 1000, reason = '') {
      open = false;
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason);
    },
  };
}
