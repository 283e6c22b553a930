/**
 * The chatbot's stages and effect handlers, driven directly with fake stage outputs and a fake
 * platform, on a real database: commands across platforms, levels, cooldowns under a burst, filters
 * with fallback actions and the log, !permit, quotes, Greenroom staff levels in chat, and timers
 * that fire once per interval across a restart.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import type { ChatMessage } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { channelProviders, channelUsers, chatCommands, quotes, userProviders } from '../src/db/schema';
import { unsupported } from '../src/lib/errors';
import { newId } from '../src/lib/ids';
import { PlatformError } from '../src/platforms/platform-error';
import { EffectRefused, type PipelineEffect, type StageMessage } from '../src/pipeline/stage';
import { createChatbot, type BotConnection, type Chatbot, type ChatbotPlatform, type PlatformOutcome } from '../src/modules/chatbot';
import { createTestApp, type TestApp, type TestUser } from './helper';
import { and, eq } from 'drizzle-orm';

let t: TestApp;
let owner: TestUser;
let channelId: string;
let conns: BotConnection[];
const connOf = (p: ChannelProviderId) => conns.find((c) => c.provider === p)!;

interface Sent {
  provider: ChannelProviderId;
  text: string;
  replyTo?: string;
}

class FakePlatform implements ChatbotPlatform {
  sent: Sent[] = [];
  deleted: { provider: ChannelProviderId; id: string }[] = [];
  bans: { provider: ChannelProviderId; viewer: string; durationSeconds?: number; reason?: string }[] = [];
  titles: string[] = [];
  failDelete = false;
  /** What `send` throws, when set. */
  failSend: Error | null = null;
  async connections(): Promise<BotConnection[]> {
    return conns;
  }
  private provider(id: string): ChannelProviderId {
    return conns.find((c) => c.id === id)!.provider;
  }
  async send(id: string, input: { text: string; replyTo?: string }) {
    if (this.failSend) throw this.failSend;
    this.sent.push({ provider: this.provider(id), ...input });
  }
  async deleteMessage(id: string, providerMessageId: string) {
    if (this.failDelete) throw new Error('nope');
    this.deleted.push({ provider: this.provider(id), id: providerMessageId });
  }
  async ban(id: string, input: { providerViewerId: string; durationSeconds?: number; reason?: string }) {
    this.bans.push({ provider: this.provider(id), viewer: input.providerViewerId, ...input });
  }
  async streamInfo() {
    return { title: 'Live title', category: 'Celeste' };
  }
  async followerCount(id: string) {
    return { twitch: 1234, youtube: 56_700, kick: null, tiktok: null, spotify: null }[this.provider(id)];
  }
  async setTitle(_channelId: string, title: string): Promise<PlatformOutcome[]> {
    this.titles.push(title);
    return conns.filter((c) => c.provider !== 'tiktok').map((c) => ({ provider: c.provider, ok: true, detail: null }));
  }
  async setCategory(): Promise<PlatformOutcome[]> {
    return [{ provider: 'twitch', ok: true, detail: 'Celeste' }];
  }
}

let platform: FakePlatform;
let bot: Chatbot;
let now = Date.UTC(2026, 0, 1, 12, 0, 0);
let seq = 0;

function build(): Chatbot {
  return createChatbot({
    db: t.s.db,
    platform,
    log: { info: () => {}, warn: () => {} },
    clock: () => now,
    random: () => 0,
    // Kick here cannot delete single messages: the filter falls back to a timeout.
    capabilities: (p) => ({ deleteMessage: p !== 'kick', ban: p !== 'tiktok', maxTimeoutSeconds: p === 'youtube' ? 86_400 : 1_209_600 }),
  });
}

const roles = { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false };

function message(provider: ChannelProviderId, text: string, who: { id: string; name: string; mod?: boolean }): StageMessage {
  seq++;
  const m: ChatMessage = {
    id: `${provider}:m${seq}`,
    channel_id: channelId,
    channel_provider_id: connOf(provider).id,
    provider,
    provider_message_id: `m${seq}`,
    author: {
      provider_user_id: who.id,
      login: who.name.toLowerCase(),
      display_name: who.name,
      color: null,
      avatar_url: null,
      badges: [],
      roles: { ...roles, moderator: Boolean(who.mod) },
      is_self: false,
    },
    text,
    emotes: [],
    reply: null,
    mentions: [],
    highlight: null,
    sent_at: new Date(now).toISOString(),
    deleted: false,
    filtered: null,
  };
  return { message: m, audience: who.mod ? AccessLevel.MOD : AccessLevel.PUBLIC, isSelf: false, now };
}

