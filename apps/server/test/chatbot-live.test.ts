/**
 * The chatbot on the emulator's Twitch, Kick and YouTube chats, through the real connections and the chat pipeline:
 * a command added from chat on one platform answers on the platform it is typed on only; cooldowns hold under a
 * burst; the link filter deletes (or times out) and tells the user, and `!permit` lets one link through; quotes
 * round-trip through chat; a reply where no bot may send fails at once with its reason instead of being retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@greenroom/platform-emulator';
import { and, eq } from 'drizzle-orm';
import { chatMessages, chatTimers, pipelineEffects } from '../src/db/schema';
import { connectionsPlatform, createChatbot } from '../src/modules/chatbot';
import { startChatWorld, chatPlatforms, connectSystemBot, connectSystemBots, type ChatPlatform, type ChatWorld } from './chat-world';
import { actionsSince, control, lastActionSeq, until } from './platform-fixtures';

let world: ChatWorld;
const quiet = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  world = await startChatWorld('Chatbot live');
  // Greenroom's system bots answer where the channel has no bot of its own.
  await connectSystemBots(world);
  // Compiles the connected channel's commands and filters (main.ts does this at startup).
  await world.t.s.chatbot.start();
}, 60_000);

afterAll(async () => {
  await world?.close();
});

/** What Greenroom said in the channel's chat on `p` (the emulator's record of messages sent through its API). */
async function said(p: ChatPlatform): Promise<string[]> {
  const body = await control<{ data: ChatMessage[] }>(
    world.emulator,
    'GET',
    `/messages?platform=${p}&channel=${world.streamer[p].id}&origin=product`,
  );
  return body.data.map((m) => m.text);
}

async function saidEverywhere(): Promise<Record<ChatPlatform, string[]>> {
  const out = {} as Record<ChatPlatform, string[]>;
  for (const p of chatPlatforms) out[p] = await said(p);
  return out;
}

/** A viewer who moderates the channel on `p` (the platform reports the moderator role on their lines). */
async function moderator(p: ChatPlatform, name: string) {
  const viewer = await world.newViewer(p, name);
  world.emulator.world.channel(p, world.streamer[p].id)!.moderators.add(viewer.id);
  return viewer;
}

/** Lets every message in flight reach the pipeline and every effect run. */
async function settle(ms = 1500) {
  await new Promise((r) => setTimeout(r, ms));
  await world.t.s.ingest.flush();
}

