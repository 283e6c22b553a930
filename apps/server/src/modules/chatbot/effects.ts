/**
 * The chatbot's effect handlers, run once after the message that caused them is committed:
 *
 * - `chatbot.reply`: runs the built-in or renders the chosen response (async variables included) —
 *   once per effect: what it changes and the reply it produced are stored with the effect's id
 *   (reply-outcomes.ts), so a retry sends the stored reply and changes nothing again — applies the reply mode (a threaded reply where the platform has them, else a mention) and sends it
 *   as the bot on the platform where the command was typed, within the platform's message length.
 *   A reply that can never be sent (a read-only platform, no bot account and no system bot there, a
 *   refusal by the platform) fails at once with the reason recorded on the effect; only a temporary
 *   failure (the platform unreachable, a rate limit) is retried.
 * - `chatbot.filter`: does the planned platform action, writes the filter log (what, why, what the
 *   platform allowed, and whether the message could be said), shows the action on staff chat and
 *   says the filter's message. It never throws after the platform action: a retry would repeat it.
 */
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { AppError } from '../../lib/errors';
import { PlatformError } from '../../platforms/platform-error';
import { EffectRefused, type EffectHandler, type PipelineEffect } from '../../pipeline/stage';
import type { BuiltinRegistry } from './builtins';
import { platformErrorMessage, type ChatbotPlatform } from './chatbot-platform';
import type { ChatbotState } from './chatbot-state';
import { parseTemplate, renderTemplateAsync, type VariableResolver } from './domain/template';
import { resolveVariable, type ReplyContext, type ReplyUser } from './domain/variables';
import type { FilterService } from './filter-service';
import type { ReplyOutcomes } from './reply-outcomes';
import { FILTER_EFFECT, REPLY_EFFECT, type FilterPayload, type ReplyPayload } from './stages';

export interface ChatbotEffectDeps {
  state: ChatbotState;
  builtins: BuiltinRegistry;
  /** The outcome of each reply effect (its side effect once, its reply reused on a retry). */
  outcomes: ReplyOutcomes;
  filters: Pick<FilterService, 'log'>;
  platform: ChatbotPlatform;
  urlfetch: (url: string) => Promise<string>;
  random?: () => number;
  /** A command was answered (once per reply effect; a retried reply passes the same effect id). */
  onCommandUsed?: (use: {
    effectId: string;
    channelId: string;
    channelProviderId: string;
    provider: ChannelProviderId;
    commandId: string;
    at: Date;
  }) => void;
  log: { warn(obj: object, msg?: string): void };
}

