import { afterEach, describe, expect, it } from 'vitest';
import type { BusEvent } from '@greenroom/contracts/bus';
import { LocalEventBus } from './event-bus';

const event: BusEvent = { type: 'channel.deleted', data: { channel_id: 'c1' } };

describe('LocalEventBus', () => {
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => void uncaught.push(error);
  afterEach(() => {
    process.off('uncaughtException', onUncaught);
    uncaught.length = 0;
  });

  it('a throwing subscriber is caught, logged with the event type and counted; the others and the process go on', async () => {
    process.on('uncaughtException', onUncaught);
    const logged: object[] = [];
    const bus = new LocalEventBus({ error: (obj) => void logged.push(obj) });
    const got: string[] = [];
    bus.subscribe('channel:c1', () => got.push('first'));
    bus.subscribe('channel:c1', () => {
      throw new Error('user template blew up');
    });
    bus.subscribe('channel:c1', () => got.push('third'));
    expect(() => bus.publish('channel:c1', event)).not.toThrow();
    expect(() => bus.publish('channel:c1', event)).not.toThrow();
    // Nothing is rethrown later either (the old bus threw in a microtask and crashed the process).
    await new Promise((r) => setTimeout(r, 20));
    expect(uncaught).toEqual([]);
    expect(got).toEqual(['first', 'third', 'first', 'third']);
    expect(bus.stats.handlerErrors).toBe(2);
    expect(logged[0]).toMatchObject({ eventType: 'channel.deleted', topic: 'channel:c1' });
  });

  it('a broken logger does not take the publisher down', () => {
    const bus = new LocalEventBus({
      error: () => {
        throw new Error('logger down');
      },
    });
    bus.subscribe('user:u1', () => {
      throw new Error('x');
    });
    expect(() => bus.publish('user:u1', event)).not.toThrow();
    expect(bus.stats.handlerErrors).toBe(1);
  });

  it('delivers by topic; unsubscribing (also from inside a handler) stops delivery', () => {
    const bus = new LocalEventBus();
    const got: string[] = [];
    const off = bus.subscribe('channel:a', () => {
      got.push('a');
      off();
    });
    bus.subscribe('channel:b', () => got.push('b'));
    bus.publish('channel:a', event);
    bus.publish('channel:a', event);
    bus.publish('channel:b', event);
    expect(got).toEqual(['a', 'b']);
  });
});
