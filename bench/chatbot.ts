/**
 * Chatbot benchmark: the chatbot's stages alone — spam filters (moderation stage) + command match
 * (command stage) + rendering of the chosen response — on realistic crowd traffic (the emulator's
 * crowd generator: plain chat, 7TV/BTTV/Twitch emotes, caps, emote spam, repeats, links, commands,
 * replies, mentions) across Twitch, YouTube and Kick, with 200 commands and 10 filters per channel.
 *
 * 1. Capacity on one core: messages/s through the chatbot stages, beside a no-op stage over the same
 *    messages in the same run (the ceiling: the loop, the message objects and the stage call).
 * 2. Maximum sustainable rate: offered rates rise until the backlog grows (paced in 10 ms ticks).
 * 3. Latency from a command typed to its reply leaving Greenroom (the platform send call): stages,
 *    then the reply effect handler (async render, atomic use count on PGlite, send), p50/p99 at an
 *    offered command rate, against the 50 ms goal. (The pipeline's own commit before effects run is
 *    the chat pipeline's and is measured by its benchmarks.)
 *
 * Run: npx tsx bench/chatbot.ts [seconds per rate]
 */
import { pathToFileURL } from 'node:url';
import { AccessLevel, type AccessLevelValue } from '../packages/contracts/src/access';
import type { ChatEmote, ChatMessage } from '../packages/contracts/src/api/events';
import type { ChannelProviderId } from '../packages/contracts/src/providers';
import { bttvEmoteNames, sevenTvEmoteNames } from '../packages/platform-emulator/src/emote-names';
import { CrowdGenerator } from '../packages/platform-emulator/src/crowd/generator';
import { SeededRandom } from '../packages/platform-emulator/src/random';
import { seedWorld } from '../packages/platform-emulator/src/seed';
import { World } from '../packages/platform-emulator/src/world';
import { openDatabase } from '../apps/server/src/db/client';
import { channelProviders, channels } from '../apps/server/src/db/schema';
import { newId } from '../apps/server/src/lib/ids';
import type { ChatStage, PipelineEffect, StageMessage, StageOutput } from '../apps/server/src/pipeline/stage';
import { ChannelBot } from '../apps/server/src/modules/chatbot/chatbot-state';
import { BuiltinRegistry } from '../apps/server/src/modules/chatbot/builtins';
import type { CommandDefinition } from '../apps/server/src/modules/chatbot/domain/commands';
import type { FilterDefinition } from '../apps/server/src/modules/chatbot/domain/filters';
import { parseTemplate, renderTemplate, type Template } from '../apps/server/src/modules/chatbot/domain/template';
import { resolveVariable, type ReplyContext } from '../apps/server/src/modules/chatbot/domain/variables';
import { createCommandStage, createFilterStage, type ReplyPayload } from '../apps/server/src/modules/chatbot/stages';
import { createChatbot } from '../apps/server/src/modules/chatbot/chatbot-module';
import type { BotConnection, ChatbotPlatform } from '../apps/server/src/modules/chatbot/chatbot-platform';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const CHANNEL = 'bench-channel';
const platforms: ChannelProviderId[] = ['twitch', 'youtube', 'kick'];
const thirdParty = new Set([...sevenTvEmoteNames, ...bttvEmoteNames]);

/** 200 commands: the crowd's own commands first (so the crowd hits them), then realistic custom ones. */
export function benchCommands(): CommandDefinition[] {
  const base: Omit<CommandDefinition, 'id' | 'name' | 'responses'> = {
    aliases: [],
    builtin: null,
    responseMode: 'random',
    level: 0,
    globalCooldownSeconds: 0,
    userCooldownSeconds: 0,
    platforms: [],
    replyMode: 'say',
    enabled: true,
  };
  const known: [string, string][] = [
    ['!uptime', '$(channel) has been live for $(uptime).'],
    ['!discord', 'Join the Discord: https://discord.gg/example — see you there $(user)!'],
    ['!socials', 'Twitter, Instagram and TikTok: @$(channel)'],
    ['!followage', '$(touser) has been here a while!'],
    ['!lurk', '$(user) is lurking. Enjoy!'],
    ['!title', '$(title)'],
    ['!game', '$(channel) is playing $(game).'],
    ['!so', 'Go follow $(touser) — they were last seen on $(platform)!'],
    ['!hug', '$(user) hugs $(touser) ${random.pick "<3" "♥" "(っ◕‿◕)っ"}'],
  ];
  const out: CommandDefinition[] = known.map(([name, response], i) => ({ ...base, id: `k${i}`, name, responses: [response] }));
  for (let i = out.length; i < 200; i++) {
    out.push({
      ...base,
      id: `c${i}`,
      name: `!cmd${i}`,
      aliases: [`!alias${i}`],
      responses: [`Response ${i} for $(user): $(random 1-100) at $(time Europe/London)`, `Other ${i} $(touser)`],
      responseMode: i % 2 ? 'in_turn' : 'random',
      level: i % 10 === 0 ? AccessLevel.MOD : 0,
    });
  }
  return out;
}

