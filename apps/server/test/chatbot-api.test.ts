/**
 * The chatbot's API on a real database: default commands of a new channel, field errors (name taken,
 * alias clash, response over the platform's limit, invalid regex), timers, filters, quotes, import
 * with preview, and operators' command templates (gallery, seeded into new channels).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelProviders } from '../src/db/schema';
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
