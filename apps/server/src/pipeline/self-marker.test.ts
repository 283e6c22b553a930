import { describe, expect, it } from 'vitest';
import { SelfMarker, type SelfSendChange } from './self-marker';

describe('SelfMarker across instances', () => {
  it('recognises on the holder the echo of a message sent from another instance, by text before the id is known and by id after', () => {
    const sender = new SelfMarker();
    const holder = new SelfMarker();
    const changes: SelfSendChange[] = [];
    sender.mirror = (change) => {
      changes.push(change);
      holder.apply(change);
    };
    const done = sender.beginSend('cp', 'streamer', ' hello chat ');
    expect(holder.isSelf('cp', null, 'streamer', 'm1', 'hello chat')).toBe(true);
    // One echo per send.
    expect(holder.isSelf('cp', null, 'streamer', 'm1b', 'hello chat')).toBe(false);
    done('m2');
    expect(holder.isSelf('cp', null, 'streamer', 'm2', 'anything')).toBe(true);
    expect(holder.isSelf('cp', null, 'viewer', 'm3', 'hello chat')).toBe(false);
    expect(changes.map((c) => c.op)).toEqual(['sending', 'sent']);
  });
});
