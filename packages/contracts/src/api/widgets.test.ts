import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alertAmount,
  alertTypes,
  defaultWidgetSettings,
  goalIncrement,
  renderAlertTemplate,
  widgetSettingsSchemas,
  widgetTypes,
  type WidgetEvent,
} from './widgets';

const event = (over: Partial<WidgetEvent> = {}): WidgetEvent => ({
  id: 'e1',
  type: 'cheer',
  provider: 'twitch',
  name: 'Fan',
  tier: null,
  months: null,
  count: 500,
  amount: '500 bits',
  message: 'hi',
  occurred_at: new Date(0).toISOString(),
  test: false,
  replay: false,
  ...over,
});

describe('widget settings', () => {
  it('every type starts from valid defaults, and every alert type has a template', () => {
    for (const type of widgetTypes) expect(widgetSettingsSchemas[type].safeParse(defaultWidgetSettings(type)).success).toBe(true);
    for (const t of alertTypes) expect(defaultWidgetSettings('alerts').alerts[t].template).toContain('{name}');
  });
});

describe('alert templates', () => {
  it('fills the variables and leaves unknown ones as written', () => {
    expect(renderAlertTemplate('{name} cheered {amount} on {platform}: {message} {unknown}', event(), 'Twitch')).toBe(
      'Fan cheered 500 bits on Twitch: hi {unknown}',
    );
    expect(renderAlertTemplate('{name} resubscribed for {months} months', event({ type: 'resub', months: 7 }), 'Twitch')).toBe(
      'Fan resubscribed for 7 months',
    );
  });

  it('never throws and never drops text outside variables', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (template, name) => {
        const out = renderAlertTemplate(template, event({ name }), 'Kick');
        if (!template.includes('{')) expect(out).toBe(template);
      }),
    );
  });
});

describe('amounts and goals', () => {
  it('reads the amount from the count, else from the display amount', () => {
    expect(alertAmount({ count: 42, amount: null })).toBe(42);
    expect(alertAmount({ count: null, amount: '$1,250.50' })).toBe(1250.5);
    expect(alertAmount({ count: null, amount: null })).toBe(0);
  });

  it('counts follows for follow goals and subs (with gifted ones) for sub goals', () => {
    expect(goalIncrement('follows', { type: 'follow', count: null })).toBe(1);
    expect(goalIncrement('follows', { type: 'sub', count: null })).toBe(0);
    expect(goalIncrement('subs', { type: 'gift', count: 5 })).toBe(5);
    expect(goalIncrement('subs', { type: 'membership', count: null })).toBe(1);
    expect(goalIncrement('custom', { type: 'follow', count: null })).toBe(0);
  });
});
