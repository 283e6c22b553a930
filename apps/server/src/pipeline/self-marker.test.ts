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

  it('matches an echo only on its connection and account, once per send, among many sends in flight', () => {
    const marker = new SelfMarker();
    for (let i = 0; i < 200; i++) marker.beginSend(`cp${i % 5}`, `bot${i % 3}`, `reply ${i}`);
    const twice = [marker.beginSend('cp1', 'bot1', 'same'), marker.beginSend('cp1', 'bot1', 'same')];
    expect(marker.isSelf('cp2', null, 'bot1', 'x1', 'same')).toBe(false);
    expect(marker.isSelf('cp1', null, 'bot2', 'x2', 'same')).toBe(false);
    expect(marker.isSelf('cp1', null, 'bot1', 'x3', ' same ')).toBe(true);
    expect(marker.isSelf('cp1', null, 'bot1', 'x4', 'same')).toBe(true);
    expect(marker.isSelf('cp1', null, 'bot1', 'x5', 'same')).toBe(false);
    // reply 7 was sent on cp2 as bot1 (7 % 5, 7 % 3).
    expect(marker.isSelf('cp2', null, 'bot1', 'x6', 'reply 7')).toBe(true);
    expect(marker.isSelf('cp2', null, 'bot1', 'x7', 'reply 7')).toBe(false);
    expect(marker.isSelf('cp3', null, 'bot1', 'x8', 'reply 7')).toBe(false);
    twice.forEach((done) => done(null));
  });
});
