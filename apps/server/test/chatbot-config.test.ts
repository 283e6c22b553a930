/**
 * The chatbot's whole configuration on a real database: export as a versioned document, import into another
 * channel with a preview (added, replaced, invalid) applied in one go, a version after every change (who, what),
 * restoring one, the audit log, bad input (400) and access (Editor).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import { chatbotConfigSchema, type ChatbotConfig, type ConfigPlan, type ConfigVersion } from '@greenroom/contracts/api/chatbot';
import { auditLog, channelUsers } from '../src/db/schema';
import { createTestApp, type TestApp, type TestUser } from './helper';
import { and, eq } from 'drizzle-orm';

let t: TestApp;
let owner: TestUser;
let mod: TestUser;
let source: string;
let target: string;

const base = (channel: string) => `/api/2/channels/${channel}`;

async function newChannel(name: string): Promise<string> {
  const res = await t.inject(owner, { method: 'POST', url: '/api/2/channels', payload: { display_name: name } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

async function post(channel: string, path: string, payload: object) {
  const res = await t.inject(owner, { method: 'POST', url: `${base(channel)}/${path}`, payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json<{ id: string }>();
}

async function exportOf(channel: string): Promise<ChatbotConfig> {
  const res = await t.inject(owner, { method: 'GET', url: `${base(channel)}/chatbot-config` });
  expect(res.statusCode).toBe(200);
  return chatbotConfigSchema.parse(res.json());
}

const versions = async (channel: string) =>
  (await t.inject(owner, { method: 'GET', url: `${base(channel)}/chatbot-config/versions` })).json<ConfigVersion[]>();

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Owner' });
  mod = await t.createUser({ displayName: 'Mod' });
  source = await newChannel('Source');
  target = await newChannel('Target');
  await t.s.db.insert(channelUsers).values({ channelId: source, userId: mod.id, level: AccessLevel.MOD });
  await post(source, 'chat-commands', { name: '!discord', aliases: ['!dc'], responses: ['Join us: discord.gg/x'] });
  await post(source, 'chat-timers', { name: 'Socials', messages: ['Follow!', 'Discord: !discord'], interval_minutes: 15 });
  await post(source, 'chat-filters', { name: 'No links', type: 'links', settings: { allow: ['clips.twitch.tv'] } });
  await post(source, 'quotes', { text: 'First quote', game: 'Celeste', quoted_on: '2026-01-05', added_by: 'Mod' });
  await post(source, 'quotes', { text: 'Second quote', game: null, quoted_on: '2026-01-06', added_by: 'Mod' });
});
afterAll(async () => t.close());

describe('export', () => {
  it('is the whole configuration as a versioned document', async () => {
    const doc = await exportOf(source);
    expect(doc).toMatchObject({ format: 'greenroom.chatbot-config', version: 1 });
    expect(doc.commands.find((c) => c.name === '!discord')).toMatchObject({
      aliases: ['!dc'],
      builtin: null,
      responses: ['Join us: discord.gg/x'],
    });
    expect(doc.commands.find((c) => c.name === '!addquote')).toMatchObject({ builtin: 'addquote', responses: [] });
    expect(doc.timers).toEqual([expect.objectContaining({ name: 'Socials', interval_minutes: 15 })]);
    expect(doc.filters).toEqual([expect.objectContaining({ name: 'No links', type: 'links' })]);
    expect(doc.quotes.map((q) => [q.number, q.text])).toEqual([
      [1, 'First quote'],
      [2, 'Second quote'],
    ]);
  });
});

describe('import', () => {
  it('previews what is added, replaced and invalid, then applies the valid items at once', async () => {
    const doc = await exportOf(source);
    // The target already has a !discord with other words and a built-in renamed; the document carries bad items.
    await post(target, 'chat-commands', { name: '!discord', responses: ['old words'] });
    await post(target, 'chat-commands', { name: '!clash', aliases: ['!x'], responses: ['stays'] });
    const messy = {
      ...doc,
      commands: [
        ...doc.commands,
        { name: '!x', responses: ['alias of !clash in the target'] },
        { name: '!nobuiltin', builtin: 'does-not-exist' },
        { name: 'not a name', responses: ['x'] },
      ],
      filters: [...doc.filters, { name: 'Bad regex', type: 'regex', settings: { patterns: ['(a'] } }],
      quotes: [...doc.quotes, { number: 1, text: 'twice', quoted_on: '2026-01-01', added_by: 'x' }],
    };
    const data = JSON.stringify(messy);
    const before = await versions(target);
    const preview = await t.inject(owner, { method: 'POST', url: `${base(target)}/chatbot-config/preview`, payload: { data } });
    expect(preview.statusCode).toBe(200);
    const plan = preview.json<ConfigPlan>();
    const item = (section: string, key: string) => plan.items.find((i) => i.section === section && i.key === key);
    expect(item('commands', '!discord')).toMatchObject({ change: 'replace', error: null });
    expect(item('commands', '!addquote')).toMatchObject({ change: 'unchanged' });
    expect(item('commands', '!x')).toMatchObject({ change: 'invalid', error: '!x is already used by !clash.' });
    expect(item('commands', '!nobuiltin')).toMatchObject({
      change: 'invalid',
      error: 'Greenroom has no built-in command "does-not-exist".',
    });
    expect(item('commands', 'not a name')!.change).toBe('invalid');
    expect(item('timers', 'Socials')).toMatchObject({ change: 'add' });
    expect(item('filters', 'No links')).toMatchObject({ change: 'add' });
    expect(item('filters', 'Bad regex')!.change).toBe('invalid');
    expect(plan.items.filter((i) => i.section === 'quotes').map((i) => [i.key, i.change])).toEqual([
      ['#1', 'add'],
      ['#2', 'add'],
      ['#1', 'invalid'],
    ]);
    expect(plan.counts.invalid).toBe(5);
    expect(plan.version_id).toBeNull();
    // A preview writes nothing.
    expect((await exportOf(target)).timers).toEqual([]);
    expect(await versions(target)).toEqual(before);

    const applied = await t.inject(owner, { method: 'POST', url: `${base(target)}/chatbot-config/import`, payload: { data } });
    expect(applied.statusCode).toBe(200);
    expect(applied.json<ConfigPlan>().counts).toEqual(plan.counts);
    expect(applied.json<ConfigPlan>().version_id).not.toBeNull();
    const after = await exportOf(target);
    expect(after.commands.find((c) => c.name === '!discord')!.responses).toEqual(['Join us: discord.gg/x']);
    expect(after.commands.find((c) => c.name === '!clash')!.responses).toEqual(['stays']);
    expect(after.commands.map((c) => c.name)).not.toContain('!nobuiltin');
    expect(after.timers.map((x) => x.name)).toEqual(['Socials']);
    expect(after.filters.map((x) => x.name)).toEqual(['No links']);
    expect(after.quotes.map((q) => [q.number, q.text])).toEqual([
      [1, 'First quote'],
      [2, 'Second quote'],
    ]);
    // The next quote added takes the number after the imported ones.
    const next = await post(target, 'quotes', { text: 'Third', game: null, added_by: 'Owner' });
    expect((next as unknown as { number: number }).number).toBe(3);
    // The import is in the audit log and is the newest version but one.
    const audit = await t.s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.channelId, target), eq(auditLog.action, 'chatbot.config_imported')));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.data).toMatchObject({ add: plan.counts.add, invalid: 5 });
    expect((await versions(target))[1]).toMatchObject({ reason: 'Imported an export', actor_name: 'Owner' });
  });

  it('says what is wrong with a file that is not an export (400)', async () => {
    const cases: [string, RegExp][] = [
      ['not json', /not JSON/],
      [JSON.stringify({ commands: [] }), /not a Greenroom chatbot export/],
      [JSON.stringify({ format: 'greenroom.chatbot-config', version: 9 }), /format version 9/],
      [JSON.stringify({ format: 'greenroom.chatbot-config', version: 1, commands: 'x' }), /./],
    ];
    for (const [data, message] of cases) {
      const res = await t.inject(owner, { method: 'POST', url: `${base(target)}/chatbot-config/preview`, payload: { data } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ type: expect.any(String), message: expect.stringMatching(message) });
    }
  });

  it('is for Editors: a Mod may not export, preview, import or restore', async () => {
    for (const [method, path] of [
      ['GET', 'chatbot-config'],
      ['POST', 'chatbot-config/preview'],
      ['POST', 'chatbot-config/import'],
      ['GET', 'chatbot-config/versions'],
    ] as const) {
      const res = await t.inject(mod, {
        method,
        url: `${base(source)}/${path}`,
        ...(method === 'POST' ? { payload: { data: '{}' } } : {}),
      });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('versions', () => {
  it('every change keeps a version with who and what; restoring one brings it back and removes what came later', async () => {
    const channel = await newChannel('Versions');
    const start = await versions(channel);
    const hello = await post(channel, 'chat-commands', { name: '!hello', responses: ['hi'] });
    const v1 = (await versions(channel))[0]!;
    expect(v1).toMatchObject({ reason: 'Command !hello added', actor_name: 'Owner' });
    expect(v1.number).toBe((start[0]?.number ?? 0) + 1);
    await t.inject(owner, {
      method: 'PUT',
      url: `${base(channel)}/chat-commands/${hello.id}`,
      payload: { name: '!hello', responses: ['hello there'] },
    });
    // Saving without a change keeps no version.
    await t.inject(owner, {
      method: 'PUT',
      url: `${base(channel)}/chat-commands/${hello.id}`,
      payload: { name: '!hello', responses: ['hello there'] },
    });
    await post(channel, 'chat-commands', { name: '!later', responses: ['added later'] });
    await post(channel, 'quotes', { text: 'A later quote', game: null, added_by: 'Owner' });
    const list = await versions(channel);
    expect(list.slice(0, 4).map((v) => v.reason)).toEqual([
      'Quote #1 added',
      'Command !later added',
      'Command !hello saved',
      'Command !hello added',
    ]);
    expect(list[0]!.counts.quotes).toBe(1);
    const stored = await t.inject(owner, { method: 'GET', url: `${base(channel)}/chatbot-config/versions/${v1.id}` });
    expect(chatbotConfigSchema.parse(stored.json()).commands.find((c) => c.name === '!hello')!.responses).toEqual(['hi']);

    const restored = await t.inject(owner, { method: 'POST', url: `${base(channel)}/chatbot-config/versions/${v1.id}/restore` });
    expect(restored.statusCode).toBe(200);
    const plan = restored.json<ConfigPlan>();
    expect(plan.items.filter((i) => i.change === 'remove').map((i) => i.key)).toEqual(['!later', '#1']);
    const now = await exportOf(channel);
    expect(now.commands.find((c) => c.name === '!hello')!.responses).toEqual(['hi']);
    expect(now.commands.map((c) => c.name)).not.toContain('!later');
    expect(now.commands.map((c) => c.name)).toContain('!addquote');
    expect(now.quotes).toEqual([]);
    const after = await versions(channel);
    expect(after[0]).toMatchObject({ reason: `Restored version ${v1.number}`, actor_name: 'Owner' });
    const audit = await t.s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.channelId, channel), eq(auditLog.action, 'chatbot.config_restored')));
    expect(audit[0]!.data).toMatchObject({ restored_version_id: v1.id, remove: 2 });
    const missing = await t.inject(owner, { method: 'POST', url: `${base(channel)}/chatbot-config/versions/nope/restore` });
    expect(missing.statusCode).toBe(404);
  });
});
