/**
 * EventSub over WebSocket: sessions (welcome, keepalive, reconnect, close codes), subscriptions
 * bound to a session, and delivery of world changes as notifications. One hub per emulator.
 */
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { ChannelEvent, ChatMessage, Token, World } from '../../world';
import { newToken } from '../../world';
import { channelBanEvent, chatMessageEventJson, clearUserMessagesEvent, eventDeliveries, messageDeleteEvent } from './payloads';
import type { Condition } from './subscription-types';
import { rfc3339Nano } from './timestamps';

function newSessionId(): string {
  return randomUUID().replace(/-/g, '_');
}

export const closeCodes = {
  internalError: 4000,
  inboundTraffic: 4001,
  pingPong: 4002,
  connectionUnused: 4003,
  reconnectGraceExpired: 4004,
  networkTimeout: 4005,
  networkError: 4006,
  invalidReconnect: 4007,
} as const;

const closeReasons: Record<number, string> = {
  4000: 'internal server error',
  4001: 'sent inbound traffic',
  4002: 'failed ping pong',
  4003: 'connection unused',
  4004: 'reconnect grace time expired',
  4005: 'network timeout',
  4006: 'network error',
  4007: 'invalid reconnect',
};

export type SubscriptionStatus = 'enabled' | 'websocket_disconnected' | 'authorization_revoked' | 'user_removed' | 'version_removed';

export interface EventSubSubscription {
  id: string;
  type: string;
  version: string;
  condition: Condition;
  routeKey: string;
  status: SubscriptionStatus;
  cost: number;
  createdAt: string;
  sessionId: string;
  clientId: string;
  userId: string;
  /** The subscription object as sent in notifications, serialised once. */
  json: string;
}

export interface EventSubSession {
  id: string;
  socket: WebSocket;
  /** The TCP socket under `socket`, corked during bursts so many frames leave in one write. */
  raw: Duplex | null;
  /** The socket being replaced during a session_reconnect hand-over. */
  previousSocket: WebSocket | null;
  connectedAt: string;
  keepaliveSeconds: number;
  clientId: string | null;
  userId: string | null;
  subscriptions: Set<string>;
  lastSentAt: number;
  reconnectId: string | null;
  keepaliveTimer: NodeJS.Timeout;
  /** WebSocket ping frames; a socket that did not answer the previous ping with a pong is closed with 4002. */
  pingTimer: NodeJS.Timeout | null;
  awaitingPong: boolean;
  unusedTimer: NodeJS.Timeout | null;
  graceTimer: NodeJS.Timeout | null;
  open: boolean;
}

export interface HubSettings {
  defaultKeepaliveSeconds: number;
  /** Time to subscribe after the welcome before the socket closes with 4003. */
  unusedTimeoutMs: number;
  /** Time the old socket stays open after a session_reconnect before 4004. */
  reconnectGraceMs: number;
  maxTotalCost: number;
  maxSubscriptionsPerSession: number;
  /** WebSocket connections with enabled subscriptions one client + user may hold (Twitch: 3; the next is refused with 429). */
  maxConnectionsPerUser: number;
  /** Ping frame interval (twitch-cli: 5 s); 0 disables pings. */
  pingIntervalMs: number;
}

/** Every notification/keepalive frame the hub sent (for the control API's stats and the benchmark). */
export interface HubStats {
  notifications: number;
  keepalives: number;
  revocations: number;
  /** Sockets that took over a session after session_reconnect. */
  reconnects: number;
}

