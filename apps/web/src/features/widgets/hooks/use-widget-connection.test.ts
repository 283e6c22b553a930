import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultWidgetSettings, WIDGET_GONE_CLOSE_CODE } from '@greenroom/contracts/api/widgets';
import { useWidgetConnection, WIDGET_BACKOFF_MAX_MS } from './use-widget-connection';

/** A WebSocket stand-in the test opens, feeds and closes. */
class FakeSocket {
  static all: FakeSocket[] = [];
  static readonly OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.drop(1000);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  frame(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code: number) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const state = {
  type: 'alerts',
  settings: defaultWidgetSettings('alerts'),
  goal_current: null,
  events: [],
  messages: [],
  giveaway: null,
  queue: null,
  server_time: '2026-01-01T00:00:00.000Z',
};
let answers: (() => Response)[] = [];
const fetchMock = vi.fn(async () => (answers.shift() ?? (() => Response.json(state)))());

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  answers = [];
  fetchMock.mockClear();
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const flush = () =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });

describe('useWidgetConnection', () => {
  it('reconnects forever with growing waits, asking for what it missed since its last live state', async () => {
    const { result } = renderHook(() => useWidgetConnection('tok'));
    await flush();
    expect(FakeSocket.all).toHaveLength(1);
    // The first connection asks for nothing old.
    expect(FakeSocket.all[0]!.url).not.toContain('since');
    act(() => FakeSocket.all[0]!.open());
    expect(result.current.status).toBe('live');
    const event = {
      id: 'e1',
      type: 'follow',
      provider: 'twitch',
      name: 'Fan',
      tier: null,
      months: null,
      count: null,
      amount: null,
      message: null,
      occurred_at: '2026-01-01T00:00:00Z',
      test: false,
      replay: false,
    };
    act(() => FakeSocket.all[0]!.frame({ type: 'event', data: event }));
    // The server goes away, and stays away for a while: network errors, then it is back.
    act(() => FakeSocket.all[0]!.drop(1006));
    expect(result.current.status).toBe('reconnecting');
    answers = [
      () => {
        throw new TypeError('network');
      },
      () => {
        throw new TypeError('network');
      },
    ];
    await act(async () => {
      await vi.advanceTimersByTimeAsync(WIDGET_BACKOFF_MAX_MS * 3);
    });
    expect(fetchMock.mock.calls.length).toBeGreaterThanOrEqual(4);
    const again = FakeSocket.all.at(-1)!;
    expect(again.url).toContain(`/api/2/public/widgets/tok/ws?since=${encodeURIComponent(state.server_time)}`);
    act(() => again.open());
    expect(result.current.status).toBe('live');
  });

  it('closes a connection that went silent, and pings while open', async () => {
    renderHook(() => useWidgetConnection('tok'));
    await flush();
    const socket = FakeSocket.all[0]!;
    act(() => socket.open());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    expect(socket.sent).toContain(JSON.stringify({ type: 'ping' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(socket.readyState).toBe(3);
  });

  it('stops for good when the URL was rotated (close code) or is unknown (404)', async () => {
    const rotated = renderHook(() => useWidgetConnection('tok'));
    await flush();
    act(() => FakeSocket.all[0]!.open());
    act(() => FakeSocket.all[0]!.drop(WIDGET_GONE_CLOSE_CODE));
    expect(rotated.result.current.status).toBe('gone');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(WIDGET_BACKOFF_MAX_MS * 4);
    });
    expect(FakeSocket.all).toHaveLength(1);
    rotated.unmount();

    answers = [() => Response.json({ type: 'not_found', message: 'Widget not found' }, { status: 404 })];
    const unknown = renderHook(() => useWidgetConnection('nope'));
    await flush();
    expect(unknown.result.current.status).toBe('gone');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(WIDGET_BACKOFF_MAX_MS * 4);
    });
    expect(FakeSocket.all).toHaveLength(1);
  });
});
