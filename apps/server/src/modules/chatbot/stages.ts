/**
 * The chatbot's two chat pipeline stages. Both are synchronous and read only the channel's in-memory
 * bot (see chatbot-state.ts); what needs I/O is an effect run after the message is committed.
 *
 * - `chatbot.filters` (moderation phase): the first spam filter the line breaks hides it from staff
 *   and the public at once; the platform action (delete / timeout / ban, or the next one the platform
 *   allows) and the chat message are the `chatbot.filter` effect.
 * - `chatbot.commands` (command phase): counts the line for timers, matches the channel's compiled
 *   commands, checks platform, level and cooldowns, picks the response, and stores a `chatbot.reply`
 *   effect that renders and sends it on the platform the command was typed on.
 *
 * Messages written by Greenroom itself (`isSelf`) are never filtered or answered.
 */
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { providers } from '@greenroom/contracts/providers';
import type { ChatStage, StageMessage, StageOutput } from '../../pipeline/stage';
import type { BuiltinRegistry } from './builtins';
import type { ChannelBot, ChatbotState } from './chatbot-state';
import { pickResponse, type ReplyMode } from './domain/commands';
import { planAction, type PlannedAction, type PlatformModeration } from './domain/filters';
import type { ReplyUser } from './domain/variables';
import type { FilterType } from '@greenroom/contracts/api/chatbot';

export const FILTER_EFFECT = 'chatbot.filter';
export const REPLY_EFFECT = 'chatbot.reply';

/** The `chatbot.reply` effect: everything needed to answer after commit. */
export interface ReplyPayload {
  channelProviderId: string;
  provider: ChannelProviderId;
  providerMessageId: string;
  user: ReplyUser;
  level: number;
  /** The author subscribes or is a member on that platform. */
  subscriber: boolean;
  commandId: string;
  /** The built-in's key, or null for a response. */
  builtin: string | null;
  /** What the built-in's `onMatch` returned. */
  matched: unknown;
  /** The chosen response template (null for built-ins). */
  response: string | null;
  args: string[];
  query: string;
  replyMode: ReplyMode;
  now: number;
}

/** The `chatbot.filter` effect: the action planned for a filtered message, for the platform and the log. */
export interface FilterPayload {
  channelProviderId: string;
  provider: ChannelProviderId;
  providerMessageId: string;
  viewer: ReplyUser;
  text: string;
  filter: { id: string; name: string; type: FilterType };
  reason: string;
  plan: PlannedAction;
  /** The chat message template (empty: say nothing). */
  message: string;
  now: number;
}

/** What the platform can do, from the catalogue (tests pass their own). */
export type ModerationCapabilities = (provider: ChannelProviderId) => PlatformModeration;
export const catalogueModeration: ModerationCapabilities = (provider) => ({
  deleteMessage: providers[provider].deleteMessage,
  ban: providers[provider].ban,
  maxTimeoutSeconds: providers[provider].maxTimeoutSeconds,
});

const userOf = (m: StageMessage['message']): ReplyUser => ({
  providerUserId: m.author.provider_user_id,
  login: m.author.login,
  displayName: m.author.display_name,
});

