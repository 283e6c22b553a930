import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ChatEmote } from '@greenroom/contracts/api/events';
import type { FilterType } from '@greenroom/contracts/api/chatbot';
import {
  capsStats,
  compileRegex,
  compileRegexSet,
  lowerCaseSafe,
  FilterSet,
  findLinks,
  foldText,
  longestMarkRun,
  Offences,
  planAction,
  RegexError,
  similarity,
  type FilterDefinition,
  type FilterInput,
  type FilterSettings,
} from './filters';

export function filterDef<T extends FilterType>(
  type: T,
  settings: FilterSettings[T],
  over: Partial<FilterDefinition> = {},
): FilterDefinition {
  return {
    id: over.id ?? type,
    name: type,
    type,
    settings,
    exemptLevel: 7,
    action: 'timeout',
    durationSeconds: 600,
    warnFirst: false,
    message: '',
    enabled: true,
    ...over,
  };
}

function input(text: string, over: Partial<FilterInput> = {}): FilterInput {
  return { text, emotes: [], level: 0, userKey: 'twitch:1', permitKey: 'twitch:bob', provider: 'twitch', now: 1_000_000, ...over };
}

const emote = (text: string, name: string): ChatEmote => {
  const start = text.indexOf(name);
  return { start, end: start + name.length, name, id: name, source: '7tv', url: '' };
};

describe('link detection', () => {
  it.each([
    ['check https://evil.example.com/x', ['evil.example.com']],
    ['go to www.site.me now', ['www.site.me']],
    ['twitch.tv/foo', ['twitch.tv']],
    ['visit bit.ly', ['bit.ly']],
    ['spam.xyz', ['spam.xyz']],
    ['example。com', ['example.com']],
  ])('finds links in %s', (text, hosts) => {
    expect(findLinks(text)).toEqual(hosts);
  });

  it.each([
    'give.me a break',
    'sdotpro is here',
    'i.e. that',
    '1.5k viewers',
    'e.g. this',
    'ok.so what',
    'email me@mail.com',
    'end of sentence.Next one',
    'v1.2.3',
  ])('no false positive in %s', (text) => {
    expect(findLinks(text)).toEqual([]);
  });
});

