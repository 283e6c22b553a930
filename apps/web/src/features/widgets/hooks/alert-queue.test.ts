import { describe, expect, it } from 'vitest';
import { defaultWidgetSettings, type WidgetEvent } from '@greenroom/contracts/api/widgets';
import { AlertQueue, alertSettingsFor } from './alert-queue';
import { backoffDelay, WIDGET_BACKOFF_MAX_MS } from './use-widget-connection';

const event = (id: string, over: Partial<WidgetEvent> = {}): WidgetEvent => ({
  id,
  type: 'follow',
  provider: 'twitch',
  name: 'Fan',
  tier: null,
  months: null,
  count: null,
  amount: null,
  message: null,
  occurred_at: new Date(0).toISOString(),
  test: false,
  replay: false,
  ...over,
});

describe('AlertQueue', () => {
  it('keeps arrival order and ignores an id it has seen (a replay after reconnecting)', () => {
    const q = new AlertQueue();
    expect(q.push(event('a'))).toBe(true);
    expect(q.push(event('b'))).toBe(true);
    expect(q.push(event('a'))).toBe(false);
    expect(q.shift()?.id).toBe('a');
    expect(q.push(event('a'))).toBe(false);
    expect(q.shift()?.id).toBe('b');
    expect(q.length).toBe(0);
  });

  it('forgets the oldest ids past its memory', () => {
    const q = new AlertQueue(2);
    q.push(event('a'));
    q.push(event('b'));
    q.push(event('c'));
    expect(q.push(event('a'))).toBe(true);
  });
});

describe('alertSettingsFor', () => {
  it('shows enabled types at or above their minimum', () => {
    const settings = defaultWidgetSettings('alerts');
    settings.alerts.cheer.min_amount = 100;
    settings.alerts.follow.enabled = false;
    expect(alertSettingsFor(settings, event('1'))).toBeNull();
    expect(alertSettingsFor(settings, event('2', { type: 'cheer', count: 99, amount: '99 bits' }))).toBeNull();
    expect(alertSettingsFor(settings, event('3', { type: 'cheer', count: 100, amount: '100 bits' }))?.template).toBe(
      '{name} cheered {amount}!',
    );
    expect(alertSettingsFor(settings, event('4', { type: 'stream_online' }))).toBeNull();
  });
});

describe('backoffDelay', () => {
  it('doubles from about a second up to the cap, with jitter', () => {
    expect(backoffDelay(0, () => 1)).toBe(1000);
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(3, () => 1)).toBe(8000);
    expect(backoffDelay(50, () => 1)).toBe(WIDGET_BACKOFF_MAX_MS);
  });
});
