/**
 * The TikTok adapter (read-only). The live connection follows the channel's @handle through a
 * TikTokLiveSource (the real connector, or the emulator when `tiktok.liveUrl` is set), polling for
 * the LIVE with backoff while offline and reconnecting after drops. TikTok offers no supported way to
 * write chat, moderate or change the stream: the adapter has no action facet.
 */
import { Backoff } from '../backoff';
import type { PlatformEndpoints } from '../endpoints';
import type { ChannelConnectionContext, ConnectionState, LiveConnection, PlatformAdapter } from '../port';
import { mapTikTokEvent, type TikTokLiveEvent } from './tiktok-events';
import {
  ConnectorTikTokLiveSource,
  EmulatorTikTokLiveSource,
  TikTokOfflineError,
  type TikTokCloseReason,
  type TikTokLiveSession,
  type TikTokLiveSource,
} from './tiktok-live-source';

export interface TiktokAdapterDeps {
  endpoints: PlatformEndpoints['tiktok'];
  /** Overrides the source chosen from the endpoints (tests). */
  source?: TikTokLiveSource;
  /** Poll for the LIVE while offline: first delay and cap (defaults 30 s → 5 min). */
  offlinePoll?: { baseMs?: number; maxMs?: number };
  /** Reconnect backoff after errors (defaults 2 s → 2 min). */
  backoff?: { baseMs?: number; maxMs?: number };
}

export const TIKTOK_WAITING_DETAIL = 'Waiting for the TikTok LIVE to start';

/** The @handle to follow: `state.uniqueId` when set, else the connection's channel name. */
function uniqueIdOf(ctx: ChannelConnectionContext): string {
  const saved = ctx.state.uniqueId;
  return (typeof saved === 'string' && saved !== '' ? saved : ctx.providerChannelName).replace(/^@/, '');
}

export function createTiktokAdapter(deps: TiktokAdapterDeps): PlatformAdapter {
  const source =
    deps.source ??
    (deps.endpoints.liveUrl
      ? new EmulatorTikTokLiveSource(deps.endpoints.liveUrl)
      : new ConnectorTikTokLiveSource({ signApiKey: deps.endpoints.signApiKey }));

  function connect(ctx: ChannelConnectionContext): LiveConnection {
    const stop = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stop.signal]);
    const errors = new Backoff({ baseMs: deps.backoff?.baseMs ?? 2000, maxMs: deps.backoff?.maxMs ?? 120_000 });
    const offline = new Backoff({ baseMs: deps.offlinePoll?.baseMs ?? 30_000, maxMs: deps.offlinePoll?.maxMs ?? 300_000 });
    let health: ConnectionState | null = null;
    let detail: string | null = null;
    const setHealth = (state: ConnectionState, text: string | null): void => {
      if (health === state && detail === text) return;
      health = state;
      detail = text;
      ctx.setHealth(state, text);
    };

    const aborted = new Promise<null>((resolve) => {
      if (signal.aborted) resolve(null);
      else signal.addEventListener('abort', () => resolve(null), { once: true });
    });

    const run = async (): Promise<void> => {
      setHealth('connecting', null);
      let live: boolean | null = null;
      const markOffline = (): void => {
        if (live !== false)
          void ctx.emit({ kind: 'stream', status: { is_live: false, viewer_count: null, title: null, category: null, started_at: null } });
        live = false;
      };
      const onEvent = (event: TikTokLiveEvent): void => {
        for (const mapped of mapTikTokEvent(event, new Date().toISOString())) {
          if (mapped.kind === 'stream') live = mapped.status.is_live;
          void ctx.emit(mapped);
        }
      };
      while (!signal.aborted) {
        let onClose: (reason: TikTokCloseReason) => void = () => undefined;
        const closed = new Promise<TikTokCloseReason>((resolve) => {
          onClose = resolve;
        });
        let session: TikTokLiveSession;
        try {
          session = await source.connect(uniqueIdOf(ctx), { onEvent, onClose: (reason) => onClose(reason) });
        } catch (error) {
          if (signal.aborted) break;
          if (error instanceof TikTokOfflineError) {
            markOffline();
            setHealth('offline', TIKTOK_WAITING_DETAIL);
            await offline.wait(signal);
          } else {
            ctx.log.warn({ err: error }, 'TikTok LIVE connection failed');
            setHealth('reconnecting', error instanceof Error ? error.message : String(error));
            await errors.wait(signal);
          }
          continue;
        }
        errors.reset();
        offline.reset();
        setHealth('connected', null);
        const reason = await Promise.race([closed, aborted]);
        if (reason === null) {
          await session.close().catch(() => undefined);
          break;
        }
        if (reason.kind === 'ended') {
          markOffline();
          setHealth('offline', TIKTOK_WAITING_DETAIL);
          await offline.wait(signal);
        } else {
          setHealth('reconnecting', reason.detail);
          await errors.wait(signal);
        }
      }
    };
    const loop = run();
    return {
      async close() {
        stop.abort();
        await loop;
      },
    };
  }

  return { provider: 'tiktok', connect, actions: () => ({}) };
}
