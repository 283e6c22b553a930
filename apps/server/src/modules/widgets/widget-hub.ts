/**
 * Live fan-out to widget pages. One bus subscription per channel with open widget pages; each event is encoded once
 * per kind (a chat frame for chat boxes, an event frame for alert boxes, event lists and goal bars) and the same
 * string goes to every page of that kind. An alert box that reconnects is given the alerts it missed (read from the
 * database by the caller); live events arriving meanwhile wait behind them, and none is sent twice.
 */
import type { Activity } from '@greenroom/contracts/api/events';
import { WIDGET_GONE_CLOSE_CODE, type WidgetEvent, type WidgetType } from '@greenroom/contracts/api/widgets';
import type { BusEvent, EventBus, Unsubscribe } from '../../lib/event-bus';
import { CLOSE_TRY_AGAIN_LATER, type EncoderFactory, type HubSocket } from '../chat';
import { publicGiveaway, publicQueue } from './public-views';

/** What a widget page sees of an activity: the viewer's display name, never platform ids. */
export function toWidgetEvent(activity: Activity, flags: { test?: boolean; replay?: boolean } = {}): WidgetEvent {
  return {
    id: activity.id,
    type: activity.type,
    provider: activity.provider,
    name: activity.viewer?.display_name || 'Anonymous',
    tier: activity.tier,
    months: activity.months,
    count: activity.count,
    amount: activity.amount,
    message: activity.message,
    occurred_at: activity.occurred_at,
    test: flags.test ?? false,
    replay: flags.replay ?? false,
  };
}

/** What a page is sent: chat (chat boxes, emote walls), events (alerts, lists, goals), a giveaway, a queue, a song. */
type Kind = 'chat' | 'event' | 'giveaway' | 'queue' | 'spotify';
const kinds: Record<WidgetType, Kind> = {
  alerts: 'event',
  events: 'event',
  goal: 'event',
  chat: 'chat',
  emotes: 'chat',
  giveaway: 'giveaway',
  queue: 'queue',
  spotify: 'spotify',
};

interface Member {
  socket: HubSocket;
  widgetId: string;
  kind: Kind;
  /** While its missed alerts are being read: the live event frames that arrived meanwhile (id, payload). */
  held: { id: string; payload: string }[] | null;
}

interface ChannelHub {
  members: Set<Member>;
  unsubscribe: Unsubscribe;
}

const OPEN = 1;
/** Live events held for one page while its missed alerts are read; more and it reconnects instead. */
const HELD_MAX = 1000;

export interface WidgetHubOptions {
  /** Unsent bytes allowed before a page is closed as too slow (it reconnects and catches up). */
  closeAbove?: number;
}

export class WidgetHub {
  private readonly channels = new Map<string, ChannelHub>();
  private readonly closeAbove: number;

  constructor(
    private readonly bus: EventBus,
    /** The public chat encoder (public message fields, removals as ids). */
    private readonly chatEncoder: EncoderFactory,
    options: WidgetHubOptions = {},
  ) {
    this.closeAbove = options.closeAbove ?? 1024 * 1024;
  }

  /**
   * Adds a widget page. `missed`: for an alert box that reconnects, the alerts it missed (read from the database);
   * they are sent first, then the live events that arrived while they were read, skipping any sent already.
   * Returns the function that removes the page (call on close).
   */
  join(channelId: string, widgetId: string, type: WidgetType, socket: HubSocket, missed: Promise<WidgetEvent[]> | null = null): () => void {
    const hub = this.channelHub(channelId);
    const kind = kinds[type];
    const member: Member = { socket, widgetId, kind, held: missed && kind === 'event' ? [] : null };
    hub.members.add(member);
    let left = false;
    if (member.held)
      void missed!.then(
        (events) => this.release(hub, member, events),
        () => this.release(hub, member, []),
      );
    return () => {
      if (left) return;
      left = true;
      hub.members.delete(member);
      if (hub.members.size === 0 && this.channels.get(channelId) === hub) {
        hub.unsubscribe();
        this.channels.delete(channelId);
      }
    };
  }

  private release(hub: ChannelHub, member: Member, missed: WidgetEvent[]): void {
    const held = member.held ?? [];
    member.held = null;
    if (!hub.members.has(member)) return;
    const sent = new Set<string>();
    for (const event of missed) {
      if (sent.has(event.id)) continue;
      sent.add(event.id);
      this.send(hub, member, JSON.stringify({ type: 'event', data: event }));
    }
    for (const h of held) if (!sent.has(h.id)) this.send(hub, member, h.payload);
  }

