import { describe, expect, it } from 'vitest';
import type { Activity } from '@greenroom/contracts/api/events';
import { WIDGET_GONE_CLOSE_CODE } from '@greenroom/contracts/api/widgets';
import { FakeHubSocket, chatMessage } from '../../../test/chat-fixtures';
import { LocalEventBus } from '../../lib/event-bus';
import { publicEncoder } from '../public-chat';
import { toWidgetEvent, WidgetHub } from './widget-hub';

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

  it('gives a reconnecting alert box what it missed first, then the live events that arrived meanwhile, none twice', async () => {
    const bus = new LocalEventBus();
    const hub = new WidgetHub(bus, publicEncoder());
    let resolve!: (events: ReturnType<typeof toWidgetEvent>[]) => void;
    const missed = new Promise<ReturnType<typeof toWidgetEvent>[]>((r) => (resolve = r));
    const page = new FakeHubSocket();
    hub.join('c1', 'w1', 'alerts', page, missed);
    // Live while the database is read: held back, so the page's order stays the order they happened.
    bus.publish('channel:c1', { type: 'activity', seq: 3, data: activity('c') });
    bus.publish('channel:c1', { type: 'activity', seq: 2, data: activity('b') });
    expect(page.sent).toHaveLength(0);
    resolve([toWidgetEvent(activity('a')), toWidgetEvent(activity('b')), toWidgetEvent(activity('a'))]);
    await missed;
    await Promise.resolve();
    expect(ids(page)).toEqual(['a', 'b', 'c']);
    bus.publish('channel:c1', { type: 'activity', seq: 4, data: activity('d') });
    expect(ids(page)).toEqual(['a', 'b', 'c', 'd']);
    // A first connection gets nothing old; a failed read still lets live events through.
    const fresh = new FakeHubSocket();
    hub.join('c1', 'w2', 'alerts', fresh);
    const failed = new FakeHubSocket();
    const refused = Promise.reject(new Error('database down'));
    hub.join('c1', 'w3', 'alerts', failed, refused);
    await refused.catch(() => {});
    await Promise.resolve();
    bus.publish('channel:c1', { type: 'activity', seq: 5, data: activity('e') });
    expect(ids(fresh)).toEqual(['e']);
    expect(ids(failed)).toEqual(['e']);
  });

  it("keeps the replay's own id (each replay from the activity feed is a new alert)", () => {
    const bus = new LocalEventBus();
    const hub = new WidgetHub(bus, publicEncoder());
    const page = new FakeHubSocket();
    hub.join('c1', 'w1', 'alerts', page);
    bus.publish('channel:c1', { type: 'activity.replay', data: activity('a:replay:1') });
    expect(page.sent.map((p) => (JSON.parse(p) as { data: { id: string; replay: boolean } }).data)).toMatchObject([
      { id: 'a:replay:1', replay: true },
    ]);
  });

  it('sends giveaways and queues to their widgets only, without platform or wallet ids', () => {
    const bus = new LocalEventBus();
    const hub = new WidgetHub(bus, publicEncoder());
    const giveaway = new FakeHubSocket();
    const queue = new FakeHubSocket();
    const wall = new FakeHubSocket();
    const alerts = new FakeHubSocket();
    hub.join('c1', 'g', 'giveaway', giveaway);
    hub.join('c1', 'q', 'queue', queue);
    hub.join('c1', 'e', 'emotes', wall);
    hub.join('c1', 'a', 'alerts', alerts);
    const winner = {
      id: 'w1',
      place: 1,
      wallet_id: 'wallet-secret',
      provider: 'twitch' as const,
      provider_user_id: 'user-secret',
      display_name: 'Lucky',
      tickets: 1,
      status: 'pending' as const,
      drawn_at: new Date(0).toISOString(),
      claim_deadline: null,
    };
    bus.publish('channel:c1', {
      type: 'giveaway.updated',
      data: {
        id: 'g1',
        title: 'Poster',
        entry_mode: 'keyword',
        keyword: '!enter',
        ticket_cost: 100,
        max_tickets: 10,
        min_level: 0,
        platforms: [],
        sub_luck: 1,
        winners: 1,
        duration_seconds: 0,
        claim_seconds: 0,
        status: 'drawn',
        entry_count: 3,
        ticket_count: 3,
        opened_at: null,
        closes_at: null,
        closed_at: null,
        drawn_at: null,
        created_at: new Date(0).toISOString(),
        winner_list: [winner, { ...winner, id: 'w0', display_name: 'Rerolled', status: 'rerolled' }],
      },
    } as never);
    bus.publish('channel:c1', {
      type: 'queue.updated',
      data: {
        id: 'q1',
        name: 'Games',
        status: 'open',
        max_size: 0,
        auto_close: false,
        join_cooldown_seconds: 0,
        sub_priority: false,
        size: 1,
        created_at: new Date(0).toISOString(),
        updated_at: new Date(0).toISOString(),
        entries: [
          {
            id: 'e1',
            position: 1,
            wallet_id: 'wallet-secret',
            provider: 'kick',
            provider_user_id: 'user-secret',
            display_name: 'Next',
            priority: false,
            joined_at: new Date(0).toISOString(),
          },
        ],
        picked: [],
      },
    } as never);
    bus.publish('channel:c1', { type: 'queue.deleted', data: { id: 'q1' } });
    expect(giveaway.sent).toHaveLength(1);
    expect(JSON.parse(giveaway.sent[0]!)).toMatchObject({ type: 'giveaway', data: { winners: [{ display_name: 'Lucky', place: 1 }] } });
    expect(JSON.parse(giveaway.sent[0]!).data.winners).toHaveLength(1);
    expect(queue.sent.map((p) => (JSON.parse(p) as { type: string }).type)).toEqual(['queue', 'queue.removed']);
    for (const sent of [giveaway.sent, queue.sent]) expect(sent.join()).not.toMatch(/secret/);
    expect(wall.sent).toHaveLength(0);
    expect(alerts.sent).toHaveLength(0);
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

  it('sends what Spotify plays to now-playing pages only, the same frame to each', () => {
    const bus = new LocalEventBus();
    const hub = new WidgetHub(bus, publicEncoder());
    const [song, song2, alerts, chat] = [new FakeHubSocket(), new FakeHubSocket(), new FakeHubSocket(), new FakeHubSocket()];
    hub.join('c1', 'w-song', 'spotify', song);
    hub.join('c1', 'w-song2', 'spotify', song2);
    hub.join('c1', 'w-alerts', 'alerts', alerts);
    hub.join('c1', 'w-chat', 'chat', chat);
    const track = {
      id: 't1',
      uri: 'spotify:track:t1',
      name: 'Neon Skyline',
      artists: ['The Midnight Drivers'],
      album: 'Night Transit',
      duration_ms: 214_000,
      url: null,
      image_url: null,
    };
    const playing = { state: 'playing' as const, track, is_playing: true, progress_ms: 1000, at: new Date(0).toISOString() };
    bus.publish('channel:c1', { type: 'spotify.now_playing', data: { channel_id: 'c1', now_playing: playing } });
    bus.publish('channel:c1', { type: 'activity', seq: 1, data: activity('a1') });
    bus.publish('channel:c2', { type: 'spotify.now_playing', data: { channel_id: 'c2', now_playing: { state: 'not_connected' } } });
    expect(song.sent).toEqual([JSON.stringify({ type: 'now_playing', data: playing })]);
    expect(song2.sent).toEqual(song.sent);
    expect(song.sent[0]).not.toContain('c1');
    expect(ids(alerts)).toEqual(['a1']);
    expect(chat.sent).toHaveLength(0);
  });
});
