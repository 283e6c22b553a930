import { afterEach, describe, expect, it, vi } from 'vitest';
import { OwnBans } from './own-actions';

describe('OwnBans', () => {
  afterEach(() => vi.useRealTimers());

  it('takes one echo per mark, also when a timeout and a ban of one viewer are both in flight', () => {
    const bans = new OwnBans();
    bans.mark('b', 'v');
    bans.mark('b', 'v');
    expect(bans.takeEcho('b', 'v')).toBe(true);
    expect(bans.takeEcho('b', 'v')).toBe(true);
    expect(bans.takeEcho('b', 'v')).toBe(false);
  });

  it('forgets the newest mark when the platform call fails', () => {
    const bans = new OwnBans();
    bans.mark('b', 'v');
    bans.mark('b', 'v');
    bans.forget('b', 'v');
    expect(bans.takeEcho('b', 'v')).toBe(true);
    expect(bans.takeEcho('b', 'v')).toBe(false);
  });

  it('lets a mark expire, so a later platform ban is published', () => {
    vi.useFakeTimers();
    const bans = new OwnBans(1_000);
    bans.mark('b', 'v');
    vi.advanceTimersByTime(1_001);
    expect(bans.takeEcho('b', 'v')).toBe(false);
    expect(bans.takeEcho('b', 'other')).toBe(false);
  });

  it('tells another instance of each mark and forget (the holder recognises a ban made elsewhere)', () => {
    const here = new OwnBans();
    const holder = new OwnBans();
    here.mirror = (change) => holder.apply(change);
    here.mark('b', 'v');
    here.mark('b', 'w');
    here.forget('b', 'w');
    expect(holder.takeEcho('b', 'v')).toBe(true);
    expect(holder.takeEcho('b', 'w')).toBe(false);
    // What the other instance applied is not sent back.
    expect(holder.mirror).toBeNull();
  });
});
