import { describe, expect, it } from 'vitest';
import type { ChannelStreamEvent } from '@greenroom/contracts/api/events';
import { FakeHubSocket as FakeSocket, chatMessage } from '../../../test/chat-fixtures';
import { LocalEventBus } from '../../lib/event-bus';
import { CLOSE_TRY_AGAIN_LATER, FanoutHub } from './fanout-hub';
import { staffEncoder } from './staff-encoder';

describe('FanoutHub', () => {
  it('serialises each event once for every socket of the channel and forwards only the four chat types', () => {
    const bus = new LocalEventBus();
    let encodes = 0;
    const hub = new FanoutHub(bus, (id) => {
      const enc = staffEncoder(id);
      return (e) => {
        encodes++;
        return enc(e);
      };
    });
    const sockets = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    const leaves = sockets.map((s) => hub.join('c1', s));
    const event: ChannelStreamEvent = { type: 'chat.message', seq: 1, data: chatMessage(1) };
    bus.publish('channel:c1', event);
    bus.publish('channel:c1', { type: 'channel.deleted', data: { channel_id: 'c1' } });
    bus.publish('channel:other', event);
    expect(encodes).toBe(2);
    for (const s of sockets) expect(s.sent).toEqual([JSON.stringify(event)]);
    // The very same string instance is handed to every socket.
    expect(sockets[0]!.sent[0]).toBe(sockets[2]!.sent[0]);
    for (const leave of leaves) leave();
    expect(hub.stats.channels).toBe(0);
    expect(hub.stats.sockets).toBe(0);
  });

  it('drops messages for a slow socket above the soft cap and closes it with 1013 past the hard cap; memory stays bounded', () => {
    const bus = new LocalEventBus();
    const hub = new FanoutHub(bus, staffEncoder, { dropAbove: 64 * 1024, closeAbove: 256 * 1024 });
    const fast = new FakeSocket(true);
    const slow = new FakeSocket(false);
    hub.join('c1', fast);
    hub.join('c1', slow);
    let maxBuffered = 0;
    for (let i = 0; i < 5000; i++) {
      bus.publish('channel:c1', { type: 'chat.message', seq: i, data: chatMessage(i) });
      maxBuffered = Math.max(maxBuffered, slow.bufferedAmount);
    }
    expect(fast.sent).toHaveLength(5000);
    // Never more than the soft cap plus one message held for the slow client.
    expect(maxBuffered).toBeLessThan(64 * 1024 + 1024);
    expect(slow.sent.length).toBeLessThan(400);
    expect(hub.stats.dropped).toBeGreaterThan(4000);
    expect(slow.closed).toBeNull();
    // The peer's buffer grows past the hard cap (e.g. a huge frame): closed with 1013, removed.
    slow.bufferedAmount = 300 * 1024;
    bus.publish('channel:c1', { type: 'chat.message', seq: 9999, data: chatMessage(9999) });
    expect(slow.closed?.code).toBe(CLOSE_TRY_AGAIN_LATER);
    expect(hub.socketCount('c1')).toBe(1);
  });

  it('closes a socket that kept missing messages for longer than maxDropMs', () => {
    const bus = new LocalEventBus();
    let now = 0;
    const hub = new FanoutHub(bus, staffEncoder, { dropAbove: 10, maxDropMs: 1000, now: () => now });
    const slow = new FakeSocket(false);
    hub.join('c1', slow);
    bus.publish('channel:c1', { type: 'chat.message', seq: 1, data: chatMessage(1) });
    bus.publish('channel:c1', { type: 'chat.message', seq: 2, data: chatMessage(2) });
    expect(slow.closed).toBeNull();
    now = 1500;
    bus.publish('channel:c1', { type: 'chat.message', seq: 3, data: chatMessage(3) });
    expect(slow.closed?.code).toBe(CLOSE_TRY_AGAIN_LATER);
  });
});
