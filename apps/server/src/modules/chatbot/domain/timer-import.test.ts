import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportError } from './import-common';
import { detectTimerSource, mapTimerImport, parseInterval, type TimerImportContext } from './timer-import';

const none: TimerImportContext = { takenNames: [], messageLimit: null };
const twitch: TimerImportContext = { takenNames: [], messageLimit: { max: 500, name: 'Twitch' } };

/** As Nightbot's `GET /1/timers` answers. */
const nightbot = {
  _total: 5,
  status: 200,
  timers: [
    {
      _id: '5a0b5c1d2e3f4a5b6c7d8e9f',
      createdAt: '2021-03-01T18:00:00.000Z',
      updatedAt: '2021-03-01T18:00:00.000Z',
      enabled: true,
      interval: '*/15 * * * *',
      lines: 5,
      message: 'Follow on Twitter: https://twitter.com/someone — uptime $(twitch $(channel) "{{uptimeLength}}")',
      name: 'Socials',
      nextRunAt: '2021-03-01T18:15:00.000Z',
    },
    { _id: '2', enabled: false, interval: '0 * * * *', lines: 2, message: 'Hydrate!', name: 'Hydrate' },
    { _id: '3', enabled: true, interval: '0 */2 * * *', lines: 0, message: 'Two hours: $(eval 1+1)', name: 'Two hours' },
    { _id: '4', enabled: true, interval: 'every so often', lines: 0, message: 'x', name: 'Broken' },
    { _id: '5', enabled: true, interval: '*/5 * * * *', lines: 2000, message: 'Rules: be nice', name: 'Rules' },
  ],
};

/** As StreamElements' `GET /kappa/v2/bot/timers/{channel}` answers. */
const streamElements = [
  {
    _id: '60f1a2b3c4d5e6f708192a3b',
    channel: '5b2c3d4e5f60718293a4b5c6',
    name: 'Discord',
    enabled: true,
    chatLines: 10,
    offline: { enabled: false, interval: 30 },
    online: { enabled: true, interval: 20 },
    messages: ['Join the Discord: https://discord.gg/abc', 'Hi ${user}! ${random.pick "a" "b"}'],
    createdAt: '2021-07-16T12:00:00.000Z',
    updatedAt: '2021-07-16T12:00:00.000Z',
  },
  {
    _id: 'b',
    name: 'Always',
    enabled: true,
    chatLines: 0,
    offline: { enabled: true, interval: 60 },
    online: { enabled: true, interval: 15 },
    messages: [{ message: 'Tip: ${customapi.https://example.com/tip}' }],
  },
  {
    _id: 'c',
    name: 'Offline only',
    enabled: true,
    chatLines: 0,
    offline: { enabled: true, interval: 45 },
    online: { enabled: false, interval: 5 },
    messages: ['brb'],
  },
  { _id: 'd', name: 'Too soon', enabled: true, chatLines: 0, online: { enabled: true, interval: 0 }, messages: ['fast'] },
  { _id: 'e', name: 'Wall of text', enabled: true, chatLines: 0, online: { enabled: true, interval: 10 }, messages: ['x'.repeat(501)] },
  {
    _id: 'f',
    name: 'Points',
    enabled: true,
    chatLines: 0,
    online: { enabled: true, interval: 10 },
    messages: ['You have ${user.points} points'],
  },
  { _id: 'g', name: 'discord', enabled: true, chatLines: 0, online: { enabled: true, interval: 10 }, messages: ['dupe'] },
];

const byName = (items: ReturnType<typeof mapTimerImport>['items']) => Object.fromEntries(items.map((i) => [i.source_name, i]));

describe('parseInterval', () => {
  it('reads minutes, units and the cron shapes of "every N"', () => {
    expect(parseInterval(15)).toEqual({ minutes: 15 });
    expect(parseInterval('15')).toEqual({ minutes: 15 });
    expect(parseInterval('15m')).toEqual({ minutes: 15 });
    expect(parseInterval('2h')).toEqual({ minutes: 120 });
    expect(parseInterval('*/15 * * * *')).toEqual({ minutes: 15 });
    expect(parseInterval('0/10 * * * *')).toEqual({ minutes: 10 });
    expect(parseInterval('* * * * *')).toEqual({ minutes: 1 });
    expect(parseInterval('0 * * * *')).toEqual({ minutes: 60 });
    expect(parseInterval('0,20,40 * * * *')).toEqual({ minutes: 20 });
    expect(parseInterval('0 */3 * * *')).toEqual({ minutes: 180 });
    expect(parseInterval('30 12 * * *')).toEqual({ minutes: 1440 });
  });

  it('says why it cannot', () => {
    expect(parseInterval('0 12 * * 1')).toEqual({ error: 'The interval 0 12 * * 1 cannot be read' });
    expect(parseInterval('0,10,40 * * * *')).toMatchObject({ error: expect.stringContaining('cannot be read') });
    expect(parseInterval(undefined)).toEqual({ error: 'The timer has no interval' });
    expect(parseInterval(0)).toEqual({ error: 'The interval 0 is below the minimum of 1 minute' });
    expect(parseInterval(-5)).toMatchObject({ error: expect.stringContaining('below the minimum') });
    expect(parseInterval('0 */48 * * *')).toMatchObject({ error: expect.stringContaining('above the maximum of one day') });
    expect(parseInterval({ minutes: 5 })).toMatchObject({ error: expect.stringContaining('cannot be read') });
  });
});

