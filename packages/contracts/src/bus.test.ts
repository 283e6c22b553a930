import { describe, expect, it } from 'vitest';
import { BUS_EVENTS_VERSION, busEventSchema, decodeBusEnvelope, encodeBusEnvelope, type BusEvent } from './bus';

describe('bus envelope', () => {
  it('round-trips an event with its topic and version', () => {
    const event: BusEvent = { type: 'access.changed', data: { channel_id: 'c1', user_id: 'u1', level: null } };
    const raw = encodeBusEnvelope('channel:c1', event);
    expect(JSON.parse(raw)).toMatchObject({ v: BUS_EVENTS_VERSION });
    expect(decodeBusEnvelope(raw)).toEqual({ topic: 'channel:c1', event });
  });

  it('refuses another version, an unknown type, a malformed event or topic', () => {
    const event = { type: 'user.deleted', data: { user_id: 'u1' } };
    expect(decodeBusEnvelope(JSON.stringify({ v: BUS_EVENTS_VERSION + 1, topic: 'user:u1', event }))).toBeNull();
    expect(decodeBusEnvelope(JSON.stringify({ v: BUS_EVENTS_VERSION, topic: 'user:u1', event: { type: 'nope', data: {} } }))).toBeNull();
    expect(decodeBusEnvelope(JSON.stringify({ v: BUS_EVENTS_VERSION, topic: 'user:u1', event: { type: 'user.deleted' } }))).toBeNull();
    expect(decodeBusEnvelope(JSON.stringify({ v: BUS_EVENTS_VERSION, topic: 'elsewhere', event }))).toBeNull();
    expect(decodeBusEnvelope('{')).toBeNull();
  });

  it('every event type is a distinct discriminator', () => {
    const types = busEventSchema.options.map((o) => o.shape.type.value);
    expect(new Set(types).size).toBe(types.length);
  });
});