/** Runs the stages like the pipeline: moderation first; a filtered message never reaches commands. Then the effects. */
async function chat(
  input: StageMessage,
  worker: Chatbot = bot,
): Promise<{ filtered: { stage: string; reason: string } | null; effects: PipelineEffect[] }> {
  let filtered: { stage: string; reason: string } | null = null;
  const effects: PipelineEffect[] = [];
  const out = { filter: (v: { stage: string; reason: string }) => (filtered ??= v), effect: (e: PipelineEffect) => effects.push(e) };
  for (const phase of ['moderation', 'command'] as const) {
    for (const stage of worker.stages.filter((s) => s.phase === phase)) {
      if (filtered) break;
      stage.onMessage(input, out);
    }
  }
  for (const e of effects) {
    const handler = worker.effectHandlers.find((h) => h.kind === e.kind)!;
    await handler.run({ ...e, id: newId() });
  }
  return { filtered, effects };
}

const mod = { id: 'mod1', name: 'ModMary', mod: true };
const viewer = { id: 'v1', name: 'Bob' };

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Owner' });
  const res = await t.inject(owner, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'Pipeline' } });
  channelId = res.json().id;
  conns = (['twitch', 'youtube', 'kick'] as const).map((provider) => ({ id: newId(), provider, name: `${provider}chan`, isLive: true }));
  for (const c of conns) {
    await t.s.db
      .insert(channelProviders)
      .values({ id: c.id, channelId, provider: c.provider, providerChannelId: c.name, providerChannelName: c.name });
  }
});
afterAll(async () => {
  await bot?.stop();
  await t.close();
});
beforeEach(async () => {
  await bot?.stop();
  platform = new FakePlatform();
  bot = build();
  await bot.state.ensure(channelId);
});