/** 10 filters: one of each kind, plus a second banned-word list. */
export function benchFilters(): FilterDefinition[] {
  const common = {
    exemptLevel: AccessLevel.MOD,
    action: 'timeout' as const,
    durationSeconds: 60,
    warnFirst: true,
    message: '$(user), please stop',
    enabled: true,
  };
  const words = Array.from({ length: 50 }, (_, i) => `badword${i}`);
  return [
    { ...common, id: 'f1', name: 'Links', type: 'links', settings: { allowed_domains: ['youtube.com', 'clips.twitch.tv'] } },
    { ...common, id: 'f2', name: 'Caps', type: 'caps', settings: { min_length: 10, max_percent: 70 } },
    { ...common, id: 'f3', name: 'Symbols', type: 'symbols', settings: { min_length: 10, max_percent: 50 } },
    { ...common, id: 'f4', name: 'Emotes', type: 'emotes', settings: { max_count: 6 } },
    { ...common, id: 'f5', name: 'Words', type: 'words', settings: { words } },
    {
      ...common,
      id: 'f6',
      name: 'Regex',
      type: 'regex',
      settings: { patterns: ['fr[e3]{2}\\s*v-?bucks', '(?:buy|cheap)\\s+(?:followers|viewers)', 'discord\\.gg/\\w+'] },
    },
    { ...common, id: 'f7', name: 'Repetition', type: 'repetition', settings: { similarity_percent: 90, min_length: 20 } },
    { ...common, id: 'f8', name: 'Length', type: 'length', settings: { max_length: 400 } },
    { ...common, id: 'f9', name: 'Zalgo', type: 'zalgo', settings: { max_marks: 3 } },
    { ...common, id: 'f10', name: 'Slurs', type: 'words', settings: { words: ['slur*', 'very bad phrase', 'another one'] } },
  ];
}

/** Realistic chat from the emulator's crowd, normalised like the ingest pipeline (third-party emotes annotated). */
export function crowdMessages(n: number): StageMessage[] {
  const world = new World();
  const random = new SeededRandom(7);
  seedWorld(world, random, 'http://127.0.0.1:1');
  const generator = new CrowdGenerator(world, new SeededRandom(11));
  const chans = platforms.map((p) => world.channelsOf(p)[0]!);
  const roll = new SeededRandom(13);
  const out: StageMessage[] = [];
  for (let i = 0; i < n; i++) {
    const platform = platforms[i % platforms.length]!;
    const g = generator.message(chans[i % chans.length]!);
    const author = world.account(platform, g.authorId);
    const emotes: ChatEmote[] = g.emotes.map((e) => ({
      start: e.start,
      end: e.end + 1,
      name: e.name,
      id: e.id,
      source: 'platform',
      url: '',
    }));
    let at = 0;
    for (const word of g.text.split(' ')) {
      if (thirdParty.has(word)) emotes.push({ start: at, end: at + word.length, name: word, id: word, source: '7tv', url: '' });
      at += word.length + 1;
    }
    const r = roll.next();
    const audience: AccessLevelValue =
      r < 0.02 ? AccessLevel.MOD : r < 0.05 ? AccessLevel.VIP : r < 0.3 ? AccessLevel.SUB : AccessLevel.PUBLIC;
    const message: ChatMessage = {
      id: `${platform}:${g.id}`,
      channel_id: CHANNEL,
      channel_provider_id: `cp-${platform}`,
      provider: platform,
      provider_message_id: g.id,
      author: {
        provider_user_id: author?.id ?? g.authorId,
        login: author?.login ?? 'viewer',
        display_name: author?.displayName ?? 'Viewer',
        color: null,
        avatar_url: null,
        badges: [],
        roles: {
          broadcaster: false,
          moderator: audience === AccessLevel.MOD,
          vip: audience === AccessLevel.VIP,
          subscriber: audience === AccessLevel.SUB,
          member: false,
          verified: false,
        },
        is_self: false,
      },
      text: g.text,
      emotes,
      reply: null,
      mentions: [],
      highlight: null,
      sent_at: g.createdAt.toISOString(),
      deleted: false,
      filtered: null,
    };
    out.push({ message, audience, isSelf: false, now: 0 });
  }
  return out;
}

function botWith(commands: CommandDefinition[], filters: FilterDefinition[]): ChannelBot {
  const bot = new ChannelBot(CHANNEL);
  bot.setCommands(commands);
  bot.setFilters(filters);
  for (const p of platforms) {
    bot.streams.set(`cp-${p}`, {
      isLive: true,
      startedAt: Date.now() - 3_600_000,
      title: 'Bench stream',
      category: 'Just Chatting',
      viewers: 1234,
    });
  }
  return bot;
}