// The timer test restarts the chatbot (its timer job and state) on the same database with a clock set ahead; the test
// harness cannot restart the whole server on one database.
describe('chatbot on the emulator', () => {
  it('a command added by a Twitch moderator answers on Kick, and on Kick only', async () => {
    const mod = await moderator('twitch', 'TwitchMod');
    await world.chat('twitch', '!addcom !hello Hello $(user)', mod.id);
    await until(async () => (await said('twitch')).includes('!hello added.'));

    const before = await saidEverywhere();
    const viewer = await world.newViewer('kick', 'KickFan');
    await world.chat('kick', '!hello', viewer.id);
    await until(async () => (await said('kick')).includes(`Hello ${viewer.displayName}`));
    await settle();
    const after = await saidEverywhere();
    expect(after.kick.slice(before.kick.length)).toEqual([`Hello ${viewer.displayName}`]);
    expect(after.twitch.slice(before.twitch.length)).toEqual([]);
    expect(after.youtube.slice(before.youtube.length)).toEqual([]);
  });

  it('a burst of 100 users typing a command within its cooldown gets one answer', async () => {
    const created = await world.t.inject(world.owner, {
      method: 'POST',
      url: `/api/2/channels/${world.channelId}/chat-commands`,
      payload: { name: '!burst', responses: ['Burst answer for $(user)'], global_cooldown_seconds: 60 },
    });
    expect(created.statusCode).toBe(201);
    const viewers = await Promise.all(Array.from({ length: 100 }, () => world.newViewer('twitch', 'Burster')));
    await Promise.all(viewers.map((v) => world.chat('twitch', '!burst', v.id)));
    // Every line of the burst reached the pipeline before counting the answers.
    await until(async () => {
      await world.t.s.ingest.flush();
      const rows = await world.t.s.db
        .select({ id: chatMessages.id })
        .from(chatMessages)
        .where(and(eq(chatMessages.channelId, world.channelId), eq(chatMessages.text, '!burst')));
      return rows.length === 100;
    });
    await until(async () => (await said('twitch')).some((t) => t.startsWith('Burst answer for')));
    await settle();
    const all = await saidEverywhere();
    const answers = chatPlatforms.flatMap((p) => all[p].filter((t) => t.startsWith('Burst answer for')));
    expect(answers).toHaveLength(1);
    expect(viewers.map((v) => `Burst answer for ${v.displayName}`)).toContain(answers[0]);
  });

  it('deletes a link from a Public user and tells them; after !permit their next link (and only that one) passes', async () => {
    const created = await world.t.inject(world.owner, {
      method: 'POST',
      url: `/api/2/channels/${world.channelId}/chat-filters`,
      payload: {
        name: 'Links',
        type: 'links',
        settings: { allowed_domains: ['greenroom.tv'] },
        warn_first: false,
        message: '@$(user), links need a !permit from a moderator.',
      },
    });
    expect(created.statusCode).toBe(201);
    const mod = await moderator('twitch', 'PermitMod');
    const viewer = await world.newViewer('twitch', 'Linker');
    const login = world.emulator.world.account('twitch', viewer.id)!.login;
    const since = await lastActionSeq(world.emulator);
    const deletes = async () =>
      (await actionsSince(world.emulator, 'twitch', since)).filter((a) => a.type === 'chat.delete').map((a) => a.data.messageId);
    const stored = async (providerMessageId: string) => {
      await world.t.s.ingest.flush();
      const [row] = await world.t.s.db
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.channelId, world.channelId), eq(chatMessages.providerMessageId, providerMessageId)));
      return row;
    };

    const allowed = await world.chat('twitch', 'our site is https://greenroom.tv/about', viewer.id);
    const spam = await world.chat('twitch', 'cheap followers at spamfollows.com/buy', viewer.id);
    await until(async () => (await deletes()).includes(spam.id));
    await until(async () => (await said('twitch')).includes(`@${viewer.displayName}, links need a !permit from a moderator.`));
    expect((await stored(spam.id))?.filterStage).toBe('chatbot.filters');
    expect((await stored(allowed.id))?.filterStage ?? null).toBeNull();

    await world.chat('twitch', `!permit @${viewer.displayName}`, mod.id);
    await until(async () => (await said('twitch')).includes(`@${login} may post one link in the next 60 seconds.`));
    const permitted = await world.chat('twitch', 'my clip: https://clips.twitch.tv/abc', viewer.id);
    const again = await world.chat('twitch', 'and another: https://clips.twitch.tv/def', viewer.id);
    await until(async () => (await deletes()).includes(again.id));
    await settle();
    expect((await stored(permitted.id))?.filterStage ?? null).toBeNull();
    expect(await deletes()).toEqual([spam.id, again.id]);
    expect((await said('twitch')).filter((t) => t === `@${viewer.displayName}, links need a !permit from a moderator.`)).toHaveLength(2);
  });

  it('!addquote by a moderator on Twitch, then !quote 1 and !quote word on YouTube answer with it', async () => {
    const mod = await moderator('twitch', 'QuoteMod');
    await world.chat('twitch', '!addquote Chat is the real content', mod.id);
    await until(async () => (await said('twitch')).includes('Quote #1 added.'));
    const game = world.emulator.world.channel('twitch', world.streamer.twitch.id)!.categoryName;
    expect(game).toBeTruthy();

    const viewer = await world.newViewer('youtube', 'QuoteFan');
    await world.chat('youtube', '!quote 1', viewer.id);
    const quote = await until(async () => (await said('youtube')).find((t) => t.startsWith('#1: ')));
    expect(quote.startsWith(`#1: "Chat is the real content" [${game}] (`)).toBe(true);
    // The global cooldown of !quote (5 s) has to pass before it answers again.
    await new Promise((r) => setTimeout(r, 5_500));
    await world.chat('youtube', '!quote CONTENT', viewer.id);
    await until(async () => (await said('youtube')).filter((t) => t === quote).length === 2);

    const listed = await world.t.inject(world.owner, { method: 'GET', url: `/api/2/channels/${world.channelId}/quotes` });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject([{ number: 1, text: 'Chat is the real content', game }]);
  }, 30_000);

  it('$(followers) answers with the follower count of the platform it is typed on (YouTube: subscribers)', async () => {
    const created = await world.t.inject(world.owner, {
      method: 'POST',
      url: `/api/2/channels/${world.channelId}/chat-commands`,
      payload: { name: '!fans', responses: ['$(followers) follow us here'], global_cooldown_seconds: 0, user_cooldown_seconds: 0 },
    });
    expect(created.statusCode).toBe(201);
    const emulated = world.emulator.world;
    // A follow just now counts (the platform is asked, not a stored figure).
    for (const p of ['twitch', 'youtube'] as const) {
      const fan = await world.newViewer(p, 'NewFan');
      emulated.postEvent({
        id: `follow-${p}`,
        platform: p,
        channelId: world.streamer[p].id,
        type: 'follow',
        userId: fan.id,
        data: {},
        createdAt: new Date(),
      });
    }
    const twitchCount = emulated.channel('twitch', world.streamer.twitch.id)!.followers.size;
    const youtubeCount = emulated.channel('youtube', world.streamer.youtube.id)!.followers.size;
    expect(twitchCount).toBeGreaterThan(0);
    for (const p of chatPlatforms) await world.chat(p, '!fans', (await world.newViewer(p, 'Asker')).id);
    await until(async () => (await said('twitch')).includes(`${twitchCount} follow us here`));
    await until(async () => (await said('youtube')).includes(`${youtubeCount} follow us here`));
    await until(async () => (await said('kick')).includes('[followers: not on Kick] follow us here'));
  });

  it('a reply on a platform where no bot can send fails at once with the reason, and is not retried', async () => {
    const created = await world.t.inject(world.owner, {
      method: 'POST',
      url: `/api/2/channels/${world.channelId}/chat-commands`,
      payload: { name: '!nobot', responses: ['Nobody hears this'] },
    });
    expect(created.statusCode).toBe(201);
    const commandId = created.json<{ id: string }>().id;
    // The channel has no bot account of its own on Twitch; without the system bot nobody may answer there.
    await world.t.s.systemBots.disconnect('twitch');
    try {
      const viewer = await world.newViewer('twitch', 'Lonely');
      await world.chat('twitch', '!nobot', viewer.id);
      const replies = async () =>
        (
          await world.t.s.db
            .select()
            .from(pipelineEffects)
            .where(and(eq(pipelineEffects.channelId, world.channelId), eq(pipelineEffects.kind, 'chatbot.reply')))
        ).filter((r) => (r.payload as { commandId: string }).commandId === commandId);
      await until(async () => (await replies()).some((r) => r.status === 'failed'));
      const [row] = await replies();
      expect(row).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastError: 'Not sent on Twitch: No bot account is connected for this Twitch channel.',
      });
      // Failed for good: the outbox polls every second and never claims it again.
      await settle(2500);
      expect((await replies())[0]).toMatchObject({ status: 'failed', attempts: 1 });
      expect(await said('twitch')).not.toContain('Nobody hears this');
    } finally {
      await connectSystemBot(world, 'twitch');
    }
  });

  it('a timer fires once per interval, across a restart of the chatbot on the same database', async () => {
    const created = await world.t.inject(world.owner, {
      method: 'POST',
      url: `/api/2/channels/${world.channelId}/chat-timers`,
      payload: {
        name: 'Socials',
        messages: ['Follow us everywhere'],
        interval_minutes: 5,
        min_lines: 0,
        online_only: false,
        platforms: ['kick'],
      },
    });
    expect(created.statusCode).toBe(201);
    const timerId = created.json<{ id: string }>().id;
    const fired = async () => (await said('kick')).filter((t) => t === 'Follow us everywhere').length;
    // A chatbot on the same database whose clock is `offset` ms ahead (a process started later).
    const instance = (offset: number) =>
      createChatbot({
        db: world.t.s.db,
        platform: connectionsPlatform({
          db: world.t.s.db,
          source: () => world.t.s.connections,
          streamInfo: world.t.s.streamInfo,
          log: quiet,
        }),
        log: quiet,
        clock: () => Date.now() + offset,
      });
    const [row] = await world.t.s.db.select().from(chatTimers).where(eq(chatTimers.id, timerId));
    const firstRun = row!.nextRunAt!.getTime() - Date.now();
    expect(firstRun).toBeLessThanOrEqual(5 * 60_000);

    // The running server's chatbot stops; one started after the first run is due fires it, and a second pass does not.
    await world.t.s.chatbot.stop();
    const first = instance(firstRun + 1_000);
    await first.timerJob.tick();
    await until(async () => (await fired()) === 1);
    await first.timerJob.tick();

    // Restarted (and twice at once, as two workers would) within the same interval: nothing; after it: once.
    await first.stop();
    const [a, b] = [instance(firstRun + 4 * 60_000), instance(firstRun + 4 * 60_000)];
    await Promise.all([a.timerJob.tick(), b.timerJob.tick()]);
    await settle(500);
    expect(await fired()).toBe(1);
    const [c, d] = [instance(firstRun + 5 * 60_000 + 2_000), instance(firstRun + 5 * 60_000 + 2_000)];
    await Promise.all([c.timerJob.tick(), d.timerJob.tick()]);
    await until(async () => (await fired()) === 2);
    await settle(500);
    expect(await fired()).toBe(2);
    expect((await said('twitch')).includes('Follow us everywhere')).toBe(false);
    await Promise.all([a, b, c, d].map((x) => x.stop()));
  });
});
