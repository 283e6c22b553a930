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
});