/** Cuts a message to the platform's limit (in characters), with an ellipsis. */
export function fitMessage(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Whether trying again cannot make a platform call succeed: Greenroom or the platform refused it, for good. */
export function isPermanentFailure(error: unknown): boolean {
  if (error instanceof PlatformError) return error.code !== 'temporary' && error.code !== 'rate_limited';
  if (error instanceof AppError) return error.status < 500 && error.status !== 429;
  return false;
}

/** Sends as the bot; a send that can never succeed becomes an `EffectRefused` with the reason. */
async function sendOrRefuse(
  deps: ChatbotEffectDeps,
  provider: ChannelProviderId,
  channelProviderId: string,
  input: { text: string; replyTo?: string },
) {
  try {
    await deps.platform.send(channelProviderId, input);
  } catch (error) {
    if (!isPermanentFailure(error)) throw error;
    throw new EffectRefused(`Not sent on ${providers[provider].name}: ${platformErrorMessage(provider, error)}`, { cause: error });
  }
}

/** The rendering context of a reply: the payload, the channel's live state, and the async services. */
export async function replyContext(
  deps: ChatbotEffectDeps,
  channelId: string,
  p: { channelProviderId: string; provider: ReplyPayload['provider']; user: ReplyUser; args: string[]; query: string; now: number },
  count?: () => Promise<number>,
): Promise<ReplyContext> {
  const bot = deps.state.get(channelId);
  const connection = (await deps.platform.connections(channelId)).find((c) => c.id === p.channelProviderId);
  let info: Promise<{ title: string | null; category: string | null }> | null = null;
  return {
    user: p.user,
    args: p.args,
    query: p.query,
    platform: p.provider,
    channelName: connection?.name ?? '',
    now: p.now,
    stream:
      bot?.streams.get(p.channelProviderId) ??
      (connection ? { isLive: connection.isLive, startedAt: null, title: null, category: null, viewers: null } : null),
    chatters: () => bot?.chatters() ?? [],
    random: deps.random ?? Math.random,
    ...(count ? { count } : {}),
    ...(deps.platform.followerCount ? { followers: () => deps.platform.followerCount!(p.channelProviderId) } : {}),
    urlfetch: deps.urlfetch,
    streamInfo: () => (info ??= deps.platform.streamInfo(p.channelProviderId)),
  };
}

export function createReplyHandler(deps: ChatbotEffectDeps): EffectHandler {
  return {
    kind: REPLY_EFFECT,
    async run(effect: PipelineEffect & { id: string }): Promise<void> {
      const p = effect.payload as ReplyPayload;
      const info = providers[p.provider];
      if (!info.chatWrite) throw new EffectRefused(`${info.name} chat is read-only: Greenroom cannot answer there.`);
      const max = info.chatMessageMaxLength ?? 500;
      const key = { effectId: effect.id, channelId: effect.channelId, commandId: p.commandId };
      // A retry (the send failed for a moment) sends what the first run produced and changes nothing again.
      const stored = await deps.outcomes.find(effect.id);
      let text: string | null;
      if (stored?.rendered) text = stored.reply;
      else {
        if (!stored)
          deps.onCommandUsed?.({
            effectId: effect.id,
            channelId: effect.channelId,
            channelProviderId: p.channelProviderId,
            provider: p.provider,
            commandId: p.commandId,
            at: new Date(p.now),
          });
        if (p.builtin) {
          const builtin = deps.builtins.get(p.builtin);
          if (!builtin) return;
          text = await builtin.run(
            {
              channelId: effect.channelId,
              channelProviderId: p.channelProviderId,
              provider: p.provider,
              user: p.user,
              level: p.level,
              subscriber: p.subscriber === true,
              effectId: effect.id,
              args: p.args,
              query: p.query,
              maxLength: max,
              now: p.now,
              once: (apply) => deps.outcomes.once(key, apply),
            },
            p.matched,
          );
          // The use count moves here once (or already moved with `once`'s side effect).
          await deps.outcomes.record(key, text);
        } else {
          if (p.response === null) return;
          // One atomic increment per use, whether or not the response shows $(count); a retry reuses it.
          const counted = stored?.count ?? (await deps.outcomes.takeCount(key));
          const ctx = await replyContext(deps, effect.channelId, p, () => Promise.resolve(counted));
          text = await renderTemplateAsync(parseTemplate(p.response), resolveVariable, ctx);
          await deps.outcomes.saveReply(key, text);
        }
      }
      text = text?.trim() ?? '';
      if (!text) return;
      let replyTo: string | undefined;
      if (p.replyMode === 'reply' && info.chatReplyMessage) replyTo = p.providerMessageId;
      else if (p.replyMode === 'mention' || p.replyMode === 'reply') text = `@${p.user.displayName} ${text}`;
      await sendOrRefuse(deps, p.provider, p.channelProviderId, { text: fitMessage(text, max), ...(replyTo ? { replyTo } : {}) });
    },
  };
}

export function createFilterHandler(deps: ChatbotEffectDeps): EffectHandler {
  return {
    kind: FILTER_EFFECT,
    async run(effect: PipelineEffect & { id: string }): Promise<void> {
      const p = effect.payload as FilterPayload;
      const { plan } = p;
      let ok = plan.action !== null;
      let note = plan.note;
      try {
        if (plan.action === 'delete') await deps.platform.deleteMessage(p.channelProviderId, p.providerMessageId);
        else if (plan.action === 'timeout' || plan.action === 'ban') {
          const reason = `${p.filter.name}: ${p.reason}`;
          const withReason = providers[p.provider].banReason;
          const max = providers[p.provider].banReasonMaxLength;
          await deps.platform.ban(p.channelProviderId, {
            providerViewerId: p.viewer.providerUserId,
            ...(plan.action === 'timeout' && plan.durationSeconds !== null ? { durationSeconds: plan.durationSeconds } : {}),
            ...(withReason ? { reason: max !== null ? fitMessage(reason, max) : reason } : {}),
          });
        }
      } catch (error) {
        ok = false;
        note = [note, `failed: ${platformErrorMessage(p.provider, error)}`].filter(Boolean).join('; ');
      }
      const said = await sayFilterMessage(deps, effect.channelId, p).then(
        () => null,
        (error: unknown) => `message not sent: ${platformErrorMessage(p.provider, error)}`,
      );
      await deps.filters.log({
        channelId: effect.channelId,
        effectId: effect.id,
        filterId: p.filter.id,
        filterName: p.filter.name,
        filterType: p.filter.type,
        provider: p.provider,
        channelProviderId: p.channelProviderId,
        viewerId: p.viewer.providerUserId,
        viewerName: p.viewer.displayName,
        messageText: p.text,
        reason: p.reason,
        requested: plan.requested,
        action: plan.action,
        durationSeconds: plan.durationSeconds,
        note: [note, said].filter(Boolean).join('; ') || null,
        ok,
      });
      if (ok && plan.action) {
        deps.platform.announceModeration?.(p.channelProviderId, {
          kind: plan.action,
          target: { provider_user_id: p.viewer.providerUserId, display_name: p.viewer.displayName },
          provider_message_id: plan.action === 'delete' ? p.providerMessageId : null,
          duration_seconds: plan.action === 'timeout' ? plan.durationSeconds : null,
          reason: `${p.filter.name}: ${p.reason}`,
          moderator: { kind: 'bot', user_id: null, display_name: 'Chatbot' },
          source: 'greenroom',
          occurred_at: new Date().toISOString(),
        });
      }
    },
  };
}

/** Says the filter's chat message (with its variables) where the platform has chat write; nothing when it is empty. */
async function sayFilterMessage(deps: ChatbotEffectDeps, channelId: string, p: FilterPayload): Promise<void> {
  if (!p.message.trim() || !providers[p.provider].chatWrite) return;
  const ctx = await replyContext(deps, channelId, {
    channelProviderId: p.channelProviderId,
    provider: p.provider,
    user: p.viewer,
    args: [],
    query: '',
    now: p.now,
  });
  const extra: VariableResolver<ReplyContext> = (call) => {
    if (call.name === 'reason') return p.reason;
    if (call.name === 'filter') return p.filter.name;
    return resolveVariable(call);
  };
  let text = (await renderTemplateAsync(parseTemplate(p.message), extra, ctx)).trim();
  if (!text) return;
  if (p.plan.requested === 'warn') text = `${text} (warning)`;
  await deps.platform.send(p.channelProviderId, { text: fitMessage(text, providers[p.provider].chatMessageMaxLength ?? 500) });
}
