import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../platforms/port';
import { platformChat } from '../../test/chat-fixtures';
import { cleanDate, cleanString, LINE_MAX, normaliseEvent, TEXT_MAX } from './normalise';

const now = '2026-01-01T00:00:00.000Z';
/** What PostgreSQL refuses in text and jsonb: NUL, and a surrogate that is not part of a pair. */
const storable = (s: string) => !s.includes('\u0000') && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe('normalise', () => {
  it('removes NUL, replaces lone surrogates, keeps pairs, caps without splitting a pair', () => {
    expect(cleanString('a\u0000b', 10)).toBe('ab');
    expect(cleanString('x\ud800y', 10)).toBe('x\ufffdy');
    expect(cleanString('x\udc00', 10)).toBe('x\ufffd');
    expect(cleanString('😀😀', 10)).toBe('😀😀');
    expect(cleanString('ab😀', 3)).toBe('ab');
    expect(cleanString('clean', 10)).toBe('clean');
  });

  it('any string comes out storable and within its cap', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.integer({ min: 1, max: 300 }), (s, max) => {
        const out = cleanString(s, max);
        expect(storable(out)).toBe(true);
        expect(out.length).toBeLessThanOrEqual(max);
      }),
    );
  });

  it('parses dates or falls back to the receipt time, and keeps years PostgreSQL and JavaScript agree on', () => {
    expect(cleanDate('2025-05-05T10:00:00Z', now)).toBe('2025-05-05T10:00:00.000Z');
    expect(cleanDate('not a date', now)).toBe(now);
    expect(cleanDate('+275760-09-13T00:00:00.000Z', now)).toBe(now);
    expect(cleanDate(42, now)).toBe(now);
  });

  it('cleans every field of a chat message, caps the text and drops emotes outside it', () => {
    const long = 'x'.repeat(TEXT_MAX + 50);
    const event = platformChat(
      'id\u0000'.repeat(100),
      long,
      { id: 'u\ud800', name: 'N\u0000ame' },
      {
        emotes: [
          { start: 0, end: 2, name: 'ok', id: 'e1', source: 'platform', url: 'u' },
          { start: TEXT_MAX + 1, end: TEXT_MAX + 3, name: 'gone', id: 'e2', source: 'platform', url: 'u' },
          { start: 1.5, end: 3, name: 'bad', id: 'e3', source: 'platform', url: 'u' },
        ],
        sent_at: 'yesterday',
        reply: { provider_message_id: 'p', author_display_name: 'A\u0000', text: '\udfff' },
      },
    );
    const out = normaliseEvent(event, now) as Extract<PlatformEvent, { kind: 'chat' }>;
    expect(out.message.text).toHaveLength(TEXT_MAX);
    expect(out.message.provider_message_id.length).toBeLessThanOrEqual(LINE_MAX);
    expect(out.message.provider_message_id).not.toContain('\u0000');
    expect(out.message.author.provider_user_id).toBe('u\ufffd');
    expect(out.message.author.display_name).toBe('Name');
    expect(out.message.emotes.map((e) => e.id)).toEqual(['e1']);
    expect(out.message.sent_at).toBe(now);
    expect(out.message.reply).toEqual({ provider_message_id: 'p', author_display_name: 'A', text: '\ufffd' });
  });

  it('returns clean events as they are (no copy on the hot path)', () => {
    const event = platformChat('m1', 'hello', { id: 'u1', name: 'Viewer' }, { sent_at: now });
    expect(normaliseEvent(event, now)).toBe(event);
  });

  it('nulls integers PostgreSQL cannot store', () => {
    const out = normaliseEvent(
      {
        kind: 'activity',
        activity: {
          provider_event_id: 'e',
          type: 'raid',
          viewer: null,
          tier: null,
          months: 2 ** 40,
          count: 1.5,
          amount: null,
          message: null,
          occurred_at: now,
        },
      },
      now,
    ) as Extract<PlatformEvent, { kind: 'activity' }>;
    expect(out.activity.months).toBeNull();
    expect(out.activity.count).toBeNull();
  });
});