  /** Sends a frame to every open page of one widget (new settings, a goal's count). */
  sendToWidget(channelId: string, widgetId: string, frame: unknown): void {
    const hub = this.channels.get(channelId);
    if (!hub) return;
    const payload = JSON.stringify(frame);
    for (const m of hub.members) if (m.widgetId === widgetId) this.send(hub, m, payload);
  }

  /** Closes every page of a widget that was deleted or whose URL was rotated: they must not reconnect. */
  closeWidget(channelId: string, widgetId: string): void {
    const hub = this.channels.get(channelId);
    if (!hub) return;
    for (const m of [...hub.members]) {
      if (m.widgetId !== widgetId) continue;
      hub.members.delete(m);
      m.socket.close(WIDGET_GONE_CLOSE_CODE, 'This widget URL no longer works');
    }
  }

  pageCount(channelId: string): number {
    return this.channels.get(channelId)?.members.size ?? 0;
  }

  closeAll(code = 1001, reason = 'Server shutting down'): void {
    for (const hub of this.channels.values()) {
      hub.unsubscribe();
      for (const m of hub.members) m.socket.close(code, reason);
    }
    this.channels.clear();
  }

  private channelHub(channelId: string): ChannelHub {
    const existing = this.channels.get(channelId);
    if (existing) return existing;
    const encodeChat = this.chatEncoder(channelId);
    const hub: ChannelHub = { members: new Set(), unsubscribe: () => {} };
    hub.unsubscribe = this.bus.subscribe(`channel:${channelId}`, (event) => {
      if (event.type === 'channel.deleted') {
        // Its widgets went with it: their pages stop.
        for (const m of [...hub.members]) {
          hub.members.delete(m);
          m.socket.close(WIDGET_GONE_CLOSE_CODE, 'This widget URL no longer works');
        }
        return;
      }
      if (event.type === 'chat.message' || event.type === 'chat.moderation') {
        const encoded = encodeChat(event);
        if (!encoded) return;
        for (const e of Array.isArray(encoded) ? encoded : [encoded]) this.broadcast(hub, 'chat', e.payload);
        return;
      }
      if (event.type === 'giveaway.updated') {
        this.broadcast(hub, 'giveaway', JSON.stringify({ type: 'giveaway', data: publicGiveaway(event.data) }));
        return;
      }
      if (event.type === 'queue.updated') {
        this.broadcast(hub, 'queue', JSON.stringify({ type: 'queue', data: publicQueue(event.data) }));
        return;
      }
      if (event.type === 'spotify.now_playing') {
        this.broadcast(hub, 'spotify', JSON.stringify({ type: 'now_playing', data: event.data.now_playing }));
        return;
      }
      if (event.type === 'queue.deleted') {
        this.broadcast(hub, 'queue', JSON.stringify({ type: 'queue.removed', data: { id: event.data.id } }));
        return;
      }
      const widgetEvent = eventOf(event);
      if (!widgetEvent) return;
      const payload = JSON.stringify({ type: 'event', data: widgetEvent });
      for (const m of hub.members) {
        if (m.kind !== 'event') continue;
        if (m.held) {
          if (m.held.length < HELD_MAX) m.held.push({ id: widgetEvent.id, payload });
          else {
            hub.members.delete(m);
            m.socket.close(CLOSE_TRY_AGAIN_LATER, 'Too slow: reconnect to catch up');
          }
        } else this.send(hub, m, payload);
      }
    });
    this.channels.set(channelId, hub);
    return hub;
  }

  private broadcast(hub: ChannelHub, kind: Kind, payload: string): void {
    for (const m of hub.members) if (m.kind === kind) this.send(hub, m, payload);
  }

  private send(hub: ChannelHub, m: Member, payload: string): void {
    if (m.socket.readyState !== OPEN) return;
    if (m.socket.bufferedAmount > this.closeAbove) {
      hub.members.delete(m);
      m.socket.close(CLOSE_TRY_AGAIN_LATER, 'Too slow: reconnect to catch up');
      return;
    }
    m.socket.send(payload);
  }
}

/** The widget event of a bus event: a live activity, a replay from the activity feed or an editor's test. */
function eventOf(event: BusEvent): WidgetEvent | null {
  switch (event.type) {
    case 'activity':
      return event.data.type === 'stream_online' || event.data.type === 'stream_offline' ? null : toWidgetEvent(event.data);
    case 'activity.replay':
      // The publisher gave the replay its own id (a new alert, stored for pages that reconnect).
      return toWidgetEvent(event.data, { replay: true });
    case 'widget.test':
      return toWidgetEvent(event.data, { test: true });
    default:
      return null;
  }
}
