/**
 * Open sockets follow access: a websocket admitted by the gate (plugins/auth.ts) at some level is
 * closed the moment that access ends — the member is removed or lowered below the route's level,
 * the session ends, the account or the channel is deleted (bus events of lib/access-events.ts) —
 * with a close code the web app explains (`LiveCloseCode`). A periodic re-check against the
 * database is the backstop for what no event announces (a session expiring, another instance).
 */
import { LiveCloseCode, type LiveCloseCodeValue } from '@greenroom/contracts/api/live';
import { channelTopic, userTopic } from '@greenroom/contracts/bus';
import { eq } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import type { Db } from '../db/client';
import { channels } from '../db/schema';
import type { BusEvent, EventBus } from '../lib/event-bus';
import { liveSocket } from '../lib/live-socket';
import type { AuthUser, SessionService } from '../modules/auth';
import { channelLevel } from './auth';

export interface SocketAccessDeps {
  db: Db;
  bus: EventBus;
  sessions: Pick<SessionService, 'active'>;
  /** Backstop re-check period (default 30 s). */
  recheckMs?: number;
}

interface Closable {
  close(code?: number, reason?: string): void;
}

const reasons: Record<LiveCloseCodeValue, string> = {
  [LiveCloseCode.SESSION_ENDED]: 'Session ended',
  [LiveCloseCode.ACCESS_LOST]: 'Access removed',
  [LiveCloseCode.CHANNEL_DELETED]: 'Channel deleted',
};

/** Watches the access of one socket; returns the function that stops watching (call it when the socket closes). */
export function followAccess(
  deps: SocketAccessDeps,
  socket: Closable,
  who: { channelId: string; user: AuthUser; sessionId: string; minLevel: number },
): () => void {
  let stopped = false;
  const close = (code: LiveCloseCodeValue) => {
    if (stopped) return;
    stop();
    socket.close(code, reasons[code]);
  };
  const offChannel = deps.bus.subscribe(channelTopic(who.channelId), (event) => {
    if (event.type === 'channel.deleted') close(LiveCloseCode.CHANNEL_DELETED);
    else if (event.type === 'access.changed' && event.data.user_id === who.user.id) {
      // An operator keeps support access whatever their membership: the re-check decides for them.
      if (who.user.isOperator) void recheck();
      else if (event.data.level === null || event.data.level < who.minLevel) close(LiveCloseCode.ACCESS_LOST);
    }
  });
  const offUser = deps.bus.subscribe(userTopic(who.user.id), (event) => {
    if (event.type === 'user.deleted') close(LiveCloseCode.SESSION_ENDED);
    else if (event.type === 'session.ended' && event.data.session_id === who.sessionId) close(LiveCloseCode.SESSION_ENDED);
  });
  const recheck = async () => {
    try {
      if (!(await deps.sessions.active(who.sessionId))) return close(LiveCloseCode.SESSION_ENDED);
      const level = await channelLevel(deps.db, who.channelId, who.user);
      if (level === null) {
        // Gone from the channel, or the channel itself is gone.
        const exists = await deps.db.select({ id: channels.id }).from(channels).where(eq(channels.id, who.channelId)).limit(1);
        close(exists.length > 0 ? LiveCloseCode.ACCESS_LOST : LiveCloseCode.CHANNEL_DELETED);
      } else if (level < who.minLevel) close(LiveCloseCode.ACCESS_LOST);
    } catch {
      // The database is unavailable: keep the socket; the next check decides.
    }
  };
  const timer = setInterval(() => void recheck(), deps.recheckMs ?? 30_000);
  timer.unref();
  function stop() {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    offChannel();
    offUser();
  }
  return stop;
}

/**
 * A staff socket that forwards the channel's bus events `pick` chooses (what to send, or undefined to skip) and
 * closes when its access ends.
 */
export function channelEventSocket(
  deps: SocketAccessDeps,
  socket: WebSocket,
  who: { channelId: string; user: AuthUser; sessionId: string; minLevel: number },
  pick: (event: BusEvent) => unknown,
): void {
  let unsubscribe: (() => void) | null = null;
  let unwatch: (() => void) | null = null;
  const live = liveSocket(socket, {
    onClose: () => {
      unsubscribe?.();
      unwatch?.();
    },
  });
  if (!live.open) return;
  unsubscribe = deps.bus.subscribe(channelTopic(who.channelId), (event) => {
    const frame = pick(event);
    if (frame !== undefined) live.send(frame);
  });
  unwatch = followAccess(deps, socket, who);
}
