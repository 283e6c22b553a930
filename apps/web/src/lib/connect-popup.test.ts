import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONNECT_POLL_MS, openConnectPopup, watchConnectPopup } from './connect-popup';

function fakePopup() {
  const popup = {
    closed: false,
    href: 'about:blank',
    crossOrigin: false,
    close: vi.fn(() => {
      popup.closed = true;
    }),
    get location() {
      if (popup.crossOrigin) throw new DOMException('Blocked a frame with origin', 'SecurityError');
      return { href: popup.href };
    },
  };
  return popup;
}

describe('connect popup polling', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('polls every 100 ms until /user-provider-connected, reads user_provider_id, closes the popup', () => {
    const popup = fakePopup();
    const onConnected = vi.fn();
    const onClosed = vi.fn();
    watchConnectPopup(popup, { onConnected, onClosed });

    popup.crossOrigin = true; // on the platform's consent page
    vi.advanceTimersByTime(CONNECT_POLL_MS * 5);
    expect(onConnected).not.toHaveBeenCalled();

    popup.crossOrigin = false;
    popup.href = 'http://localhost:3000/oauth/kick?code=x&state=y';
    vi.advanceTimersByTime(CONNECT_POLL_MS);
    expect(onConnected).not.toHaveBeenCalled();

    popup.href = 'http://localhost:3000/user-provider-connected#user_provider_id=up_42';
    vi.advanceTimersByTime(CONNECT_POLL_MS - 1);
    expect(onConnected).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onConnected).toHaveBeenCalledWith('up_42');
    expect(popup.close).toHaveBeenCalled();

    vi.advanceTimersByTime(CONNECT_POLL_MS * 10);
    expect(onConnected).toHaveBeenCalledTimes(1);
    expect(onClosed).not.toHaveBeenCalled();
  });

  it('tells the opener when the connect did not happen (cancelled consent), from any page of the site', () => {
    const popup = fakePopup();
    const onConnected = vi.fn();
    const onFailed = vi.fn();
    watchConnectPopup(popup, { onConnected, onClosed: vi.fn(), onFailed });
    popup.href = `http://localhost:3000/user-provider-connected#connect_error=${encodeURIComponent('Kick did not connect: you cancelled it.')}`;
    vi.advanceTimersByTime(CONNECT_POLL_MS);
    expect(onFailed).toHaveBeenCalledWith('Kick did not connect: you cancelled it.');
    expect(onConnected).not.toHaveBeenCalled();
    expect(popup.close).toHaveBeenCalled();
  });

  it('stops polling when the user closes the popup', () => {
    const popup = fakePopup();
    const onConnected = vi.fn();
    const onClosed = vi.fn();
    watchConnectPopup(popup, { onConnected, onClosed });
    popup.closed = true;
    vi.advanceTimersByTime(CONNECT_POLL_MS);
    expect(onClosed).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(CONNECT_POLL_MS * 10);
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(onConnected).not.toHaveBeenCalled();
  });

  it('can be stopped by its caller', () => {
    const popup = fakePopup();
    const onClosed = vi.fn();
    const stop = watchConnectPopup(popup, { onConnected: vi.fn(), onClosed });
    stop();
    popup.closed = true;
    vi.advanceTimersByTime(CONNECT_POLL_MS * 3);
    expect(onClosed).not.toHaveBeenCalled();
  });
});

describe('openConnectPopup', () => {
  it('opens an 800×800 popup, or returns null when the browser blocks it', () => {
    const open = vi.fn<Window['open']>(() => null);
    const win = { open, screenX: 0, screenY: 0, outerWidth: 1600, outerHeight: 1000 } as unknown as Window;
    expect(openConnectPopup(win)).toBeNull();
    expect(open.mock.calls[0]![2]).toContain('width=800,height=800');
  });
});

describe('connect popup polling for other landing pages', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for the given path and reads the given hash key', () => {
    const popup = fakePopup();
    const onConnected = vi.fn();
    watchConnectPopup(popup, { onConnected, onClosed: vi.fn() }, { path: '/channel-provider-connected', hashKey: 'channel_provider_id' });
    popup.href = 'http://localhost/user-provider-connected#user_provider_id=u1';
    vi.advanceTimersByTime(CONNECT_POLL_MS);
    expect(onConnected).not.toHaveBeenCalled();
    popup.href = 'http://localhost/channel-provider-connected?channel_id=c1#channel_provider_id=p1';
    vi.advanceTimersByTime(CONNECT_POLL_MS);
    expect(onConnected).toHaveBeenCalledWith('p1');
    expect(popup.closed).toBe(true);
  });
});