export function createFilterStage(state: Pick<ChatbotState, 'get'>, capabilities: ModerationCapabilities = catalogueModeration): ChatStage {
  return {
    name: 'chatbot.filters',
    phase: 'moderation',
    onMessage(input: StageMessage, out: StageOutput): void {
      if (input.isSelf) return;
      const m = input.message;
      const bot = state.get(m.channel_id);
      if (!bot || bot.filters.size === 0) return;
      const level = bot.levelOf(input.audience, m.provider, m.author.provider_user_id);
      const userKey = `${m.provider}:${m.author.provider_user_id}`;
      const hit = bot.filters.check({
        text: m.text,
        emotes: m.emotes,
        level,
        userKey,
        permitKey: `${m.provider}:${m.author.login.toLowerCase()}`,
        provider: m.provider,
        now: input.now,
      });
      if (!hit) return;
      const f = hit.filter;
      const offence = bot.offences.add(f.id, userKey);
      const requested = f.warnFirst && offence === 1 ? 'warn' : f.action;
      const plan = planAction(requested, f.durationSeconds, capabilities(m.provider), providers[m.provider].name);
      out.filter({ stage: 'chatbot.filters', reason: `${f.name}: ${hit.reason}` });
      const payload: FilterPayload = {
        channelProviderId: m.channel_provider_id,
        provider: m.provider,
        providerMessageId: m.provider_message_id,
        viewer: userOf(m),
        text: m.text,
        filter: { id: f.id, name: f.name, type: f.type },
        reason: hit.reason,
        plan,
        message: f.message,
        now: input.now,
      };
      out.effect({ kind: FILTER_EFFECT, channelId: m.channel_id, payload });
    },
  };
}

export function createCommandStage(
  state: Pick<ChatbotState, 'get'>,
  builtins: BuiltinRegistry,
  random: () => number = Math.random,
): ChatStage {
  return {
    name: 'chatbot.commands',
    phase: 'command',
    onMessage(input: StageMessage, out: StageOutput): void {
      if (input.isSelf) return;
      const m = input.message;
      const bot = state.get(m.channel_id);
      if (!bot) return;
      bot.sawChat(m.author.display_name);
      const hit = bot.matcher.match(m.text);
      if (!hit) return;
      const def = hit.command.def;
      const info = providers[m.provider];
      if (!info.chatWrite) return;
      if (def.platforms.length > 0 && !def.platforms.includes(m.provider)) return;
      const level = bot.levelOf(input.audience, m.provider, m.author.provider_user_id);
      if (level < def.level) return;
      const builtin = def.builtin ? builtins.get(def.builtin) : undefined;
      if (def.builtin && !builtin) return;
      if (!builtin && def.responses.length === 0) return;
      if (!bot.cooldowns.take(def, `${m.provider}:${m.author.provider_user_id}`, input.now)) return;
      const user = userOf(m);
      let response: string | null = null;
      let matched: unknown = null;
      if (builtin) {
        matched = builtin.onMatch?.(stageContext(bot, m, user, level, hit.input, input.now)) ?? null;
      } else {
        const turn = bot.turns.get(def.id) ?? 0;
        response = def.responses[pickResponse(def.responses.length, def.responseMode, turn, random)] ?? null;
        if (def.responseMode === 'in_turn') bot.turns.set(def.id, turn + 1);
      }
      const payload: ReplyPayload = {
        channelProviderId: m.channel_provider_id,
        provider: m.provider,
        providerMessageId: m.provider_message_id,
        user,
        level,
        subscriber: m.author.roles.subscriber || m.author.roles.member,
        commandId: def.id,
        builtin: def.builtin,
        matched,
        response,
        args: hit.input.args,
        query: hit.input.query,
        replyMode: def.replyMode,
        now: input.now,
      };
      out.effect({ kind: REPLY_EFFECT, channelId: m.channel_id, payload });
    },
  };
}

function stageContext(
  bot: ChannelBot,
  m: StageMessage['message'],
  user: ReplyUser,
  level: number,
  input: { args: string[]; query: string },
  now: number,
) {
  return {
    channelId: m.channel_id,
    channelProviderId: m.channel_provider_id,
    provider: m.provider,
    user,
    level,
    subscriber: m.author.roles.subscriber || m.author.roles.member,
    args: input.args,
    query: input.query,
    maxLength: providers[m.provider].chatMessageMaxLength ?? 500,
    now,
    permit: (permitKey: string, until: number) => bot.filters.permit(permitKey, until),
    commandsFor: (callerLevel: number, provider: ChannelProviderId) =>
      bot.matcher.commands
        .filter((c) => c.def.level <= callerLevel && (c.def.platforms.length === 0 || c.def.platforms.includes(provider)))
        .map((c) => ({ name: c.def.name, level: c.def.level })),
  };
}