describe('commands', () => {
  it('!addcom by a Twitch Mod, then !hello on Kick answers on Kick only', async () => {
    await chat(message('twitch', '!addcom !hello Hello $(user)', mod));
    expect(platform.sent).toEqual([{ provider: 'twitch', text: '!hello added.' }]);
    platform.sent = [];
    now += 10_000;
    await chat(message('kick', '!hello', viewer));
    expect(platform.sent).toEqual([{ provider: 'kick', text: 'Hello Bob' }]);
  });

  it('refuses !addcom below Mod and ignores messages from Greenroom itself', async () => {
    const r = await chat(message('twitch', '!addcom !nope hi', viewer));
    expect(r.effects).toEqual([]);
    const self = { ...message('twitch', '!uptime', mod), isSelf: true };
    expect((await chat(self)).effects).toEqual([]);
  });

  it('a burst of 100 answers once within the cooldown', async () => {
    await t.inject(owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/chat-commands`,
      payload: { name: '!burst', responses: ['#$(count)'], global_cooldown_seconds: 30 },
    });
    await bot.state.reloadCommands(channelId);
    let effects = 0;
    for (let i = 0; i < 100; i++)
      effects += (await chat(message(i % 2 ? 'kick' : 'twitch', '!burst', { id: `u${i}`, name: `U${i}` }))).effects.length;
    expect(effects).toBe(1);
    expect(platform.sent).toEqual([{ provider: 'twitch', text: '#1' }]);
    now += 31_000;
    await chat(message('youtube', '!BURST', viewer));
    expect(platform.sent.at(-1)).toEqual({ provider: 'youtube', text: '#2' });
  });

  it('reply modes: threaded reply on Twitch, a mention elsewhere; platforms filter', async () => {
    await t.inject(owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/chat-commands`,
      payload: { name: '!thread', responses: ['pong'], reply_mode: 'reply', global_cooldown_seconds: 0, platforms: ['twitch', 'youtube'] },
    });
    await bot.state.reloadCommands(channelId);
    const tw = message('twitch', '!thread', viewer);
    await chat(tw);
    await chat(message('youtube', '!thread', viewer));
    expect((await chat(message('kick', '!thread', viewer))).effects).toEqual([]);
    expect(platform.sent).toEqual([
      { provider: 'twitch', text: 'pong', replyTo: tw.message.provider_message_id },
      { provider: 'youtube', text: '@Bob pong' },
    ]);
  });

  it('a reply no bot can send is refused at once with the reason; a temporary failure is retried', async () => {
    platform.failSend = unsupported('No bot account is connected for this YouTube channel.');
    await expect(chat(message('youtube', '!uptime', viewer))).rejects.toThrow(
      new EffectRefused('Not sent on YouTube: No bot account is connected for this YouTube channel.'),
    );
    platform.failSend = new PlatformError('refused', 'twitch', 'Twitch did not send the message: you are timed out');
    now += 60_000;
    await expect(chat(message('twitch', '!uptime', viewer))).rejects.toBeInstanceOf(EffectRefused);
    platform.failSend = new PlatformError('temporary', 'kick', 'Kick could not be reached.');
    now += 60_000;
    const temporary = await chat(message('kick', '!uptime', viewer)).catch((error: unknown) => error);
    expect(temporary).toBeInstanceOf(PlatformError);
    expect(temporary).not.toBeInstanceOf(EffectRefused);

    // A reply stored for a read-only platform (TikTok has no chat API) is refused before anything is rendered.
    platform.failSend = null;
    now += 60_000;
    const [stored] = (await chat(message('twitch', '!commands', viewer))).effects;
    const handler = bot.effectHandlers.find((h) => h.kind === 'chatbot.reply')!;
    const tiktok = { ...(stored!.payload as object), provider: 'tiktok' };
    await expect(handler.run({ ...stored!, payload: tiktok, id: newId() })).rejects.toThrow(
      new EffectRefused('TikTok chat is read-only: Greenroom cannot answer there.'),
    );
  });

  it('$(followers) is the count of the platform the command was typed on', async () => {
    await t.inject(owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/chat-commands`,
      payload: {
        name: '!fans',
        responses: ['$(channel) has $(followers) followers'],
        global_cooldown_seconds: 0,
        user_cooldown_seconds: 0,
      },
    });
    await bot.state.reloadCommands(channelId);
    for (const p of ['twitch', 'youtube', 'kick'] as const) await chat(message(p, '!fans', viewer));
    expect(platform.sent).toEqual([
      { provider: 'twitch', text: 'twitchchan has 1234 followers' },
      { provider: 'youtube', text: 'youtubechan has 56700 followers' },
      { provider: 'kick', text: 'kickchan has [followers: not on Kick] followers' },
    ]);
  });

  it('!commands lists what the caller may use', async () => {
    await chat(message('youtube', '!commands', viewer));
    const text = platform.sent[0]!.text;
    expect(text.startsWith('Commands: ')).toBe(true);
    expect(text).toContain('!quote');
    expect(text).not.toContain('!addcom');
    expect([...text].length).toBeLessThanOrEqual(200);
  });

  it('a Greenroom Editor typing in chat gets Editor commands (!settitle on every platform)', async () => {
    const editor = await t.createUser({ displayName: 'Ed', provider: 'kick', providerUserId: 'kick-ed' });
    await t.s.db.insert(channelUsers).values({ channelId, userId: editor.id, level: AccessLevel.EDITOR });
    const [up] = await t.s.db.select().from(userProviders).where(eq(userProviders.userId, editor.id));
    expect(up!.providerUserId).toBe('kick-ed');
    expect((await chat(message('kick', '!settitle Speedrun', { id: 'kick-ed', name: 'Ed' }))).effects).toEqual([]);
    await bot.state.reloadStaff();
    await chat(message('kick', '!settitle Speedrun', { id: 'kick-ed', name: 'Ed' }));
    expect(platform.titles).toEqual(['Speedrun']);
    expect(platform.sent.at(-1)!.text).toBe('Title changed on Twitch, YouTube, Kick.');
  });
});

describe('filters', () => {
  beforeEach(async () => {
    for (const f of await bot.filters.list(channelId)) await bot.filters.remove(channelId, f.id);
    await bot.filters.create(channelId, {
      name: 'Links',
      type: 'links',
      settings: { allowed_domains: ['youtube.com'] },
      exempt_level: AccessLevel.VIP,
      action: 'delete',
      duration_seconds: 600,
      warn_first: false,
      message: '$(user), no links please',
      enabled: true,
    });
  });

  it('a link from a Public user is hidden, deleted and the user told; the log says why', async () => {
    const r = await chat(message('twitch', 'buy followers at cheap.xyz', viewer));
    expect(r.filtered).toEqual({ stage: 'chatbot.filters', reason: 'Links: link to cheap.xyz' });
    expect(r.effects.map((e) => e.kind)).toEqual(['chatbot.filter']);
    expect(platform.deleted).toHaveLength(1);
    expect(platform.sent).toEqual([{ provider: 'twitch', text: 'Bob, no links please' }]);
    const log = await bot.filters.logPage(channelId, { per_page: 10 });
    expect(log.records[0]).toMatchObject({
      filter_name: 'Links',
      requested: 'delete',
      action: 'delete',
      ok: true,
      note: null,
      reason: 'link to cheap.xyz',
    });
    expect((await chat(message('twitch', 'see youtube.com/watch', viewer))).filtered).toBeNull();
    expect((await chat(message('twitch', 'cheap.xyz', mod))).filtered).toBeNull();
  });

  it('where deletion is impossible the user is timed out and the log says so', async () => {
    await chat(message('kick', 'cheap.xyz', viewer));
    expect(platform.deleted).toHaveLength(0);
    expect(platform.bans).toEqual([
      { provider: 'kick', viewer: 'v1', providerViewerId: 'v1', durationSeconds: 1, reason: 'Links: link to cheap.xyz' },
    ]);
    const log = await bot.filters.logPage(channelId, { per_page: 1 });
    expect(log.records[0]).toMatchObject({
      action: 'timeout',
      duration_seconds: 1,
      note: 'Kick cannot delete single messages; timed out 1 s instead',
    });
  });

  it('a failing platform action is logged, not thrown', async () => {
    platform.failDelete = true;
    await chat(message('twitch', 'cheap.xyz', viewer));
    const log = await bot.filters.logPage(channelId, { per_page: 1 });
    expect(log.records[0]).toMatchObject({ ok: false, note: 'failed: Twitch did not accept it.' });
  });

  it('a filter message that cannot be said does not undo or repeat the action: the log says why', async () => {
    platform.failSend = unsupported('No bot account is connected for this Twitch channel.');
    await chat(message('twitch', 'buy at cheap.xyz', viewer));
    expect(platform.deleted).toHaveLength(1);
    const log = await bot.filters.logPage(channelId, { per_page: 1 });
    expect(log.records[0]).toMatchObject({
      ok: true,
      action: 'delete',
      note: 'message not sent: No bot account is connected for this Twitch channel.',
    });
  });

  it('!permit lets one link through', async () => {
    await chat(message('twitch', '!permit @Bob', mod));
    expect(platform.sent.at(-1)!.text).toBe('@bob may post one link in the next 60 seconds.');
    expect((await chat(message('twitch', 'my clip: clips.xyz/1', viewer))).filtered).toBeNull();
    expect((await chat(message('twitch', 'another.xyz', viewer))).filtered).not.toBeNull();
    // A permit on Twitch does not cover Kick.
    await chat(message('twitch', '!permit bob', mod));
    expect((await chat(message('kick', 'x.xyz', viewer))).filtered).not.toBeNull();
  });

  it('warn first, then the action, within a stream', async () => {
    const [f] = await bot.filters.list(channelId);
    await bot.filters.update(channelId, f!.id, {
      name: 'Links',
      type: 'links',
      settings: { allowed_domains: [] },
      exempt_level: AccessLevel.VIP,
      action: 'timeout',
      duration_seconds: 300,
      warn_first: true,
      message: 'No links, $(user) ($(reason))',
      enabled: true,
    });
    await chat(message('youtube', 'a.xyz', viewer));
    await chat(message('youtube', 'b.xyz', viewer));
    expect(platform.deleted).toHaveLength(1);
    expect(platform.bans).toEqual([{ provider: 'youtube', viewer: 'v1', providerViewerId: 'v1', durationSeconds: 300 }]);
    expect(platform.sent.map((s) => s.text)).toEqual(['No links, Bob (link to a.xyz) (warning)', 'No links, Bob (link to b.xyz)']);
  });
});

describe('quotes', () => {
  it('!addquote then !quote round trip with the game and date', async () => {
    await chat(message('twitch', '!addquote I never miss', mod));
    expect(platform.sent.at(-1)!.text).toMatch(/^Quote #\d+ added\.$/);
    const n = /#(\d+)/.exec(platform.sent.at(-1)!.text)![1];
    now += 10_000;
    await chat(message('kick', `!quote ${n}`, viewer));
    expect(platform.sent.at(-1)).toEqual({ provider: 'kick', text: `#${n}: "I never miss" [Celeste] (January 1, 2026)` });
    now += 10_000;
    await chat(message('kick', '!quote miss', viewer));
    expect(platform.sent.at(-1)!.text).toContain('I never miss');
    await chat(message('twitch', `!delquote ${n}`, mod));
    expect(platform.sent.at(-1)!.text).toBe(`Quote #${n} deleted.`);
  });
});