describe('filters', () => {
  it('links: allow-list with subdomains, permits once within the window', () => {
    const set = new FilterSet([filterDef('links', { allowed_domains: ['youtube.com', 'https://clips.twitch.tv/'] })]);
    expect(set.check(input('see https://www.youtube.com/watch?v=1'))).toBeNull();
    expect(set.check(input('clip: clips.twitch.tv/abc'))).toBeNull();
    expect(set.check(input('buy at cheap.xyz'))?.reason).toBe('link to cheap.xyz');
    set.permit('twitch:bob', 1_060_000);
    expect(set.check(input('cheap.xyz'))).toBeNull();
    expect(set.check(input('cheap.xyz again'))).not.toBeNull();
    set.permit('twitch:bob', 1_060_000);
    expect(set.check(input('cheap.xyz', { now: 1_061_000 }))).not.toBeNull();
  });

  it('exempt levels skip the filter', () => {
    const set = new FilterSet([filterDef('links', { allowed_domains: [] }, { exemptLevel: 2 })]);
    expect(set.check(input('cheap.xyz', { level: 2 }))).toBeNull();
    expect(set.check(input('cheap.xyz', { level: 1 }))).not.toBeNull();
  });

  it('caps ignores emote names and mentions', () => {
    const text = 'OMEGALUL KEKW that was fun @STREAMER';
    const emotes = [emote(text, 'OMEGALUL'), emote(text, 'KEKW')];
    expect(capsStats(text, emotes)).toEqual({ letters: 10, upper: 0 });
    const set = new FilterSet([filterDef('caps', { min_length: 5, max_percent: 70 })]);
    expect(set.check(input(text, { emotes }))).toBeNull();
    expect(set.check(input('WHY IS THIS SO LOUD'))?.reason).toBe('100% capitals');
    expect(set.check(input('HI'))).toBeNull();
    expect(set.check(input('ÉCOUTEZ MOI TOUS'))?.reason).toBe('100% capitals');
  });

  it('symbols, emote count, length', () => {
    const set = new FilterSet([
      filterDef('symbols', { min_length: 5, max_percent: 50 }, { id: 's' }),
      filterDef('emotes', { max_count: 2 }, { id: 'e' }),
      filterDef('length', { max_length: 20 }, { id: 'l' }),
    ]);
    expect(set.check(input('!!!@@@###$$$ hi'))?.filter.id).toBe('s');
    expect(set.check(input('★★★★★★ ok'))?.filter.id).toBe('s');
    const t = 'a b c';
    expect(set.check(input(t, { emotes: [emote(t, 'a'), emote(t, 'b'), emote(t, 'c')] }))?.reason).toBe('3 emotes');
    expect(set.check(input('x'.repeat(21)))?.reason).toBe('21 characters');
    expect(set.check(input('😀'.repeat(20)))).toBeNull();
  });

  it('banned words: whole words, phrases, wildcards, folded text', () => {
    const set = new FilterSet([filterDef('words', { words: ['bad', 'very rude', 'spam*'] })]);
    expect(set.check(input('that is BAD'))?.reason).toBe('banned word "bad"');
    expect(set.check(input('badge'))).toBeNull();
    expect(set.check(input('you are very   rude'))).not.toBeNull();
    expect(set.check(input('spammers everywhere'))).not.toBeNull();
    expect(set.check(input('Ｂ̸Ａ̸Ｄ'))).not.toBeNull();
    expect(foldText('Ｂ̸Ａ̸Ｄ')).toBe('bad');
  });

  it('regular expressions run on RE2: pathological patterns finish', () => {
    const set = new FilterSet([filterDef('regex', { patterns: ['(a+)+$', 'fr[e3]{2}\\s*v-?bucks'] })]);
    expect(set.check(input('a'.repeat(5000) + 'b'))).toBeNull();
    expect(set.check(input('FREE vbucks here'))?.reason).toContain('matches');
  });

  it('rejects invalid and unsupported regular expressions with a readable message', () => {
    expect(() => compileRegex('(unclosed')).toThrow(RegexError);
    expect(() => compileRegex('(unclosed')).toThrow('Invalid regular expression: missing closing ): `(unclosed`');
    expect(() => compileRegex('(?<=a)b')).toThrow(/Invalid regular expression/);
    expect(() => compileRegex('a'.repeat(501))).toThrow(/500 characters/);
  });

  it('repetition: near-duplicates of a recent message and repeated words', () => {
    const set = new FilterSet([filterDef('repetition', { similarity_percent: 80, min_length: 10 })]);
    expect(set.check(input('follow my channel please'))).toBeNull();
    expect(set.check(input('follow my channel pleasee', { now: 1_001_000 }))).not.toBeNull();
    expect(set.check(input('follow my channel please', { userKey: 'twitch:2' }))).toBeNull();
    expect(set.check(input('spam spam spam spam spam spam', { userKey: 'twitch:3' }))).not.toBeNull();
    expect(similarity('abc', 'abc')).toBe(1);
    expect(similarity('abcdef', 'uvwxyz')).toBe(0);
  });

  it('zalgo: stacked marks, not ordinary accents', () => {
    const set = new FilterSet([filterDef('zalgo', { max_marks: 3 })]);
    expect(set.check(input('Tiếng Việt có dấu'))).toBeNull();
    expect(set.check(input('h̷̢̛̛̗̗e̸̡̛l̴̨̛l̵o̶'))).not.toBeNull();
    expect(longestMarkRun('e\u0301\u0302\u0303\u0304\u0305')).toBe(5);
  });

  it('disabled filters do nothing; first hit wins', () => {
    const set = new FilterSet([
      filterDef('length', { max_length: 1 }, { id: 'off', enabled: false }),
      filterDef('caps', { min_length: 1, max_percent: 50 }, { id: 'caps' }),
      filterDef('length', { max_length: 1 }, { id: 'len' }),
    ]);
    expect(set.check(input('AB'))?.filter.id).toBe('caps');
  });

  it('property: arbitrary Unicode through every filter never throws', () => {
    const set = new FilterSet([
      filterDef('links', { allowed_domains: ['a.com'] }, { id: '1' }),
      filterDef('caps', { min_length: 1, max_percent: 101 }, { id: '2' }),
      filterDef('symbols', { min_length: 1, max_percent: 101 }, { id: '3' }),
      filterDef('emotes', { max_count: 1000 }, { id: '4' }),
      filterDef('words', { words: ['x*y', 'ü'] }, { id: '5' }),
      filterDef('regex', { patterns: ['(a|b)*c', '\\p{Lu}{50}'] }, { id: '6' }),
      filterDef('repetition', { similarity_percent: 101, min_length: 1 }, { id: '7' }),
      filterDef('length', { max_length: 100_000 }, { id: '8' }),
      filterDef('zalgo', { max_marks: 1000 }, { id: '9' }),
    ]);
    fc.assert(
      fc.property(
        fc.string({ unit: fc.oneof(fc.constant('grapheme' as const), fc.constant('binary' as const)) as never, maxLength: 600 }),
        fc.array(fc.record({ start: fc.integer({ min: -5, max: 700 }), end: fc.integer({ min: -5, max: 700 }) }), { maxLength: 5 }),
        (text, ranges) => {
          const emotes = ranges.map((r) => ({ ...r, name: 'E', id: 'e', source: 'platform' as const, url: '' }));
          const hit = set.check(input(text, { emotes, userKey: 'u' }));
          expect(hit === null || typeof hit.reason === 'string').toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('property: arbitrary strings as links, caps and similarity inputs', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 }), (a, b) => {
        findLinks(a);
        capsStats(a, []);
        const s = similarity(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('actions', () => {
  const all = { deleteMessage: true, ban: true, maxTimeoutSeconds: 86_400 };

  it('uses the requested action when the platform can', () => {
    expect(planAction('timeout', 600, all, 'Twitch')).toEqual({
      requested: 'timeout',
      action: 'timeout',
      durationSeconds: 600,
      note: null,
    });
    expect(planAction('warn', 600, all, 'Twitch').action).toBe('delete');
  });

  it('falls back to the next allowed action and says so', () => {
    const noDelete = { deleteMessage: false, ban: true, maxTimeoutSeconds: 604_800 };
    expect(planAction('delete', 600, noDelete, 'Kick')).toEqual({
      requested: 'delete',
      action: 'timeout',
      durationSeconds: 1,
      note: 'Kick cannot delete single messages; timed out 1 s instead',
    });
    expect(planAction('timeout', 200_000, all, 'YouTube').note).toBe('YouTube allows timeouts up to 86400 s');
    expect(planAction('delete', 1, { deleteMessage: false, ban: false, maxTimeoutSeconds: null }, 'TikTok')).toEqual({
      requested: 'delete',
      action: null,
      durationSeconds: null,
      note: 'TikTok has no moderation actions; nothing done',
    });
  });

  it('counts offences per filter and user until reset', () => {
    const o = new Offences();
    expect(o.add('f', 'u')).toBe(1);
    expect(o.add('f', 'u')).toBe(2);
    expect(o.add('g', 'u')).toBe(1);
    o.reset();
    expect(o.add('f', 'u')).toBe(1);
  });
});

describe('regular expression sets', () => {
  it('matches without case, on the lower-cased text when the pattern allows it', () => {
    expect(lowerCaseSafe('fr[e3]{2}\\s*v-?bucks')).toBe(true);
    expect(lowerCaseSafe('[A-Z]{5}')).toBe(false);
    expect(lowerCaseSafe('\\p{Lu}+')).toBe(false);
    expect(lowerCaseSafe('(?i)abc')).toBe(false);
    expect(lowerCaseSafe('(?:abc)|d')).toBe(true);
    const set = compileRegexSet(['free\\s+vbucks', '[A-Z]{5}', 'BUY\\s+now', '(']);
    const check = (text: string) => set(text, text.toLowerCase());
    expect(check('FREE   VBUCKS here')).toBe('matches /free\\s+vbucks/');
    expect(check('abcde')).toBe('matches /[A-Z]{5}/');
    expect(check('buy NOW')).toBe('matches /BUY\\s+now/');
    expect(check('no: 1 2 3')).toBeNull();
  });

  it('property: the set agrees with matching each pattern without case', () => {
    const patterns = ['ab+c', 'x[yz]', 'Hello', '\\bok\\b', 'é+'];
    const set = compileRegexSet(patterns);
    const each = patterns.map((p) => compileRegex(p));
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'B', 'c', 'x', 'Z', 'h', 'E', 'l', 'O', 'k', ' ', 'é', 'É') as never, maxLength: 30 }),
        (text) => {
          const expected = each.some((p) => p.matcher(text).find());
          expect(set(text, text.toLowerCase()) !== null).toBe(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