describe('timer import', () => {
  it('detects the source', () => {
    expect(detectTimerSource(nightbot)).toBe('nightbot');
    expect(detectTimerSource(streamElements)).toBe('streamelements');
    expect(detectTimerSource({ commands: [{ name: '!x', message: 'y' }] })).toBeNull();
    expect(() => mapTimerImport({ foo: 1 }, none)).toThrow(ImportError);
    expect(() => mapTimerImport('text', none)).toThrow(ImportError);
    expect(() => mapTimerImport([], none)).toThrow(ImportError);
  });

  it('maps a Nightbot export: cron intervals, lines, online-only, variables', () => {
    const { source, items } = mapTimerImport(nightbot, twitch);
    expect(source).toBe('nightbot');
    const t = byName(items);
    expect(t.Socials).toMatchObject({
      status: 'ok',
      value: { name: 'Socials', interval_minutes: 15, min_lines: 5, online_only: true, enabled: true },
    });
    expect(t.Socials!.value!.messages[0]).toContain('uptime $(uptime)');
    expect(t.Hydrate).toMatchObject({ status: 'ok', value: { interval_minutes: 60, min_lines: 2, enabled: false } });
    expect(t['Two hours']).toMatchObject({ status: 'partial', value: { interval_minutes: 120 } });
    expect(t['Two hours']!.notes).toEqual(['$(eval) JavaScript is not run']);
    expect(t.Broken).toEqual({
      source_name: 'Broken',
      status: 'skipped',
      value: null,
      notes: ['The interval every so often cannot be read'],
    });
    expect(t.Rules).toMatchObject({
      status: 'partial',
      value: { min_lines: 1000 },
      notes: ['2000 chat lines is above our maximum: set to 1000'],
    });
  });

  it('maps a StreamElements export: online/offline, several messages, limits, names taken', () => {
    const { source, items } = mapTimerImport(streamElements, { ...twitch, takenNames: ['Points '] });
    expect(source).toBe('streamelements');
    const t = byName(items);
    expect(t.Discord).toMatchObject({
      status: 'ok',
      value: {
        name: 'Discord',
        interval_minutes: 20,
        min_lines: 10,
        online_only: true,
        enabled: true,
        messages: ['Join the Discord: https://discord.gg/abc', 'Hi ${user}! ${random.pick "a" "b"}'],
      },
    });
    expect(t.Always).toMatchObject({
      status: 'partial',
      value: { online_only: false, interval_minutes: 15, messages: ['Tip: $(urlfetch https://example.com/tip)'] },
      notes: ['The offline interval (60 min) is not kept: one interval, live or not'],
    });
    expect(t['Offline only']).toMatchObject({ status: 'partial', value: { online_only: false, interval_minutes: 45 } });
    expect(t['Too soon']).toMatchObject({ status: 'skipped', notes: ['The interval 0 is below the minimum of 1 minute'] });
    expect(t['Wall of text']).toMatchObject({
      status: 'skipped',
      notes: ['Twitch messages are limited to 500 characters (the message has 501)'],
    });
    expect(t.Points).toMatchObject({ status: 'skipped', notes: ['A timer named Points already exists'] });
    expect(t.discord).toMatchObject({ status: 'skipped', notes: ['Another timer named discord is earlier in this export'] });
  });

  it('keeps the messages that fit and notes the others; a variable it does not know is noted', () => {
    const { items } = mapTimerImport(
      [{ name: 'Mixed', online: { enabled: true, interval: 10 }, messages: ['short ${user.points}', 'y'.repeat(201), ''] }],
      { takenNames: [], messageLimit: { max: 200, name: 'YouTube' } },
    );
    expect(items[0]).toMatchObject({
      status: 'partial',
      value: { messages: ['short ${user.points}'] },
      notes: [
        '1 of 2 messages left out: YouTube messages are limited to 200 characters (the longest has 201)',
        'Variable user.points is not supported and would show [unknown: user.points]',
      ],
    });
  });

  it('takes a legacy StreamElements timer and a single pasted timer', () => {
    const legacy = mapTimerImport([{ name: 'Old', message: 'hello', interval: 10, chatLines: 3, online: { enabled: true } }], none);
    expect(legacy.items[0]).toMatchObject({ status: 'ok', value: { interval_minutes: 10, min_lines: 3, messages: ['hello'] } });
    const single = mapTimerImport({ name: 'One', message: 'hi', interval: '*/30 * * * *', lines: '4' }, none);
    expect(single).toMatchObject({ source: 'nightbot', items: [{ status: 'ok', value: { interval_minutes: 30, min_lines: 4 } }] });
  });

  it('stores what the database can hold: NUL removed, lone surrogates replaced', () => {
    const { items } = mapTimerImport([{ name: 'a\u0000b', online: { enabled: true, interval: 5 }, messages: ['x\ud800y'] }], none);
    expect(items[0]!.value).toMatchObject({ name: 'ab', messages: ['x\ufffdy'] });
  });

  it('reads a negative number of chat lines as none (a count is never below zero)', () => {
    const { items } = mapTimerImport({ timers: [{ name: 'a', message: 'x', interval: '*/5 * * * *', lines: -0.5000000000000001 }] }, none);
    expect(items[0]!.value).toMatchObject({ min_lines: 0 });
    const { items: more } = mapTimerImport([{ name: 'b', online: { enabled: true, interval: 5 }, messages: ['y'], chatLines: -3 }], none);
    expect(more[0]!.value).toMatchObject({ min_lines: 0 });
  });

  it('never throws on arbitrary JSON or Unicode, for either source (property)', () => {
    const unicode = fc.string({ unit: 'binary', maxLength: 80 });
    const value = fc.oneof(fc.jsonValue(), unicode, fc.integer(), fc.double(), fc.constant(undefined));
    const timerLike = fc.record(
      {
        name: value,
        message: value,
        messages: fc.oneof(value, fc.array(value, { maxLength: 25 })),
        interval: fc.oneof(
          value,
          unicode.map((s) => `*/${s} * * * *`),
        ),
        lines: value,
        chatLines: value,
        enabled: value,
        online: fc.oneof(value, fc.record({ enabled: value, interval: value }, { requiredKeys: [] })),
        offline: fc.oneof(value, fc.record({ enabled: value, interval: value }, { requiredKeys: [] })),
        conditions: value,
      },
      { requiredKeys: [] },
    );
    const data = fc.oneof(
      fc.jsonValue(),
      unicode,
      fc.array(fc.oneof(timerLike, fc.jsonValue()), { maxLength: 8 }),
      fc.record({ timers: fc.array(timerLike, { maxLength: 8 }) }),
      timerLike,
    );
    const context = fc.record({
      takenNames: fc.array(unicode, { maxLength: 4 }),
      messageLimit: fc.option(fc.record({ max: fc.integer({ min: 1, max: 600 }), name: fc.constant('Twitch') })),
    });
    fc.assert(
      fc.property(data, context, fc.option(fc.constantFrom('nightbot' as const, 'streamelements' as const)), (d, ctx, source) => {
        let result: ReturnType<typeof mapTimerImport>;
        try {
          result = mapTimerImport(d, ctx, source ?? undefined);
        } catch (error) {
          expect(error).toBeInstanceOf(ImportError);
          return;
        }
        for (const item of result.items) {
          expect(['ok', 'partial', 'skipped']).toContain(item.status);
          if (item.status === 'skipped') {
            expect(item.value).toBeNull();
            expect(item.notes.length).toBeGreaterThan(0);
            continue;
          }
          const v = item.value!;
          expect(v.name.trim().length).toBeGreaterThan(0);
          expect(v.messages.length).toBeGreaterThan(0);
          expect(Number.isInteger(v.interval_minutes) && v.interval_minutes >= 1 && v.interval_minutes <= 1440).toBe(true);
          expect(Number.isInteger(v.min_lines) && v.min_lines >= 0 && v.min_lines <= 1000).toBe(true);
          // eslint-disable-next-line no-control-regex
          for (const text of [v.name, ...v.messages]) expect(text).not.toMatch(/\u0000/);
        }
      }),
      { numRuns: 500 },
    );
  });
});
