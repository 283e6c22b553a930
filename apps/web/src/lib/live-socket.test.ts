import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveCloseCode } from '@greenroom/contracts/api/live';
import { setSessionEndedHandler } from './api-client';
import { setLiveAccessLostHandler } from './live-access';
import { liveSocketOptions } from './live-socket';

const close = (code: number) => new CloseEvent('close', { code });

describe('live socket closed by the server for access', () => {
  afterEach(() => {
    setLiveAccessLostHandler(() => {});
  });

  it('reconnects after an ordinary close, not after an access close; tells the page why', () => {
    const ended: number[] = [];
    const lost = vi.fn();
    const sessionEnded = vi.fn();
    setLiveAccessLostHandler(lost);
    setSessionEndedHandler(sessionEnded);
    const options = liveSocketOptions(() => {}, { authenticated: false, onEnded: (code) => void ended.push(code) });
    expect(options.shouldReconnect!(close(1006))).toBe(true);
    expect(options.shouldReconnect!(close(1013))).toBe(true);
    for (const code of [LiveCloseCode.ACCESS_LOST, LiveCloseCode.CHANNEL_DELETED, LiveCloseCode.SESSION_ENDED])
      expect(options.shouldReconnect!(close(code))).toBe(false);

    options.onClose!(close(1006));
    expect(ended).toEqual([]);
    options.onClose!(close(LiveCloseCode.ACCESS_LOST));
    options.onClose!(close(LiveCloseCode.CHANNEL_DELETED));
    expect(lost).toHaveBeenCalledTimes(2);
    options.onClose!(close(LiveCloseCode.SESSION_ENDED));
    expect(sessionEnded).toHaveBeenCalledTimes(1);
    expect(ended).toEqual([LiveCloseCode.ACCESS_LOST, LiveCloseCode.CHANNEL_DELETED, LiveCloseCode.SESSION_ENDED]);
  });
});
