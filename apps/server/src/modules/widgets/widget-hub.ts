/**
 * Live fan-out to widget pages. One bus subscription per channel with open widget pages; each event is encoded once
 * per kind (a chat frame for chat boxes, an event frame for alert boxes, event lists and goal bars) and the same
 * string goes to every page of that kind. Event frames of the last minute are kept per channel, so a page that
 * reconnects gets what it missed after the last event id it saw (it drops ids it already has).
 */
import type { Activity } from '@greenroom/contracts/api/events';
import { WIDGET_GONE_CLOSE_CODE, WIDGET_REPLAY_SECONDS, type WidgetEvent, type WidgetType } from '@greenroom/contracts/api/widgets';
import type { BusEvent, EventBus, Unsubscribe } from '../../lib/event-bus';
import { newId } from '../../lib/ids';
import { CLOSE_TRY_AGAIN_LATER, type EncoderFactory, type HubSocket } from '../chat';

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

interface Member {
  socket: HubSocket;
  widgetId: string;
  kind: 'chat' | 'event';
}

interface Recent {
  id: string;
  at: number;
  payload: string;
}

interface ChannelHub {
  members: Set<Member>;
  recent: Recent[];
  unsubscribe: Unsubscribe;
}

const OPEN = 1;
const RECENT_MAX = 500;

export interface WidgetHubOptions {
  now?: () => number;
  /** Unsent bytes allowed before a page is closed as too slow (it reconnects and catches up). */
  closeAbove?: number;
}

export class WidgetHub {
  private readonly channels = new Map<string, ChannelHub>();
  private readonly now: () => number;
  private readonly closeAbove: number;

  constructor(
    private readonly bus: EventBus,
    /** The public chat encoder (public message fields, removals as ids). */
    private readonly chatEncoder: EncoderFactory,
    options: WidgetHubOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.closeAbove = options.closeAbove ?? 1024 * 1024;
  }

  /**
   * Adds a widget page. `after`: the last event id the page saw before reconnecting; the events after it of the last
   * minute are sent at once. Returns the function that removes the page (call on close).
   */
  join(channelId: string, widgetId: string, type: WidgetType, socket: HubSocket, after: string | null = null): () => void {
    const hub = this.channelHub(channelId);
    const member: Member = { socket, widgetId, kind: type === 'chat' ? 'chat' : 'event' };
    if (member.kind === 'event' && after !== null) {
      this.prune(hub);
      const index = hub.recent.findIndex((r) => r.id === after);
      for (const r of hub.recent.slice(index + 1)) this.send(hub, member, r.payload);
    }
    hub.members.add(member);
    let left = false;
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
    const hub: ChannelHub = { members: new Set(), recent: [], unsubscribe: () => {} };
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
      const widgetEvent = eventOf(event);
      if (!widgetEvent) return;
      const payload = JSON.stringify({ type: 'event', data: widgetEvent });
      this.prune(hub);
      hub.recent.push({ id: widgetEvent.id, at: this.now(), payload });
      if (hub.recent.length > RECENT_MAX) hub.recent.shift();
      this.broadcast(hub, 'event', payload);
    });
    this.channels.set(channelId, hub);
    return hub;
  }

  private prune(hub: ChannelHub): void {
    const oldest = this.now() - WIDGET_REPLAY_SECONDS * 1000;
    let drop = 0;
    while (drop < hub.recent.length && hub.recent[drop]!.at < oldest) drop++;
    if (drop) hub.recent.splice(0, drop);
  }

  private broadcast(hub: ChannelHub, kind: Member['kind'], payload: string): void {
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
      // Each replay is a new alert: its own id, so a page that showed the first one shows this one too.
      return { ...toWidgetEvent(event.data, { replay: true }), id: `${event.data.id}:replay:${newId()}` };
    case 'widget.test':
      return toWidgetEvent(event.data, { test: true });
    default:
      return null;
  }
}
