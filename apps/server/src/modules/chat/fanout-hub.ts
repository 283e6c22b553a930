/**
 * Per-channel websocket fan-out: one bus subscription per channel with sockets, each event encoded
 * (JSON-serialised) ONCE and the same string sent to every socket of the channel.
 * Backpressure: a socket whose `bufferedAmount` is above `dropAbove` misses messages (counted); one
 * above `closeAbove`, or that kept missing messages for `maxDropMs`, is closed with 1013 (try again
 * later). Per socket the server thus holds at most about `dropAbove` + one message.
 */
import { channelTopic } from '@greenroom/contracts/bus';
import type { BusEvent, EventBus, Unsubscribe } from '../../lib/event-bus';

/** What the hub needs of a websocket (`ws` WebSocket fits). */
export interface HubSocket {
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** An encoded event: the payload sent as is, and the platform it is about (for per-socket filters). */
export interface Encoded {
  payload: string;
  provider: string | null;
}

/** Builds the encoder of one channel (it may keep bounded per-channel state, e.g. recent message ids). */
export type EncoderFactory = (channelId: string) => (event: BusEvent) => Encoded | Encoded[] | null;

export interface FanoutOptions {
  dropAbove?: number;
  closeAbove?: number;
  maxDropMs?: number;
  now?: () => number;
}

export interface FanoutStats {
  channels: number;
  sockets: number;
  encoded: number;
  sent: number;
  dropped: number;
  closedSlow: number;
}

interface Member {
  socket: HubSocket;
  providers: ReadonlySet<string> | null;
  droppingSince: number | null;
  dropped: number;
}

interface ChannelFanout {
  members: Set<Member>;
  unsubscribe: Unsubscribe;
}

const OPEN = 1;
export const CLOSE_TRY_AGAIN_LATER = 1013;

export class FanoutHub {
  private readonly channels = new Map<string, ChannelFanout>();
  readonly stats: FanoutStats = { channels: 0, sockets: 0, encoded: 0, sent: 0, dropped: 0, closedSlow: 0 };
  private readonly dropAbove: number;
  private readonly closeAbove: number;
  private readonly maxDropMs: number;
  private readonly now: () => number;

  constructor(
    private readonly bus: EventBus,
    private readonly encoderFor: EncoderFactory,
    options: FanoutOptions = {},
  ) {
    this.dropAbove = options.dropAbove ?? 1024 * 1024;
    this.closeAbove = options.closeAbove ?? 4 * 1024 * 1024;
    this.maxDropMs = options.maxDropMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** Adds a socket to a channel's fan-out; returns the function that removes it (call on close). */
  join(channelId: string, socket: HubSocket, filter: { providers?: ReadonlySet<string> | null } = {}): () => void {
    let fanout = this.channels.get(channelId);
    if (!fanout) {
      const encode = this.encoderFor(channelId);
      const members = new Set<Member>();
      const unsubscribe = this.bus.subscribe(channelTopic(channelId), (event) => this.deliver(members, encode(event)));
      fanout = { members, unsubscribe };
      this.channels.set(channelId, fanout);
      this.stats.channels = this.channels.size;
    }
    const member: Member = { socket, providers: filter.providers ?? null, droppingSince: null, dropped: 0 };
    fanout.members.add(member);
    this.stats.sockets++;
    const current = fanout;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (current.members.delete(member)) this.stats.sockets--;
      if (current.members.size === 0 && this.channels.get(channelId) === current) {
        current.unsubscribe();
        this.channels.delete(channelId);
        this.stats.channels = this.channels.size;
      }
    };
  }

  socketCount(channelId: string): number {
    return this.channels.get(channelId)?.members.size ?? 0;
  }

  private deliver(members: Set<Member>, encoded: Encoded | Encoded[] | null): void {
    if (!encoded) return;
    if (Array.isArray(encoded)) {
      for (const e of encoded) this.deliverOne(members, e);
    } else this.deliverOne(members, encoded);
  }

  private deliverOne(members: Set<Member>, encoded: Encoded): void {
    this.stats.encoded++;
    for (const m of members) {
      if (m.providers && encoded.provider !== null && !m.providers.has(encoded.provider)) continue;
      const socket = m.socket;
      if (socket.readyState !== OPEN) continue;
      const buffered = socket.bufferedAmount;
      if (buffered > this.dropAbove) {
        const now = this.now();
        m.droppingSince ??= now;
        m.dropped++;
        this.stats.dropped++;
        if (buffered > this.closeAbove || now - m.droppingSince > this.maxDropMs) {
          this.stats.closedSlow++;
          members.delete(m);
          this.stats.sockets--;
          socket.close(CLOSE_TRY_AGAIN_LATER, 'Too slow: reconnect to catch up');
        }
        continue;
      }
      m.droppingSince = null;
      socket.send(encoded.payload);
      this.stats.sent++;
    }
  }

  /** Closes every socket (shutdown). */
  closeAll(code = 1001, reason = 'Server shutting down'): void {
    for (const fanout of this.channels.values()) {
      fanout.unsubscribe();
      for (const m of fanout.members) m.socket.close(code, reason);
    }
    this.channels.clear();
    this.stats.channels = 0;
    this.stats.sockets = 0;
  }
}