describe('a retried reply changes things once', () => {
  /** Stores the effects of one message, then runs each like the outbox: a failing send is retried under the same id. */
  async function chatFailingOnce(input: StageMessage): Promise<void> {
    const effects: PipelineEffect[] = [];
    const out = { filter: () => {}, effect: (e: PipelineEffect) => effects.push(e) };
    for (const phase of ['moderation', 'command'] as const)
      for (const stage of bot.stages.filter((s) => s.phase === phase)) stage.onMessage(input, out);
    expect(effects).toHaveLength(1);
    const handler = bot.effectHandlers.find((h) => h.kind === effects[0]!.kind)!;
    const stored = { ...effects[0]!, id: newId() };
    platform.failSend = new PlatformError('temporary', input.message.provider, 'Could not be reached.');
    const first = await handler.run(stored).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(PlatformError);
    platform.failSend = null;
    await handler.run(stored);
  }

  const quoteCount = async () => (await t.s.db.select().from(quotes).where(eq(quotes.channelId, channelId))).length;

  it('!addquote: one quote and the same reply after a failed send', async () => {
    const before = await quoteCount();
    platform.sent = [];
    await chatFailingOnce(message('twitch', '!addquote said once', mod));
    expect(await quoteCount()).toBe(before + 1);
    expect(platform.sent.map((m) => m.text)).toEqual([expect.stringMatching(/^Quote #\d+ added\.$/)]);
    const n = Number(/#(\d+)/.exec(platform.sent[0]!.text)![1]);
    const rows = await t.s.db
      .select()
      .from(quotes)
      .where(and(eq(quotes.channelId, channelId), eq(quotes.text, 'said once')));
    expect(rows.map((r) => r.number)).toEqual([n]);
  });

  it('$(count) moves once and the words stay the same', async () => {
    await t.inject(owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/chat-commands`,
      payload: { name: '!deaths', responses: ['Deaths: $(count) $(random.pick "a" "b" "c")'] },
    });
    await bot.state.reloadCommands(channelId);
    platform.sent = [];
    let r = 0;
    await bot.stop();
    bot = createChatbot({ db: t.s.db, platform, log: { info: () => {}, warn: () => {} }, clock: () => now, random: () => (r++ % 3) / 3 });
    await bot.state.ensure(channelId);
    await chatFailingOnce(message('kick', '!deaths', viewer));
    const [row] = await t.s.db
      .select()
      .from(chatCommands)
      .where(and(eq(chatCommands.channelId, channelId), eq(chatCommands.name, '!deaths')));
    expect(row!.useCount).toBe(1);
    // The first run rendered "a" before its send failed; a render on the retry would have picked "b".
    expect(platform.sent).toEqual([{ provider: 'kick', text: 'Deaths: 1 a' }]);
  });

  it('!addcom then !delcom from chat: one change each, one use counted', async () => {
    platform.sent = [];
    await chatFailingOnce(message('twitch', '!addcom !retryme hi', mod));
    expect(platform.sent.map((m) => m.text)).toEqual(['!retryme added.']);
    const named = () =>
      t.s.db
        .select()
        .from(chatCommands)
        .where(and(eq(chatCommands.channelId, channelId), eq(chatCommands.name, '!retryme')));
    expect(await named()).toHaveLength(1);
    const [addcom] = await t.s.db
      .select()
      .from(chatCommands)
      .where(and(eq(chatCommands.channelId, channelId), eq(chatCommands.name, '!addcom')));
    const uses = addcom!.useCount;
    now += 10_000;
    await chatFailingOnce(message('twitch', '!delcom !retryme', mod));
    expect(platform.sent.slice(1).map((m) => m.text)).toEqual(['!retryme deleted.']);
    expect(await named()).toHaveLength(0);
    const [after] = await t.s.db.select().from(chatCommands).where(eq(chatCommands.id, addcom!.id));
    expect(after!.useCount).toBe(uses);
    const [delcom] = await t.s.db
      .select()
      .from(chatCommands)
      .where(and(eq(chatCommands.channelId, channelId), eq(chatCommands.name, '!delcom')));
    expect(delcom!.useCount).toBe(1);
    // The matcher was rebuilt after the commit: !retryme no longer answers.
    now += 10_000;
    expect((await chat(message('twitch', '!retryme', viewer))).effects).toEqual([]);
  });

  it('!settitle changes the platforms once', async () => {
    platform.titles = [];
    platform.sent = [];
    const input = { ...message('twitch', '!settitle Once only', mod) };
    // Editor level comes from a linked Greenroom Editor (tested above); here the channel's owner types it.
    const handler = bot.effectHandlers.find((h) => h.kind === 'chatbot.reply')!;
    const effects: PipelineEffect[] = [];
    for (const stage of bot.stages.filter((s) => s.phase === 'command'))
      stage.onMessage({ ...input, audience: AccessLevel.OWNER }, { filter: () => {}, effect: (e) => effects.push(e) });
    expect(effects).toHaveLength(1);
    const stored = { ...effects[0]!, id: newId() };
    platform.failSend = new PlatformError('temporary', 'twitch', 'Could not be reached.');
    await expect(handler.run(stored)).rejects.toBeInstanceOf(PlatformError);
    platform.failSend = null;
    await handler.run(stored);
    expect(platform.titles).toEqual(['Once only']);
    expect(platform.sent).toHaveLength(1);
  });
});

describe('timers', () => {
  it('fire once per interval, after enough chat lines, across a restart', async () => {
    const created = await bot.timers.create(channelId, {
      name: 'Socials',
      messages: ['Follow on $(platform)!', 'Join the Discord'],
      interval_minutes: 10,
      min_lines: 2,
      online_only: true,
      platforms: ['twitch', 'kick'],
      enabled: true,
    });
    await bot.timerJob.tick();
    expect(platform.sent).toEqual([]);
    now += 10 * 60_000;
    await bot.timerJob.tick();
    // Due, but no chat lines yet: looked at again a minute later.
    expect(platform.sent).toEqual([]);
    await chat(message('twitch', 'hi', viewer));
    await chat(message('kick', 'hello', viewer));
    now += 60_000;
    await bot.timerJob.tick();
    expect(platform.sent.map((s) => `${s.provider}:${s.text}`).sort()).toEqual(['kick:Follow on Kick!', 'twitch:Follow on Twitch!']);
    await bot.timerJob.tick();
    expect(platform.sent).toHaveLength(2);

    // A restart: a new bot on the same database; the schedule holds and fires once.
    await bot.stop();
    const before = platform.sent.length;
    bot = build();
    await bot.state.ensure(channelId);
    await bot.timerJob.tick();
    expect(platform.sent).toHaveLength(before);
    // Two workers that both counted the lines race for the run: exactly one sends. (Lines are counted where the
    // chat is ingested, so a worker that saw none would skip and put the run off a minute: timers run on the
    // instance that holds the channel.)
    now += 10 * 60_000;
    const other = build();
    await other.state.ensure(channelId);
    for (const worker of [bot, other]) {
      await chat(message('twitch', 'a', viewer), worker);
      await chat(message('twitch', 'b', viewer), worker);
    }
    await Promise.all([bot.timerJob.tick(), other.timerJob.tick()]);
    expect(platform.sent.slice(before).map((s) => s.text)).toEqual(['Join the Discord', 'Join the Discord']);
    const after = await bot.timers.get(channelId, created.id);
    expect(Date.parse(after.next_run_at!)).toBeGreaterThan(now);
  });
});
