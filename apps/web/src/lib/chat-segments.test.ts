import { describe, expect, it } from 'vitest';
import { mentionsAny, normaliseEmotes, safeHref, segmentMessage } from './chat-segments';

const emote = (start: number, end: number, name = 'Kappa', url = 'https://cdn.example/e.png') => ({
  start,
  end,
  name,
  url,
  source: 'platform' as const,
  id: name,
});

describe('safe links', () => {
  it('accepts only http and https', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('http://example.com')).toBe('http://example.com/');
    expect(safeHref('www.example.com')).toBe('https://www.example.com/');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,<script>')).toBeNull();
    expect(safeHref('not a url')).toBeNull();
  });

  it('never turns a script URL in a message into a link', () => {
    const segments = segmentMessage('click javascript://%0aalert(1) or vbscript://x now', []);
    expect(segments.some((s) => s.kind === 'link')).toBe(false);
    expect(segments.map((s) => ('text' in s ? s.text : '')).join('')).toBe('click javascript://%0aalert(1) or vbscript://x now');
  });

  it('links URLs, leaving trailing punctuation outside', () => {
    expect(segmentMessage('see https://example.com/x.', [])).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.com/x', href: 'https://example.com/x' },
      { kind: 'text', text: '.' },
    ]);
  });
});

describe('emotes', () => {
  it('replaces [start, end) ranges with emote segments, alt text = code', () => {
    expect(segmentMessage('hi Kappa there', [emote(3, 8)])).toEqual([
      { kind: 'text', text: 'hi ' },
      { kind: 'emote', code: 'Kappa', url: 'https://cdn.example/e.png', source: 'platform' },
      { kind: 'text', text: ' there' },
    ]);
  });

  it('handles emotes at the edges, back to back, and out of order', () => {
    const segments = segmentMessage('KappaPogChamp', [emote(5, 13, 'PogChamp'), emote(0, 5)]);
    expect(segments.map((s) => s.kind)).toEqual(['emote', 'emote']);
    expect(segments.map((s) => (s.kind === 'emote' ? s.code : ''))).toEqual(['Kappa', 'PogChamp']);
  });

  it('drops overlapping, out-of-range, empty and non-http ranges', () => {
    expect(
      normaliseEmotes([emote(0, 5), emote(3, 8), emote(6, 99), emote(4, 4), emote(-1, 2), emote(0, 2, 'x', 'javascript:alert(1)')], 10),
    ).toEqual([emote(0, 5)]);
    const segments = segmentMessage('Kappa Kappa', [emote(0, 5), emote(2, 8), emote(6, 11)]);
    expect(segments.map((s) => s.kind)).toEqual(['emote', 'text', 'emote']);
  });

  it('uses UTF-16 offsets (emoji before an emote)', () => {
    const text = '😀 Kappa';
    const segments = segmentMessage(text, [emote(3, 8)]);
    expect(segments).toEqual([
      { kind: 'text', text: '😀 ' },
      { kind: 'emote', code: 'Kappa', url: 'https://cdn.example/e.png', source: 'platform' },
    ]);
  });
});

describe('mentions', () => {
  it('flags mentions of the streamer for highlighting', () => {
    const segments = segmentMessage('hey @Streamer and @other', [], new Set(['streamer']));
    expect(segments).toEqual([
      { kind: 'text', text: 'hey ' },
      { kind: 'mention', text: '@Streamer', login: 'streamer', highlighted: true },
      { kind: 'text', text: ' and ' },
      { kind: 'mention', text: '@other', login: 'other', highlighted: false },
    ]);
  });

  it('detects a mention from the mentions list or the text', () => {
    const logins = new Set(['streamer']);
    expect(mentionsAny(['streamer'], 'hi', logins)).toBe(true);
    expect(mentionsAny([], 'hi @STREAMER!', logins)).toBe(true);
    expect(mentionsAny([], 'hi streamer', logins)).toBe(false);
    expect(mentionsAny(['x'], '@x', new Set())).toBe(false);
  });
});