export class EventSubHub {
  readonly sessions = new Map<string, EventSubSession>();
  readonly subscriptions = new Map<string, EventSubSubscription>();
  private readonly routes = new Map<string, Set<EventSubSubscription>>();
  readonly settings: HubSettings = {
    defaultKeepaliveSeconds: 10,
    unusedTimeoutMs: 10_000,
    reconnectGraceMs: 30_000,
    maxTotalCost: 10,
    maxSubscriptionsPerSession: 300,
    maxConnectionsPerUser: 3,
    pingIntervalMs: 5_000,
  };
  readonly stats: HubStats = { notifications: 0, keepalives: 0, revocations: 0, reconnects: 0 };
  private duplicatesPending = 0;
  private readonly corked = new Set<Duplex>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly world: World,
    private readonly wsOrigin: () => string,
  ) {
    const onChat = (m: ChatMessage) => {
      if (m.platform === 'twitch') this.deliverJson('channel.chat.message', m.channelId, () => chatMessageEventJson(world, m));
    };
    const onDeleted = (m: ChatMessage) => {
      if (m.platform === 'twitch') this.deliver('channel.chat.message_delete', m.channelId, () => messageDeleteEvent(world, m));
    };
    const onBan = (b: {
      platform: string;
      channelId: string;
      userId: string;
      moderatorId: string;
      expiresAt: Date | null;
      reason: string;
    }) => {
      if (b.platform !== 'twitch') return;
      // Twitch sends both: the chat clears the user's lines, and channel.ban says who did what for how long.
      this.deliver('channel.chat.clear_user_messages', b.channelId, () => clearUserMessagesEvent(world, b.channelId, b.userId));
      const at = new Date();
      this.deliver('channel.ban', b.channelId, () => channelBanEvent(world, b, at));
    };
    const onEvent = (e: ChannelEvent) => {
      if (e.platform !== 'twitch') return;
      for (const d of eventDeliveries(world, e)) this.deliver(d.type, d.routeKey, () => d.event);
    };
    const onRevoked = (t: Token) => {
      if (t.platform === 'twitch' && t.userId !== null) this.revokeFor(t.clientId, t.userId, 'authorization_revoked');
    };
    const onReset = () => this.closeAll(closeCodes.internalError);
    world.on('chat', onChat);
    world.on('chat.deleted', onDeleted);
    world.on('ban', onBan);
    world.on('event', onEvent);
    world.on('token.revoked', onRevoked);
    world.on('reset', onReset);
    this.unsubscribe.push(
      () => world.off('chat', onChat),
      () => world.off('chat.deleted', onDeleted),
      () => world.off('ban', onBan),
      () => world.off('event', onEvent),
      () => world.off('token.revoked', onRevoked),
      () => world.off('reset', onReset),
    );
  }

  // ── sessions ────────────────────────────────────────────────────────────

  /** A socket connected to /ws (optionally a reconnect of an existing session). */
  accept(socket: WebSocket, query: { keepalive_timeout_seconds?: string; reconnect_id?: string }, raw: Duplex | null = null): void {
    if (query.reconnect_id !== undefined) {
      this.acceptReconnect(socket, query.reconnect_id, raw);
      return;
    }
    // Twitch clamps the requested keepalive to 10-600 s; an unreadable value gets the default.
    const requested = query.keepalive_timeout_seconds === undefined ? NaN : Number(query.keepalive_timeout_seconds);
    const keepaliveSeconds = Number.isFinite(requested)
      ? Math.min(600, Math.max(10, Math.round(requested)))
      : this.settings.defaultKeepaliveSeconds;
    const session: EventSubSession = {
      id: newSessionId(),
      socket,
      raw,
      previousSocket: null,
      connectedAt: rfc3339Nano(),
      keepaliveSeconds,
      clientId: null,
      userId: null,
      subscriptions: new Set(),
      lastSentAt: Date.now(),
      reconnectId: null,
      keepaliveTimer: setInterval(() => this.keepalive(session), Math.max(100, Math.min(1000, keepaliveSeconds * 250))),
      pingTimer: null,
      awaitingPong: false,
      unusedTimer: null,
      graceTimer: null,
      open: true,
    };
    session.keepaliveTimer.unref();
    this.sessions.set(session.id, session);
    this.bindSocket(session, socket);
    this.startPings(session);
    this.send(session, this.welcome(session));
    session.unusedTimer = setTimeout(() => {
      if (session.subscriptions.size === 0) this.closeSession(session, closeCodes.connectionUnused);
    }, this.settings.unusedTimeoutMs);
    session.unusedTimer.unref();
  }

  private acceptReconnect(socket: WebSocket, reconnectId: string, raw: Duplex | null): void {
    const session = [...this.sessions.values()].find((s) => s.open && s.reconnectId === reconnectId);
    if (!session) {
      socket.close(closeCodes.invalidReconnect, closeReasons[closeCodes.invalidReconnect]);
      return;
    }
    session.reconnectId = null;
    this.stats.reconnects++;
    session.previousSocket = session.socket;
    session.socket = socket;
    session.raw = raw;
    // Like twitch-cli's server, the new connection is a new session: new id, the subscriptions move over to it.
    this.renameSession(session, newSessionId());
    session.connectedAt = rfc3339Nano();
    session.awaitingPong = false;
    this.bindSocket(session, socket);
    this.send(session, this.welcome(session));
    const old = session.previousSocket;
    session.graceTimer = setTimeout(() => {
      if (old.readyState === old.OPEN) old.close(closeCodes.reconnectGraceExpired, closeReasons[closeCodes.reconnectGraceExpired]);
    }, this.settings.reconnectGraceMs);
    session.graceTimer.unref();
  }

  private renameSession(session: EventSubSession, id: string): void {
    this.sessions.delete(session.id);
    session.id = id;
    this.sessions.set(id, session);
    for (const subId of session.subscriptions) {
      const sub = this.subscriptions.get(subId);
      if (!sub) continue;
      sub.sessionId = id;
      sub.json = JSON.stringify(this.subscriptionJson(sub));
    }
  }

  /** Pings the current socket every `pingIntervalMs`; no pong since the last ping closes the session with 4002. */
  private startPings(session: EventSubSession): void {
    if (this.settings.pingIntervalMs <= 0) return;
    session.pingTimer = setInterval(() => {
      if (!session.open) return;
      if (session.awaitingPong) {
        this.closeSession(session, closeCodes.pingPong);
        return;
      }
      session.awaitingPong = true;
      try {
        session.socket.ping();
      } catch {
        // The socket is closing; its close handler ends the session.
      }
    }, this.settings.pingIntervalMs);
    session.pingTimer.unref();
  }

  private bindSocket(session: EventSubSession, socket: WebSocket): void {
    socket.on('pong', () => {
      if (session.socket === socket) session.awaitingPong = false;
    });
    socket.on('message', () => {
      // Twitch: clients must not send anything.
      if (session.socket === socket) this.closeSession(session, closeCodes.inboundTraffic);
      else socket.close(closeCodes.inboundTraffic, closeReasons[closeCodes.inboundTraffic]);
    });
    socket.on('close', () => {
      if (session.previousSocket === socket) {
        session.previousSocket = null;
        return;
      }
      if (session.socket === socket) this.endSession(session);
    });
    socket.on('error', () => undefined);
  }

  private welcome(session: EventSubSession): string {
    return JSON.stringify({
      metadata: { message_id: randomUUID(), message_type: 'session_welcome', message_timestamp: rfc3339Nano() },
      payload: {
        session: {
          id: session.id,
          status: 'connected',
          connected_at: session.connectedAt,
          keepalive_timeout_seconds: session.keepaliveSeconds,
          reconnect_url: null,
          recovery_url: null,
        },
      },
    });
  }

  private send(session: EventSubSession, frame: string): void {
    session.socket.send(frame);
    session.lastSentAt = Date.now();
  }

  private keepalive(session: EventSubSession): void {
    if (!session.open) return;
    if (Date.now() - session.lastSentAt < session.keepaliveSeconds * 1000 - 300) return;
    this.stats.keepalives++;
    this.send(
      session,
      `{"metadata":{"message_id":"${randomUUID()}","message_type":"session_keepalive","message_timestamp":"${rfc3339Nano()}"},"payload":{}}`,
    );
  }

  private endSession(session: EventSubSession): void {
    if (!session.open) return;
    session.open = false;
    clearInterval(session.keepaliveTimer);
    if (session.pingTimer) clearInterval(session.pingTimer);
    if (session.unusedTimer) clearTimeout(session.unusedTimer);
    if (session.graceTimer) clearTimeout(session.graceTimer);
    for (const id of session.subscriptions) {
      const sub = this.subscriptions.get(id);
      if (sub) this.disable(sub, 'websocket_disconnected');
    }
    this.sessions.delete(session.id);
    this.pruneDisabled();
  }

  /** Closes a session's socket with an EventSub close code. */
  closeSession(session: EventSubSession, code: number): void {
    if (session.socket.readyState === session.socket.OPEN) session.socket.close(code, closeReasons[code] ?? '');
    this.endSession(session);
  }

  /** Control: drop sockets abruptly (no close frame) or with a close code. */
  drop(sessionId?: string, code?: number): number {
    const targets = this.targets(sessionId);
    for (const s of targets) {
      if (code === undefined) {
        s.socket.terminate();
        this.endSession(s);
      } else this.closeSession(s, code);
    }
    return targets.length;
  }

  /** Control: send session_reconnect; the client connects to reconnect_url and keeps the same session and subscriptions. */
  reconnect(sessionId?: string): number {
    const targets = this.targets(sessionId);
    for (const s of targets) {
      s.reconnectId = newToken(16);
      const reconnectUrl = `${this.wsOrigin()}/ws?reconnect_id=${s.reconnectId}`;
      this.send(
        s,
        JSON.stringify({
          metadata: { message_id: randomUUID(), message_type: 'session_reconnect', message_timestamp: rfc3339Nano() },
          payload: {
            session: {
              id: s.id,
              status: 'reconnecting',
              keepalive_timeout_seconds: null,
              reconnect_url: reconnectUrl,
              connected_at: s.connectedAt,
              recovery_url: null,
            },
          },
        }),
      );
    }
    return targets.length;
  }

  /** Control: the next `count` notifications are delivered twice (same message_id). */
  duplicateNext(count: number): void {
    this.duplicatesPending += count;
  }

  private targets(sessionId?: string): EventSubSession[] {
    if (sessionId) {
      const s = this.sessions.get(sessionId);
      return s ? [s] : [];
    }
    return [...this.sessions.values()];
  }

  closeAll(code: number = closeCodes.internalError): void {
    for (const s of [...this.sessions.values()]) this.closeSession(s, code);
    this.subscriptions.clear();
    this.routes.clear();
  }

  dispose(): void {
    this.closeAll();
    for (const off of this.unsubscribe) off();
  }

  // ── subscriptions ───────────────────────────────────────────────────────

  addSubscription(input: {
    type: string;
    version: string;
    condition: Condition;
    routeKey: string;
    cost: number;
    session: EventSubSession;
    clientId: string;
    userId: string;
  }): EventSubSubscription {
    const id = randomUUID();
    const createdAt = rfc3339Nano();
    const sub: EventSubSubscription = {
      id,
      type: input.type,
      version: input.version,
      condition: input.condition,
      routeKey: input.routeKey,
      status: 'enabled',
      cost: input.cost,
      createdAt,
      sessionId: input.session.id,
      clientId: input.clientId,
      userId: input.userId,
      json: '',
    };
    sub.json = JSON.stringify(this.subscriptionJson(sub));
    this.subscriptions.set(id, sub);
    const key = `${sub.type}\u0000${sub.routeKey}`;
    let set = this.routes.get(key);
    if (!set) this.routes.set(key, (set = new Set()));
    set.add(sub);
    const session = input.session;
    session.subscriptions.add(id);
    session.clientId = input.clientId;
    session.userId = input.userId;
    if (session.unusedTimer) {
      clearTimeout(session.unusedTimer);
      session.unusedTimer = null;
    }
    return sub;
  }

  /** The subscription as Helix and notifications show it. */
  subscriptionJson(sub: EventSubSubscription): Record<string, unknown> {
    const session = this.sessions.get(sub.sessionId);
    return {
      id: sub.id,
      status: sub.status,
      type: sub.type,
      version: sub.version,
      condition: sub.condition,
      transport: { method: 'websocket', session_id: sub.sessionId, ...(session ? { connected_at: session.connectedAt } : {}) },
      created_at: sub.createdAt,
      cost: sub.cost,
    };
  }

  private unroute(sub: EventSubSubscription): void {
    this.routes.get(`${sub.type}\u0000${sub.routeKey}`)?.delete(sub);
    this.sessions.get(sub.sessionId)?.subscriptions.delete(sub.id);
  }

  private disable(sub: EventSubSubscription, status: SubscriptionStatus): void {
    this.unroute(sub);
    sub.status = status;
  }

  deleteSubscription(id: string): void {
    const sub = this.subscriptions.get(id);
    if (!sub) return;
    this.unroute(sub);
    this.subscriptions.delete(id);
  }

  /**
   * Other open sessions of a client + user that hold enabled subscriptions: Twitch counts these against the
   * limit of WebSocket connections per user token (a session being reconnected is one connection).
   */
  connectionsWithSubscriptions(clientId: string, userId: string, except: EventSubSession): number {
    let count = 0;
    for (const s of this.sessions.values()) {
      if (s === except || !s.open || s.clientId !== clientId || s.userId !== userId) continue;
      if ([...s.subscriptions].some((id) => this.subscriptions.get(id)?.status === 'enabled')) count++;
    }
    return count;
  }

  /** Subscriptions created by a client for a user (what GET eventsub/subscriptions lists for a user token). */
  subscriptionsOf(clientId: string, userId: string): EventSubSubscription[] {
    return [...this.subscriptions.values()].filter((s) => s.clientId === clientId && s.userId === userId);
  }

  findDuplicate(sessionId: string, type: string, version: string, condition: Condition): EventSubSubscription | undefined {
    const wanted = JSON.stringify(condition);
    for (const s of this.subscriptions.values()) {
      if (
        s.status === 'enabled' &&
        s.sessionId === sessionId &&
        s.type === type &&
        s.version === version &&
        JSON.stringify(s.condition) === wanted
      )
        return s;
    }
    return undefined;
  }

  private pruneDisabled(): void {
    if (this.subscriptions.size < 5000) return;
    for (const [id, s] of this.subscriptions) if (s.status !== 'enabled') this.subscriptions.delete(id);
  }

  /** Sends `revocation` for every enabled subscription of a client+user and removes them. */
  revokeFor(clientId: string | undefined, userId: string, status: SubscriptionStatus): number {
    let count = 0;
    for (const sub of [...this.subscriptions.values()]) {
      if (sub.status !== 'enabled' || sub.userId !== userId || (clientId !== undefined && sub.clientId !== clientId)) continue;
      const session = this.sessions.get(sub.sessionId);
      this.disable(sub, status);
      this.subscriptions.delete(sub.id);
      count++;
      if (session?.open) {
        this.stats.revocations++;
        this.send(
          session,
          JSON.stringify({
            metadata: {
              message_id: randomUUID(),
              message_type: 'revocation',
              message_timestamp: rfc3339Nano(),
              subscription_type: sub.type,
              subscription_version: sub.version,
            },
            payload: { subscription: { ...this.subscriptionJson(sub), status } },
          }),
        );
      }
    }
    return count;
  }

  // ── delivery ────────────────────────────────────────────────────────────

  /** Corks a TCP socket until the end of the current tick: a crowd batch leaves in one write. */
  private cork(raw: Duplex): void {
    if (this.corked.has(raw)) return;
    raw.cork();
    this.corked.add(raw);
    if (this.corked.size === 1) {
      process.nextTick(() => {
        for (const r of this.corked) r.uncork();
        this.corked.clear();
      });
    }
  }

  /** Sends a notification to every enabled subscription routed at (type, routeKey); the event is built only when someone listens. */
  deliver(type: string, routeKey: string, build: () => Record<string, unknown>): number {
    return this.deliverJson(type, routeKey, () => JSON.stringify(build()));
  }

  /** Like `deliver`, with the event already serialised. */
  deliverJson(type: string, routeKey: string, build: () => string): number {
    const subs = this.routes.get(`${type}\u0000${routeKey}`);
    if (!subs || subs.size === 0) return 0;
    const eventJson = build();
    const timestamp = rfc3339Nano();
    let sent = 0;
    for (const sub of subs) {
      const session = this.sessions.get(sub.sessionId);
      if (!session?.open) continue;
      if (session.raw) this.cork(session.raw);
      const frame = `{"metadata":{"message_id":"${randomUUID()}","message_type":"notification","message_timestamp":"${timestamp}","subscription_type":"${sub.type}","subscription_version":"${sub.version}"},"payload":{"subscription":${sub.json},"event":${eventJson}}}`;
      session.socket.send(frame);
      if (this.duplicatesPending > 0) {
        this.duplicatesPending--;
        session.socket.send(frame);
      }
      session.lastSentAt = Date.now();
      sent++;
    }
    this.stats.notifications += sent;
    return sent;
  }
}
