/**
 * Where TikTok LIVE events come from, behind one interface: the real unofficial
 * `tiktok-live-connector` (Webcast push, signed through Euler Stream), or the platform emulator's
 * WebSocket of JSON frames shaped like the connector's events. Both feed the same mapper.
 */
import WebSocket from 'ws';
import type { TikTokLiveEvent, TikTokLiveEventType } from './tiktok-events';

/** Why a session ended: the stream ended, or the connection failed. */
export interface TikTokCloseReason {
  kind: 'ended' | 'error';
  detail: string;
}

export interface TikTokLiveHandlers {
  onEvent(event: TikTokLiveEvent): void;
  /** Called once when an open session ends by itself (not after `close()`). */
  onClose(reason: TikTokCloseReason): void;
}

export interface TikTokLiveSession {
  close(): Promise<void>;
}

export interface TikTokLiveSource {
  /** Opens a session on `uniqueId`'s LIVE; rejects with TikTokOfflineError when the user is not live. */
  connect(uniqueId: string, handlers: TikTokLiveHandlers): Promise<TikTokLiveSession>;
}

/** The user is not live (or unknown): poll again later. */
export class TikTokOfflineError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'TikTokOfflineError';
  }
}

const frameEvents = new Set<string>(['connected', 'chat', 'gift', 'follow', 'subscribe', 'like', 'member', 'streamEnd']);

/** The emulator's `ws://…/tiktok-live/{uniqueId}`: JSON frames `{ event, data }`; close 4404 = offline. */
export class EmulatorTikTokLiveSource implements TikTokLiveSource {
  constructor(
    private readonly liveUrl: string,
    private readonly options: { connectTimeoutMs?: number } = {},
  ) {}

  connect(uniqueId: string, handlers: TikTokLiveHandlers): Promise<TikTokLiveSession> {
    const url = `${this.liveUrl.replace(/\/$/, '')}/${encodeURIComponent(uniqueId.replace(/^@/, ''))}`;
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      let open = false;
      let closedByUs = false;
      let ended = false;
      const timer = setTimeout(() => {
        if (open) return;
        socket.terminate();
        reject(new Error('TikTok LIVE did not answer in time'));
      }, this.options.connectTimeoutMs ?? 15_000);
      const session: TikTokLiveSession = {
        close: () =>
          new Promise<void>((done) => {
            closedByUs = true;
            if (socket.readyState === WebSocket.CLOSED) return done();
            socket.once('close', () => done());
            socket.close(1000);
          }),
      };
      socket.on('message', (raw: WebSocket.RawData) => {
        let frame: { event?: unknown; data?: unknown };
        try {
          const text = Array.isArray(raw)
            ? Buffer.concat(raw).toString('utf8')
            : Buffer.from(raw instanceof ArrayBuffer ? new Uint8Array(raw) : raw).toString('utf8');
          frame = JSON.parse(text) as { event?: unknown; data?: unknown };
        } catch {
          return;
        }
        if (typeof frame.event !== 'string' || !frameEvents.has(frame.event)) return;
        const type = frame.event as TikTokLiveEventType;
        if (type === 'streamEnd') ended = true;
        if (type === 'connected' && !open) {
          open = true;
          clearTimeout(timer);
          resolve(session);
        }
        handlers.onEvent({ type, data: frame.data });
      });
      socket.on('close', (code: number, reason: Buffer) => {
        clearTimeout(timer);
        const text = reason.toString() || `closed (${code})`;
        if (!open) {
          reject(code === 4404 ? new TikTokOfflineError(text) : new Error(`TikTok LIVE connection failed: ${text}`));
          return;
        }
        if (closedByUs) return;
        handlers.onClose(ended || code === 1000 ? { kind: 'ended', detail: text } : { kind: 'error', detail: text });
      });
      socket.on('error', (error: Error) => {
        if (!open) {
          clearTimeout(timer);
          reject(error);
        }
      });
    });
  }
}

/** The real TikTok LIVE through tiktok-live-connector v2 (loaded on first use). */
export class ConnectorTikTokLiveSource implements TikTokLiveSource {
  constructor(private readonly options: { signApiKey: string | null }) {}

  async connect(uniqueId: string, handlers: TikTokLiveHandlers): Promise<TikTokLiveSession> {
    const { TikTokLiveConnection, WebcastEvent, ControlEvent, UserOfflineError } = await import('tiktok-live-connector');
    const connection = new TikTokLiveConnection(uniqueId, {
      processInitialData: false,
      ...(this.options.signApiKey ? { signApiKey: this.options.signApiKey } : {}),
    });
    let closedByUs = false;
    let done = false;
    const finish = (reason: { kind: 'ended' | 'error'; detail: string }): void => {
      if (done || closedByUs) return;
      done = true;
      handlers.onClose(reason);
    };
    const forward = (type: TikTokLiveEventType) => (data: unknown) => handlers.onEvent({ type, data });
    connection.on(WebcastEvent.CHAT, forward('chat'));
    connection.on(WebcastEvent.GIFT, forward('gift'));
    connection.on(WebcastEvent.FOLLOW, forward('follow'));
    connection.on(WebcastEvent.SUB_NOTIFY, forward('subscribe'));
    connection.on(WebcastEvent.LIKE, forward('like'));
    connection.on(WebcastEvent.MEMBER, forward('member'));
    connection.on(WebcastEvent.STREAM_END, (event) => {
      handlers.onEvent({ type: 'streamEnd', data: event });
      finish({ kind: 'ended', detail: 'The TikTok LIVE ended' });
    });
    connection.on(ControlEvent.DISCONNECTED, ({ code, reason }) => finish({ kind: 'error', detail: reason ?? `disconnected (${code})` }));
    try {
      const state = await connection.connect();
      handlers.onEvent({ type: 'connected', data: { roomId: state.roomId, roomInfo: state.roomInfo as unknown } });
    } catch (error) {
      if (error instanceof UserOfflineError) throw new TikTokOfflineError(error.message || 'The user is not live');
      throw error;
    }
    return {
      async close() {
        closedByUs = true;
        await connection.disconnect();
      },
    };
  }
}
