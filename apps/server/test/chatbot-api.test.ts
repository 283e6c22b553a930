/**
 * The chatbot's API on a real database: default commands of a new channel, field errors (name taken,
 * alias clash, response over the platform's limit, invalid regex), timers, filters, quotes, import
 * with preview, and operators' command templates (gallery, seeded into new channels).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import { channelProviders, channelUsers } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let owner: TestUser;
let operator: TestUser;
let channelId: string;

async function newChannel(user: TestUser, name = 'Bot channel'): Promise<string> {
  const res = await t.inject(user, { method: 'POST', url: '/api/2/channels', payload: { display_name: name } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

const base = (channel: string) => `/api/2/channels/${channel}`;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Owner' });
  operator = await t.createUser({ displayName: 'Operator', operator: true });
  channelId = await newChannel(owner);
});
afterAll(async () => t.close());

describe('chat commands', () => {
  it('a new channel has the default commands, enabled and editable', async () => {
    const res = await t.inject(owner, { method: 'GET', url: `${base(channelId)}/chat-commands` });
    expect(res.statusCode).toBe(200);
    const names = res.json().map((c: { name: string }) => c.name);
    for (const n of [
      '!commands',
      '!uptime',
      '!title',
      '!game',
      '!addcom',
      '!editcom',
      '!delcom',
      '!settitle',
      '!setgame',
      '!quote',
      '!addquote',
      '!delquote',
      '!permit',
    ]) {
      expect(names).toContain(n);
    }
    const settitle = res.json().find((c: { name: string }) => c.name === '!settitle');
    expect(settitle).toMatchObject({ builtin: 'settitle', level: 100, enabled: true });
    expect(settitle.description).toContain('every connected platform');
    const addcom = res.json().find((c: { name: string }) => c.name === '!addcom');
    expect(addcom.level).toBe(7);

    const off = await t.inject(owner, {
      method: 'PUT',
      url: `${base(channelId)}/chat-commands/${settitle.id}`,
      payload: { ...(settitle as Record<string, unknown>), name: '!title2', enabled: false },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ name: '!title2', enabled: false, builtin: 'settitle', responses: [] });
  });

  it('creates, reads, updates and deletes a command', async () => {
    const created = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands`,
      payload: { name: '!Hello', aliases: ['!hi'], responses: ['Hello $(user)', 'Hey ${user}'], response_mode: 'in_turn' },
    });
    expect(created.statusCode).toBe(201);
    const c = created.json();
    expect(c).toMatchObject({ name: '!hello', aliases: ['!hi'], level: 0, global_cooldown_seconds: 5, use_count: 0, builtin: null });
    const got = await t.inject(owner, { method: 'GET', url: `${base(channelId)}/chat-commands/${c.id}` });
    expect(got.json().responses).toEqual(['Hello $(user)', 'Hey ${user}']);
    const updated = await t.inject(owner, {
      method: 'PUT',
      url: `${base(channelId)}/chat-commands/${c.id}`,
      payload: { name: '!hello', aliases: ['!hi', '!hey'], responses: ['Hi'], platforms: ['kick'], reply_mode: 'mention', level: 1 },
    });
    expect(updated.json()).toMatchObject({ aliases: ['!hi', '!hey'], platforms: ['kick'], reply_mode: 'mention', level: 1 });
    const del = await t.inject(owner, { method: 'DELETE', url: `${base(channelId)}/chat-commands/${c.id}` });
    expect(del.statusCode).toBe(204);
    expect((await t.inject(owner, { method: 'GET', url: `${base(channelId)}/chat-commands/${c.id}` })).statusCode).toBe(404);
  });

  it('field errors: name taken, alias clash, alias equal to the name, no response', async () => {
    const taken = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands`,
      payload: { name: '!quote', responses: ['x'] },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({ type: 'bad_request', fields: { name: 'There is already a command named !quote.' } });

    const asAlias = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands`,
      payload: { name: '!cmds', responses: ['x'] },
    });
    expect(asAlias.json().fields.name).toBe('!cmds is already an alias of !commands.');

    const clash = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands`,
      payload: { name: '!newone', aliases: ['!ok', '!game'], responses: ['x'] },
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().fields).toEqual({ 'aliases.1': '!game is the name of another command.' });

    const self = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands`,
      payload: { name: '!x1', aliases: ['!X1'], responses: ['x'] },
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().fields['aliases.0']).toContain('own name');

    const none = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands`,
      payload: { name: '!x2', responses: [] },
    });
    expect(none.json().fields).toEqual({ responses: 'Add at least one response.' });

    const spaces = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands`,
      payload: { name: '!two words', responses: ['x'] },
    });
    expect(spaces.statusCode).toBe(400);
    expect(spaces.json().fields.name).toBe('Names are one word, without spaces');

    const bang = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands`,
      payload: { name: '!', responses: ['x'] },
    });
    expect(bang.statusCode).toBe(400);
    expect(bang.json().fields.name).toBe('Type the name after the !');
  });

  it('a response over the platform limit is a field error, measured against the connected platforms', async () => {
    const long = 'x'.repeat(300);
    const noConn = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands`,
      payload: { name: '!long', responses: ['ok', long] },
    });
    expect(noConn.statusCode).toBe(400);
    expect(noConn.json().fields['responses.1']).toBe('YouTube messages are limited to 200 characters (this response has 300).');

    const twitchOnly = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands`,
      payload: { name: '!long', responses: [long], platforms: ['twitch'] },
    });
    expect(twitchOnly.statusCode).toBe(201);

    const other = await newChannel(owner, 'Twitch only');
    await t.s.db.insert(channelProviders).values({
      id: newId(),
      channelId: other,
      provider: 'twitch',
      providerChannelId: '1',
      providerChannelName: 'tw',
    });
    const connected = await t.inject(owner, {
      method: 'POST',
      url: `${base(other)}/chat-commands`,
      payload: { name: '!long', responses: [long] },
    });
    expect(connected.statusCode).toBe(201);
    const tooLong = await t.inject(owner, {
      method: 'POST',
      url: `${base(other)}/chat-commands`,
      payload: { name: '!longer', responses: ['y'.repeat(501)] },
    });
    expect(tooLong.json().fields['responses.0']).toContain('Twitch messages are limited to 500 characters');
  });

  it('imports a Nightbot export: preview first, then save what maps', async () => {
    const data = JSON.stringify({
      commands: [
        { name: '!discord', message: 'discord.gg/x', userLevel: 'everyone', coolDown: 30 },
        { name: '!8ball', message: '$(eval 1)', userLevel: 'moderator', coolDown: 5 },
        { name: '!quote', message: 'clash', userLevel: 'everyone', coolDown: 5 },
      ],
    });
    const preview = await t.inject(owner, { method: 'POST', url: `${base(channelId)}/chat-commands/import`, payload: { data } });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ source: 'nightbot', saved: 0 });
    expect(preview.json().items.map((i: { status: string }) => i.status)).toEqual(['ok', 'partial', 'ok']);
    const list = await t.inject(owner, { method: 'GET', url: `${base(channelId)}/chat-commands` });
    expect(list.json().some((c: { name: string }) => c.name === '!discord')).toBe(false);

    const applied = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-commands/import`,
      payload: { data, apply: true },
    });
    expect(applied.json().saved).toBe(2);
    expect(applied.json().items[2]).toMatchObject({ saved: false, error: 'There is already a command named !quote.' });

    const bad = await t.inject(owner, { method: 'POST', url: `${base(channelId)}/chat-commands/import`, payload: { data: '{nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.data).toContain('not JSON');
    const other = await t.inject(owner, { method: 'POST', url: `${base(channelId)}/chat-commands/import`, payload: { data: '{"a":1}' } });
    expect(other.json().fields.data).toBe('This is not a Nightbot or StreamElements command export.');
  });
});

describe('timers', () => {
  it('CRUD with a staggered schedule', async () => {
    const a = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-timers`,
      payload: { name: 'Socials', messages: ['Follow!', 'Discord!'], interval_minutes: 10 },
    });
    expect(a.statusCode).toBe(201);
    const b = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-timers`,
      payload: { name: 'Rules', messages: ['Be nice'], interval_minutes: 10, min_lines: 0, online_only: false },
    });
    const at = Date.parse(a.json().next_run_at);
    const bt = Date.parse(b.json().next_run_at);
    expect(Math.abs(at - bt)).toBeGreaterThanOrEqual(30_000);
    expect(a.json()).toMatchObject({ min_lines: 5, online_only: true, enabled: true });

    const off = await t.inject(owner, {
      method: 'PUT',
      url: `${base(channelId)}/chat-timers/${a.json().id}`,
      payload: { ...a.json<Record<string, unknown>>(), enabled: false },
    });
    expect(off.json()).toMatchObject({ enabled: false, next_run_at: null });
    const bad = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-timers`,
      payload: { name: 'x', messages: [], interval_minutes: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['interval_minutes', 'messages']);
    expect((await t.inject(owner, { method: 'DELETE', url: `${base(channelId)}/chat-timers/${a.json().id}` })).statusCode).toBe(204);
  });

  /** As StreamElements' `GET /kappa/v2/bot/timers/{channel}` answers. */
  const seTimers = [
    {
      _id: '60f1a2b3c4d5e6f708192a3b',
      name: 'Discord',
      enabled: true,
      chatLines: 8,
      offline: { enabled: false, interval: 30 },
      online: { enabled: true, interval: 20 },
      messages: ['Join the Discord: https://discord.gg/abc', 'Say hi, ${user}'],
    },
    { _id: 'b', name: 'Rules', enabled: true, chatLines: 0, online: { enabled: true, interval: 10 }, messages: ['Be nice'] },
    { _id: 'c', name: 'Too soon', enabled: true, chatLines: 0, online: { enabled: true, interval: 0 }, messages: ['fast'] },
    { _id: 'd', name: 'Wall', enabled: true, chatLines: 0, online: { enabled: true, interval: 10 }, messages: ['w'.repeat(501)] },
    {
      _id: 'e',
      name: 'Always',
      enabled: true,
      chatLines: 2,
      offline: { enabled: true, interval: 15 },
      online: { enabled: true, interval: 15 },
      messages: ['Hello'],
    },
  ];

  async function twitchChannel(name: string): Promise<string> {
    const id = await newChannel(owner, name);
    await t.s.db
      .insert(channelProviders)
      .values({ id: newId(), channelId: id, provider: 'twitch', providerChannelId: newId(), providerChannelName: 'tw' });
    return id;
  }
  const timersOf = async (channel: string) =>
    (await t.inject(owner, { method: 'GET', url: `${base(channel)}/chat-timers` })).json<
      { name: string; interval_minutes: number; min_lines: number; online_only: boolean; messages: string[]; next_run_at: string | null }[]
    >();

  it('imports a StreamElements timer export: preview with reasons, then the chosen lines in one go', async () => {
    const channel = await twitchChannel('Timer import');
    const rules = await t.inject(owner, {
      method: 'POST',
      url: `${base(channel)}/chat-timers`,
      payload: { name: 'rules', messages: ['Be kind'], interval_minutes: 30 },
    });
    expect(rules.statusCode).toBe(201);
    const url = `${base(channel)}/chat-timers/import`;
    const data = JSON.stringify(seTimers);

    const preview = await t.inject(owner, { method: 'POST', url, payload: { data } });
    expect(preview.statusCode).toBe(200);
    const body = preview.json<{ source: string; saved: number; items: { source_name: string; status: string; notes: string[] }[] }>();
    expect(body).toMatchObject({ source: 'streamelements', saved: 0 });
    expect(body.items[0]).toMatchObject({
      status: 'ok',
      name: 'Discord',
      interval_minutes: 20,
      min_lines: 8,
      online_only: true,
      enabled: true,
      messages: ['Join the Discord: https://discord.gg/abc', 'Say hi, ${user}'],
      saved: false,
    });
    expect(body.items.slice(1).map((i) => [i.status, i.notes[0]])).toEqual([
      ['skipped', 'A timer named Rules already exists'],
      ['skipped', 'The interval 0 is below the minimum of 1 minute'],
      ['skipped', 'Twitch messages are limited to 500 characters (the message has 501)'],
      ['ok', undefined],
    ]);
    // The offline interval equals the online one here: no note, so 'Always' maps fully.
    expect(body.items[4]).toMatchObject({ status: 'ok', online_only: false, notes: [] });
    expect((await timersOf(channel)).map((x) => x.name)).toEqual(['rules']);

    // A skipped line cannot be chosen; nothing is saved.
    const skippedLine = await t.inject(owner, { method: 'POST', url, payload: { data, apply: true, only: [0, 2] } });
    expect(skippedLine.statusCode).toBe(400);
    expect(skippedLine.json()).toMatchObject({
      type: 'bad_request',
      fields: { only: 'Too soon cannot be imported: The interval 0 is below the minimum of 1 minute' },
    });
    const noLine = await t.inject(owner, { method: 'POST', url, payload: { data, apply: true, only: [9] } });
    expect(noLine.json().fields.only).toBe('The export has no line 10: preview it again.');
    expect((await timersOf(channel)).map((x) => x.name)).toEqual(['rules']);

    const applied = await t.inject(owner, { method: 'POST', url, payload: { data, apply: true, only: [0, 4] } });
    expect(applied.statusCode).toBe(200);
    expect(applied.json().saved).toBe(2);
    expect(applied.json().items.map((i: { saved: boolean }) => i.saved)).toEqual([true, false, false, false, true]);
    const list = await timersOf(channel);
    expect(list.map((x) => x.name)).toEqual(['Always', 'Discord', 'rules']);
    expect(list[1]).toMatchObject({
      interval_minutes: 20,
      min_lines: 8,
      online_only: true,
      messages: ['Join the Discord: https://discord.gg/abc', 'Say hi, ${user}'],
    });
    // Staggered like timers made by hand: no two runs closer than 30 s.
    const runs = list.map((x) => Date.parse(x.next_run_at!)).sort((a, b) => a - b);
    for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBeGreaterThanOrEqual(30_000);

    // A second import of the same export: those names are taken now.
    const again = await t.inject(owner, { method: 'POST', url, payload: { data } });
    expect(again.json().items[0]).toMatchObject({ status: 'skipped', notes: ['A timer named Discord already exists'] });
    const versions = await t.inject(owner, { method: 'GET', url: `${base(channel)}/chatbot-config/versions` });
    expect(JSON.stringify(versions.json())).toContain('2 timers imported from StreamElements');
  });

  it('two imports of the same export at once save each timer once', async () => {
    const channel = await twitchChannel('Timer import race');
    const url = `${base(channel)}/chat-timers/import`;
    const data = JSON.stringify([seTimers[0]]);
    const results = await Promise.all(
      [0, 1, 2].map(() => t.inject(owner, { method: 'POST', url, payload: { data, apply: true, only: [0] } })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 400, 400]);
    expect(results.find((r) => r.statusCode === 200)!.json().saved).toBe(1);
    for (const r of results.filter((x) => x.statusCode === 400)) {
      // Refused either at the preview (the name was taken before it) or under the lock (taken since): never saved twice.
      const fields = r.json().fields as Record<string, string>;
      expect(Object.values(fields)).toHaveLength(1);
      expect(Object.values(fields)[0]).toContain('A timer named Discord already exists');
      expect(Object.keys(fields)[0]).toMatch(/^(only|items\.0\.name)$/);
    }
    expect((await timersOf(channel)).map((x) => x.name)).toEqual(['Discord']);
  });

  it('a clash found under the lock saves none of the chosen timers', async () => {
    const channel = await twitchChannel('Timer import atomic');
    const timer = { messages: ['m'], interval_minutes: 10, min_lines: 0, online_only: true, platforms: [], enabled: true };
    await expect(
      t.s.chatbot.timers.importTimers(
        channel,
        [
          { ...timer, name: 'First' },
          { ...timer, name: 'Second' },
        ],
        () => ({
          'items.1.name': 'A timer named Second already exists',
        }),
      ),
    ).rejects.toMatchObject({
      status: 400,
      message: 'Nothing was imported: A timer named Second already exists.',
      fields: { 'items.1.name': 'A timer named Second already exists' },
    });
    expect(await timersOf(channel)).toEqual([]);
  });

  it('bad input is a 400 with the field; a Moderator is refused', async () => {
    const url = `${base(channelId)}/chat-timers/import`;
    const notJson = await t.inject(owner, { method: 'POST', url, payload: { data: '{nope' } });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({
      type: 'bad_request',
      fields: { data: 'This is not JSON: paste the export exactly as the bot gave it.' },
    });
    const commands = await t.inject(owner, {
      method: 'POST',
      url,
      payload: { data: JSON.stringify({ commands: [{ name: '!a', message: 'b' }] }) },
    });
    expect(commands.statusCode).toBe(400);
    expect(commands.json().fields.data).toBe('This is not a Nightbot or StreamElements timer export.');
    const empty = await t.inject(owner, { method: 'POST', url, payload: { data: '' } });
    expect(empty.statusCode).toBe(400);
    const badOnly = await t.inject(owner, { method: 'POST', url, payload: { data: '[]', only: [-1] } });
    expect(badOnly.statusCode).toBe(400);
    // Deeply nested JSON where an interval should be: a skipped line, not a crash.
    const deep = `[{"name":"Deep","message":"x","interval":${'['.repeat(5_000)}${']'.repeat(5_000)}}]`;
    const nested = await t.inject(owner, { method: 'POST', url, payload: { data: deep, source: 'nightbot' } });
    expect(nested.statusCode).toBe(200);
    expect(nested.json().items[0]).toMatchObject({ status: 'skipped', notes: ['The interval (a list) cannot be read'] });

    const many = JSON.stringify(
      Array.from({ length: 201 }, (_, i) => ({ name: `T${i}`, message: 'm', interval: '*/10 * * * *', lines: 0 })),
    );
    const tooMany = await t.inject(owner, { method: 'POST', url, payload: { data: many, apply: true } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().fields.only).toBe('At most 200 timers at once: choose fewer.');

    const mod = await t.createUser({ displayName: 'Mod' });
    await t.s.db.insert(channelUsers).values({ channelId, userId: mod.id, level: AccessLevel.MOD });
    const refused = await t.inject(mod, { method: 'POST', url, payload: { data: JSON.stringify(seTimers) } });
    expect(refused.statusCode).toBe(403);
  });
});

