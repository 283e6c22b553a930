import { describe, expect, it } from 'vitest';
import { detectSource, ImportError, mapImport } from './import';

const nightbot = {
  _total: 4,
  status: 200,
  commands: [
    {
      _id: '1',
      name: '!discord',
      message: 'Join us: https://discord.gg/x ($(count) clicks)',
      userLevel: 'everyone',
      coolDown: 30,
      count: 12,
      createdAt: '2020-01-01T00:00:00.000Z',
      updatedAt: '2020-01-01T00:00:00.000Z',
    },
    { _id: '2', name: '!dc', message: '$(query)', alias: '!discord', userLevel: 'everyone', coolDown: 5, count: 0 },
    { _id: '3', name: '!uptime', message: '$(twitch $(channel) "{{uptimeLength}}")', userLevel: 'regular', coolDown: 5, count: 0 },
    { _id: '4', name: '!8ball', message: '$(eval ["yes","no"][0])', userLevel: 'moderator', coolDown: 5, count: 0 },
    { _id: '5', name: 'two words', message: 'x', userLevel: 'everyone', coolDown: 5, count: 0 },
  ],
};

const streamElements = [
  {
    _id: 'a',
    command: 'lurk',
    response: "${user} is lurking ${random.pick 'a' 'b'} ${random.1-6}",
    accessLevel: 100,
    cooldown: { user: 15, global: 5 },
    aliases: ['lurking'],
    keywords: [],
    enabled: true,
    cost: 0,
    type: 'say',
  },
  {
    _id: 'b',
    command: 'api',
    response: '${customapi.https://example.com/x}',
    accessLevel: 500,
    cooldown: { user: 0, global: 0 },
    aliases: [],
    enabled: false,
    cost: 10,
    type: 'reply',
  },
  { _id: 'c', command: 'pts', response: '${user.points} points', accessLevel: 250, cooldown: { user: 0, global: 0 }, aliases: [] },
  { _id: 'd', command: 'empty', response: '', accessLevel: 100 },
];

describe('import', () => {
  it('detects the source', () => {
    expect(detectSource(nightbot)).toBe('nightbot');
    expect(detectSource(streamElements)).toBe('streamelements');
    expect(detectSource({ foo: 1 })).toBeNull();
    expect(() => mapImport({ foo: 1 })).toThrow(ImportError);
    expect(() => mapImport('text')).toThrow(ImportError);
  });

  it('maps a Nightbot export: levels, cooldowns, aliases, variables', () => {
    const { source, items } = mapImport(nightbot);
    expect(source).toBe('nightbot');
    const byName = Object.fromEntries(items.map((i) => [i.source_name, i]));
    expect(byName['!discord']).toMatchObject({
      status: 'ok',
      value: { name: '!discord', aliases: ['!dc'], global_cooldown_seconds: 30, level: 0 },
    });
    expect(byName['!dc']!.status).toBe('skipped');
    expect(byName['!uptime']).toMatchObject({ status: 'partial', value: { responses: ['$(uptime)'], level: 1 } });
    expect(byName['!8ball']!.status).toBe('partial');
    expect(byName['!8ball']!.notes.join(' ')).toContain('$(eval)');
    expect(byName['two words']!.status).toBe('skipped');
  });

  it('maps a StreamElements export', () => {
    const { items } = mapImport(streamElements);
    const [lurk, api, pts, empty] = items;
    expect(lurk).toMatchObject({
      status: 'ok',
      value: {
        name: '!lurk',
        aliases: ['!lurking'],
        responses: ['${user} is lurking ${random.pick "a" "b"} ${random 1-6}'],
        user_cooldown_seconds: 15,
        global_cooldown_seconds: 5,
      },
    });
    expect(api).toMatchObject({
      status: 'partial',
      value: { responses: ['$(urlfetch https://example.com/x)'], level: 7, enabled: false, reply_mode: 'reply' },
    });
    expect(pts!.notes.join(' ')).toContain('user.points');
    expect(empty!.status).toBe('skipped');
  });
});
