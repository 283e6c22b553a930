import { describe, expect, it } from 'vitest';
import type { Activity } from '@greenroom/contracts/api/events';
import { WIDGET_GONE_CLOSE_CODE } from '@greenroom/contracts/api/widgets';
import { FakeHubSocket, chatMessage } from '../../../test/chat-fixtures';
import { LocalEventBus } from '../../lib/event-bus';
import { publicEncoder } from '../public-chat';
import { WidgetHub } from './widget-hub';

const activity = (id: string, type: Activity['type'] = 'follow'): Activity => ({
  id,
  channel_id: 'c1',
  channel_provider_id: 'cp',
  provider: 'twitch',
  provider_event_id: id,
  type,
  viewer: { provider_user_id: 'private-id', login: 'fan', display_name: 'Fan' },
  tier: null,
  months: null,
  count: null,
  amount: null,
  message: null,
  occurred_at: new Date(0).toISOString(),
});

const ids = (s: FakeHubSocket) => s.sent.map((p) => (JSON.parse(p) as { data: { id: string } }).data.id);

describe('WidgetHub', () => {
  it('sends chat to chat boxes and events to the others, without platform user ids, encoded once', () => {
    const bus = new LocalEventBus();
    const hub = new WidgetHub(bus, publicEncoder());
    const chat = new FakeHubSocket();
    const alerts = new FakeHubSocket();
    hub.join('c1', 'w-chat', 'chat', chat);
    hub.join('c1', 'w-alerts', 'alerts', alerts);
    bus.publish('channel:c1', { type: 'chat.message', seq: 1, data: chatMessage(1) });
    bus.publish('channel:c1', { type: 'activity', seq: 1, data: activity('a1') });
    bus.publish('channel:c1', { type: 'activity', seq: 1, data: activity('s1', 'stream_online') });
    expect(chat.sent).toHaveLength(1);
    expect(ids(alerts)).toEqual(['a1']);
    expect(alerts.sent[0]).not.toContain('private-id');
    expect(alerts.sent[0]).not.toContain('channel_provider_id');
  });

  it('replays what a page missed within the last minute after the id it saw, and each activity-feed replay is new', () => {
    let now = 0;
    const bus = new LocalEventBus();
    const hub = new WidgetHub(bus, publicEncoder(), { now: () => now });
    const keep = new FakeHubSocket();
    hub.join('c1', 'w0', 'events', keep);
    bus.publish('channel:c1', { type: 'activity', seq: 1, data: activity('old') });
    now = 50_000;
    bus.publish('channel:c1', { type: 'activity', seq: 1, data: activity('a') });
    bus.publish('channel:c1', { type: 'activity', seq: 1, data: activity('b') });
    bus.publish('channel:c1', { type: 'activity.replay', data: activity('a') });
    bus.publish('channel:c1', { type: 'activity.replay', data: activity('a') });
    now = 65_000; // `old` is past the minute
    const back = new FakeHubSocket();
    hub.join('c1', 'w1', 'alerts', back, 'a');
    const replayed = ids(back);
    expect(replayed.slice(0, 1)).toEqual(['b']);
    expect(replayed).toHaveLength(3);
    expect(new Set(replayed).size).toBe(3);
    // An id no longer known: everything of the last minute (the page dedupes what it has).
    const lost = new FakeHubSocket();
    hub.join('c1', 'w2', 'alerts', lost, 'unknown');
    expect(ids(lost).slice(0, 2)).toEqual(['a', 'b']);
    expect(ids(lost)).not.toContain('old');
    // A first connection gets nothing old.
    const fresh = new FakeHubSocket();
    hub.join('c1', 'w3', 'alerts', fresh);
    expect(fresh.sent).toHaveLength(0);
  });

  it('closes a rotated or deleted widget with the code that stops its page, and unsubscribes the last page', () => {
    const bus = new LocalEventBus();
    const hub = new WidgetHub(bus, publicEncoder());
    const a = new FakeHubSocket();
    const b = new FakeHubSocket();
    hub.join('c1', 'w1', 'goal', a);
    const leaveB = hub.join('c1', 'w2', 'goal', b);
    hub.sendToWidget('c1', 'w1', { type: 'goal.current', data: { current: 3 } });
    expect(a.sent).toEqual([JSON.stringify({ type: 'goal.current', data: { current: 3 } })]);
    expect(b.sent).toHaveLength(0);
    hub.closeWidget('c1', 'w1');
    expect(a.closed?.code).toBe(WIDGET_GONE_CLOSE_CODE);
    expect(hub.pageCount('c1')).toBe(1);
    leaveB();
    expect(hub.pageCount('c1')).toBe(0);
  });
});