const templateCache = new Map<string, Template>();
/** The stages, and the reply's rendering (synchronous variables) for every reply effect. */
function chatbotRunner(bot: ChannelBot) {
  const state = { get: () => bot };
  const stages: ChatStage[] = [createFilterStage(state), createCommandStage(state, new BuiltinRegistry())];
  let filtered = false;
  let replies = 0;
  let filteredCount = 0;
  let rendered = 0;
  const out: StageOutput = {
    filter: () => {
      filtered = true;
    },
    effect: (e: PipelineEffect) => {
      if (e.kind !== 'chatbot.reply') return;
      replies++;
      const p = e.payload as ReplyPayload;
      if (p.response === null) return;
      let t = templateCache.get(p.response);
      if (!t) templateCache.set(p.response, (t = parseTemplate(p.response)));
      const ctx: ReplyContext = {
        user: p.user,
        args: p.args,
        query: p.query,
        platform: p.provider,
        channelName: 'benchchannel',
        now: p.now,
        stream: bot.streams.get(p.channelProviderId) ?? null,
        chatters: () => bot.chatters(),
        random: Math.random,
      };
      const text = renderTemplate(t, resolveVariable, ctx);
      if (typeof text === 'string') rendered += text.length > 0 ? 1 : 0;
    },
  };
  return {
    run(m: StageMessage) {
      filtered = false;
      stages[0]!.onMessage(m, out);
      if (filtered) {
        filteredCount++;
        return;
      }
      stages[1]!.onMessage(m, out);
    },
    counts: () => ({ replies, filtered: filteredCount, rendered }),
  };
}

function noopRunner() {
  let seen = 0;
  const stage: ChatStage = {
    name: 'noop',
    phase: 'command',
    onMessage(input) {
      if (input.message.text.length >= 0) seen++;
    },
  };
  const out: StageOutput = { filter: () => undefined, effect: () => undefined };
  return { run: (m: StageMessage) => stage.onMessage(m, out), counts: () => ({ seen }) };
}

/** Messages/s over `rounds` passes of the message set (best pass), each message with a fresh `now`. */
function capacity(messages: StageMessage[], run: (m: StageMessage) => void, rounds: number): number {
  let best = 0;
  let now = Date.now();
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (const m of messages) {
      (m as { now: number }).now = now++;
      run(m);
    }
    const s = (performance.now() - t0) / 1000;
    best = Math.max(best, messages.length / s);
  }
  return best;
}

/** Offers `rate` msgs/s in 10 ms ticks for `seconds`; sustainable when the backlog at the end is within 50 ms of the offer. */
async function sustainable(messages: StageMessage[], run: (m: StageMessage) => void, rate: number, seconds: number): Promise<boolean> {
  const start = performance.now();
  let offered = 0;
  let done = 0;
  let i = 0;
  while (performance.now() - start < seconds * 1000) {
    const elapsed = (performance.now() - start) / 1000;
    offered = Math.floor(elapsed * rate);
    const tickEnd = performance.now() + 10;
    const now = Date.now();
    while (done < offered && (done & 31 || performance.now() < tickEnd)) {
      const m = messages[i++ % messages.length]!;
      (m as { now: number }).now = now;
      run(m);
      done++;
    }
    await new Promise((r) => setImmediate(r));
  }
  return offered - done <= rate / 20;
}

