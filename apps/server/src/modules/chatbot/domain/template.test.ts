import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseTemplate, renderTemplate, renderTemplateAsync, splitQuoted, type VariableResolver } from './template';
import { formatDuration, resolveVariable, type ReplyContext } from './variables';

function context(over: Partial<ReplyContext> = {}): ReplyContext {
  return {
    user: { providerUserId: 'u1', login: 'alice', displayName: 'Alice' },
    args: ['@Bob', 'two', 'three'],
    query: '@Bob two three',
    platform: 'kick',
    channelName: 'greenroomdemo',
    now: Date.UTC(2026, 0, 1, 12, 0, 0),
    stream: { isLive: true, startedAt: Date.UTC(2026, 0, 1, 10, 30, 5), title: 'Speedrun', category: 'Celeste', viewers: 42 },
    chatters: () => ['Carol', 'Dave'],
    random: () => 0.5,
    ...over,
  };
}

const render = (source: string, ctx = context()) => renderTemplateAsync(parseTemplate(source), resolveVariable, ctx);

describe('templates', () => {
  it('renders both $() and ${} forms', async () => {
    expect(await render('Hello $(user) and ${touser}!')).toBe('Hello Alice and Bob!');
  });

  it('renders every synchronous variable', async () => {
    expect(await render('$(sender)|$(query)|$(1)|$(2)|$(9)|$(channel)|$(platform)')).toBe(
      'Alice|@Bob two three|@Bob|two||greenroomdemo|Kick',
    );
    expect(await render('$(uptime) $(title) $(game) $(viewers)')).toBe('1:29:55 Speedrun Celeste 42');
    expect(await render('$(random 1-100) $(random.pick "a b" "c") $(random.chatter)')).toBe('51 c Dave');
    expect(await render('$(time Europe/London) $(time America/New_York)')).toBe('12:00:00 07:00:00');
  });

  it('touser falls back to the caller', async () => {
    expect(await render('$(touser)', context({ args: [], query: '' }))).toBe('Alice');
    expect(await render('$(touser)', context({ args: ['@@'], query: '@@' }))).toBe('Alice');
  });

  it('uptime and viewers when offline', async () => {
    const offline = context({ stream: { isLive: false, startedAt: null, title: 'T', category: null, viewers: null } });
    expect(await render('$(uptime) $(viewers)', offline)).toBe('offline 0');
  });

  it('renders nested variables: arguments first', async () => {
    const calls: string[] = [];
    const ctx = context({
      urlfetch: async (url) => {
        calls.push(url);
        return 'fetched';
      },
    });
    expect(await render('$(urlfetch https://api.example/q=$(1)&u=${user})', ctx)).toBe('fetched');
    expect(calls).toEqual(['https://api.example/q=@Bob&u=Alice']);
  });

  it('async variables: count, followers, urlfetch', async () => {
    const ctx = context({ count: async () => 7, followers: async () => 1234, urlfetch: async () => 'ok' });
    expect(await render('#$(count) $(followers) $(urlfetch https://x)', ctx)).toBe('#7 1234 ok');
  });

  it('unknown and failing variables render a marker, never throw', async () => {
    expect(await render('a $(nope) b')).toBe('a [unknown: nope] b');
    expect(await render('$(time Not/AZone)')).toBe('[error: time]');
    expect(await render('$(count)')).toBe('[error: count]');
    expect(await render('$(urlfetch https://x)', context({ urlfetch: () => Promise.reject(new Error('boom')) }))).toBe('[error: urlfetch]');
    expect(await render('$(followers)', context({ followers: async () => null }))).toBe('[followers: not on Kick]');
    expect(await render('$(followers)', context({ followers: () => Promise.reject(new Error('down')) }))).toBe('[error: followers]');
    expect(await render('$(random x)')).toBe('[error: random]');
  });

  it('keeps malformed variables as text', async () => {
    expect(await render('cost $(5 and $( and ${ and $() and $(a-b) $')).toBe('cost $(5 and $( and ${ and $() and $(a-b) $');
  });

  it('quotes may hold brackets', async () => {
    expect(await render('$(random.pick "a)" "b)")', context({ random: () => 0 }))).toBe('a)');
  });

  it('stays synchronous without async variables', () => {
    const out = renderTemplate(parseTemplate('hi $(user)'), resolveVariable, context());
    expect(out).toBe('hi Alice');
  });

  it('collects variable names', () => {
    expect([...parseTemplate('$(user) ${urlfetch x $(count)}').names].sort()).toEqual(['count', 'urlfetch', 'user']);
  });

  it('splits quoted arguments', () => {
    expect(splitQuoted('"a b" c  "d"')).toEqual(['a b', 'c', 'd']);
  });

  it('formats durations as h:mm:ss', () => {
    expect(formatDuration(3_723_000)).toBe('1:02:03');
    expect(formatDuration(-5)).toBe('0:00:00');
  });

  it('property: arbitrary Unicode templates and resolvers never throw', async () => {
    const resolver: VariableResolver<ReplyContext> = (call) => {
      if (call.name === 'boom') throw new Error('x');
      if (call.name === 'later') return Promise.resolve(call.args);
      return resolveVariable(call);
    };
    const pieces = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom('$(', '${', ')', '}', '"', ' ', '$(user', '$(later ', '$(boom)', '$(random.pick "', '$(1)', '$(time '),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(pieces, { maxLength: 30 }),
        fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 5 }),
        async (parts, args) => {
          const source = parts.join('');
          const out = await renderTemplateAsync(parseTemplate(source), resolver, context({ args, query: args.join(' ') }));
          expect(typeof out).toBe('string');
          expect(out.length).toBeLessThanOrEqual(10_000);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('hostile nesting is bounded', async () => {
    const deep = '$(later '.repeat(200) + 'x' + ')'.repeat(200);
    const out = await renderTemplateAsync(parseTemplate(deep), (c) => (c.name === 'later' ? c.args + c.args : undefined), context());
    expect(out.length).toBeLessThanOrEqual(10_000);
  });
});