describe('filters', () => {
  it('CRUD; an invalid regular expression is a field error', async () => {
    const created = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-filters`,
      payload: { name: 'No links', type: 'links', settings: { allowed_domains: ['youtube.com'] }, message: '$(user), no links please' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ type: 'links', action: 'delete', warn_first: true, exempt_level: 7 });
    const bad = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-filters`,
      payload: { name: 'Regex', type: 'regex', settings: { patterns: ['ok', '(unclosed'] } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields['settings.patterns.1']).toMatch(/^Invalid regular expression/);
    const lookbehind = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-filters`,
      payload: { name: 'Regex', type: 'regex', settings: { patterns: ['(?<=a)b'] } },
    });
    expect(lookbehind.json().fields['settings.patterns.0']).toBeDefined();
    const wrongSettings = await t.inject(owner, {
      method: 'POST',
      url: `${base(channelId)}/chat-filters`,
      payload: { name: 'Caps', type: 'caps', settings: { max_percent: 150 } },
    });
    expect(wrongSettings.statusCode).toBe(400);
    expect(wrongSettings.json().fields['settings.max_percent']).toBeDefined();
    const list = await t.inject(owner, { method: 'GET', url: `${base(channelId)}/chat-filters` });
    expect(list.json()).toHaveLength(1);
    const log = await t.inject(owner, { method: 'GET', url: `${base(channelId)}/chat-filter-log` });
    expect(log.json()).toEqual({ records: [], cursor: null });
  });
});

describe('quotes', () => {
  it('numbers quotes per channel, never reusing a number; editable', async () => {
    const one = await t.inject(owner, { method: 'POST', url: `${base(channelId)}/quotes`, payload: { text: 'First!', game: 'Celeste' } });
    expect(one.statusCode).toBe(201);
    expect(one.json()).toMatchObject({ number: 1, added_by: 'Owner', game: 'Celeste', added_on_provider: null });
    const two = await t.inject(owner, { method: 'POST', url: `${base(channelId)}/quotes`, payload: { text: 'Second' } });
    expect(two.json().number).toBe(2);
    await t.inject(owner, { method: 'DELETE', url: `${base(channelId)}/quotes/${two.json().id}` });
    const three = await t.inject(owner, { method: 'POST', url: `${base(channelId)}/quotes`, payload: { text: 'Third' } });
    expect(three.json().number).toBe(3);
    const edited = await t.inject(owner, {
      method: 'PUT',
      url: `${base(channelId)}/quotes/${one.json().id}`,
      payload: { text: 'First, edited', game: null, quoted_on: '2026-01-05', added_by: 'Mod' },
    });
    expect(edited.json()).toMatchObject({ text: 'First, edited', game: null, quoted_on: '2026-01-05', added_by: 'Mod' });
    const bad = await t.inject(owner, {
      method: 'PUT',
      url: `${base(channelId)}/quotes/${one.json().id}`,
      payload: { text: '', quoted_on: 'soon', added_by: 'x' },
    });
    expect(Object.keys(bad.json().fields).sort()).toEqual(['quoted_on', 'text']);
  });
});

describe('command templates', () => {
  it('operators manage templates; enabled ones seed new channels; the gallery adds any', async () => {
    const refused = await t.inject(owner, { method: 'GET', url: '/api/2/admin/command-templates' });
    expect(refused.statusCode).toBe(403);
    const created = await t.inject(operator, {
      method: 'POST',
      url: '/api/2/admin/command-templates',
      payload: { name: '!lurk', responses: ['$(user) is lurking'], description: 'Lurk', enabled: true },
    });
    expect(created.statusCode).toBe(201);
    const disabled = await t.inject(operator, {
      method: 'POST',
      url: '/api/2/admin/command-templates',
      payload: { name: '!hug', responses: ['$(user) hugs $(touser)'], enabled: false },
    });
    const dup = await t.inject(operator, {
      method: 'POST',
      url: '/api/2/admin/command-templates',
      payload: { name: '!LURK', responses: ['x'] },
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().fields.name).toBeDefined();

    const fresh = await newChannel(owner, 'Fresh');
    const commands = await t.inject(owner, { method: 'GET', url: `${base(fresh)}/chat-commands` });
    const names = commands.json().map((c: { name: string }) => c.name);
    expect(names).toContain('!lurk');
    expect(names).not.toContain('!hug');

    const gallery = await t.inject(owner, { method: 'GET', url: `${base(fresh)}/command-templates` });
    expect(gallery.json().map((g: { name: string }) => g.name)).toEqual(['!hug', '!lurk']);
    const added = await t.inject(owner, { method: 'POST', url: `${base(fresh)}/command-templates/${disabled.json().id}/add` });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ name: '!hug', responses: ['$(user) hugs $(touser)'] });
    const again = await t.inject(owner, { method: 'POST', url: `${base(fresh)}/command-templates/${disabled.json().id}/add` });
    expect(again.statusCode).toBe(400);
  });
});