async function latency(seconds: number, rate: number): Promise<{ p50: number; p99: number; max: number; n: number }> {
  const database = await openDatabase({ dataDir: 'memory://' });
  const db = database.db;
  await db.insert(channels).values({ id: CHANNEL, displayName: 'Bench' });
  const conns: BotConnection[] = platforms.map((p) => ({ id: `cp-${p}`, provider: p, name: `bench${p}`, isLive: true }));
  for (const c of conns)
    await db
      .insert(channelProviders)
      .values({ id: c.id, channelId: CHANNEL, provider: c.provider, providerChannelId: c.id, providerChannelName: c.name });
  const sentAt = new Map<string, number>();
  const typedAt = new Map<string, number>();
  const platform: ChatbotPlatform = {
    connections: async () => conns,
    send: async (_id, input) => {
      sentAt.set(input.text, performance.now());
    },
    deleteMessage: async () => undefined,
    ban: async () => undefined,
    streamInfo: async () => ({ title: 'Bench', category: 'Bench' }),
    setTitle: async () => [],
    setCategory: async () => [],
  };
  const bot = createChatbot({ db, platform, log: { info: () => undefined, warn: () => undefined } });
  const channelBot = await bot.state.ensure(CHANNEL);
  const defs = benchCommands();
  // The latency command answers with its use count ($(count): an atomic UPDATE … RETURNING per reply).
  defs.push({ ...defs[defs.length - 1]!, id: newId(), name: '!latency', aliases: [], responses: ['#$(count) $(user) $(query)'], level: 0 });
  channelBot.setCommands(defs);
  channelBot.setFilters(benchFilters());
  const crowd = crowdMessages(20_000);
  const effects: (PipelineEffect & { id: string })[] = [];
  const out: StageOutput = { filter: () => undefined, effect: (e) => effects.push({ ...e, id: newId() }) };
  const handlers = new Map(bot.effectHandlers.map((h) => [h.kind, h]));
  const durations: number[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let k = 0;
  let ci = 0;
  // Background crowd at 2,000 msgs/s plus `rate` commands/s, each command's effects run as soon as its stages did.
  while (performance.now() - start < seconds * 1000) {
    const elapsed = (performance.now() - start) / 1000;
    while (k < elapsed * rate) {
      const tag = `t${k++}`;
      const m = crowd[ci++ % crowd.length]!;
      const cmd: StageMessage = { ...m, message: { ...m.message, id: tag, text: `!latency ${tag}` }, now: Date.now() };
      typedAt.set(tag, performance.now());
      effects.length = 0;
      for (const stage of bot.stages) stage.onMessage(cmd, out);
      for (const e of effects.splice(0)) pending.push(handlers.get(e.kind)!.run(e));
      for (let j = 0; j < 2_000 / rate; j++) {
        const c = crowd[ci++ % crowd.length]!;
        (c as { now: number }).now = Date.now();
        for (const stage of bot.stages) stage.onMessage(c, { filter: () => undefined, effect: () => undefined });
      }
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.allSettled(pending);
  for (const [text, at] of sentAt) {
    const tag = /(t\d+)$/.exec(text)?.[1];
    const typed = tag ? typedAt.get(tag) : undefined;
    if (typed !== undefined) durations.push(at - typed);
  }
  await bot.stop();
  await database.close();
  durations.sort((a, b) => a - b);
  const pct = (p: number) => durations[Math.min(durations.length - 1, Math.floor((p / 100) * durations.length))] ?? NaN;
  return { p50: pct(50), p99: pct(99), max: durations.at(-1) ?? NaN, n: durations.length };
}

/** `seconds`: each offered rate's duration (the command line's first argument when run alone; `npm run bench` passes
 * bench names there, so the runner never reads it). */
export async function benchChatbot(seconds = 2): Promise<BenchResult[]> {
  const messages = crowdMessages(50_000);
  const bot = botWith(benchCommands(), benchFilters());
  const runner = chatbotRunner(bot);
  const noop = noopRunner();
  // Warm-up (JIT), then both measured in the same run, alternating.
  capacity(messages, runner.run, 2);
  capacity(messages, noop.run, 2);
  const product = capacity(messages, runner.run, 5);
  const ceiling = capacity(messages, noop.run, 5);
  const c = runner.counts();
  const perPass = messages.length * 7;
  console.log(
    `  per pass: ${Math.round((c.filtered / perPass) * 1000) / 10}% filtered, ${Math.round((c.replies / perPass) * 1000) / 10}% answered (${c.rendered} rendered)`,
  );

  let rate = 25_000;
  let best = 0;
  while (rate <= 400_000) {
    const ok = await sustainable(messages, chatbotRunner(botWith(benchCommands(), benchFilters())).run, rate, seconds);
    console.log(`  offered ${rate.toLocaleString('en-US')} msgs/s: ${ok ? 'sustained' : 'backlog grows'}`);
    if (!ok) break;
    best = rate;
    rate = Math.round(rate * 1.5);
  }

  const lat = await latency(Math.max(3, seconds * 2), 100);
  console.log(
    `  latency over ${lat.n} commands at 100 commands/s + 2,000 crowd msgs/s: p50 ${lat.p50.toFixed(2)} ms, max ${lat.max.toFixed(2)} ms`,
  );
  return [
    { name: 'chatbot stages (10 filters + 200 commands + render), one core', value: Math.round(product), unit: 'msgs/s' },
    { name: 'no-op stage, same messages, same run (ceiling)', value: Math.round(ceiling), unit: 'msgs/s' },
    { name: 'chatbot / no-op', value: Math.round((product / ceiling) * 1000) / 1000, unit: '×' },
    { name: 'maximum sustainable offered rate (goal ≥ 50,000)', value: best, unit: 'msgs/s' },
    { name: 'command typed → reply sent, p99 (goal ≤ 50)', value: Math.round(lat.p99 * 100) / 100, unit: 'ms' },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seconds = process.argv[2] ? Number(process.argv[2]) : undefined;
  for (const r of await benchChatbot(seconds)) console.log(`  ${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
}
