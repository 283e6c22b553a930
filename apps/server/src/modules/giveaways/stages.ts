/**
 * The giveaways' chat stage and effect handlers.
 *
 * - `giveaways.chat` (command phase): a line starting with the open giveaway's keyword from an
 *   eligible viewer (level, platform) is an entry (`giveaway.enter`, with the tickets asked for);
 *   a line from a drawn winner on any of their linked platforms is kept and may claim the win
 *   (`giveaway.winner-chat`). Decided in memory; the work is the effects.
 * - Both handlers are idempotent: an entry pays under the effect's id, a claim is a conditional update.
 */
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { ChatStage, EffectHandler, PipelineEffect, StageMessage, StageOutput } from '../../pipeline/stage';
import type { GiveawayService } from './giveaway-service';
import type { GiveawayState } from './giveaway-state';

export const ENTER_EFFECT = 'giveaway.enter';
export const WINNER_CHAT_EFFECT = 'giveaway.winner-chat';

export interface EnterPayload {
  giveawayId: string;
  channelProviderId: string;
  provider: ChannelProviderId;
  provider_user_id: string;
  login: string;
  display_name: string;
  subscriber: boolean;
  tickets: number;
}

export interface WinnerChatPayload {
  giveawayId: string;
  winnerId: string;
  provider: ChannelProviderId;
  text: string;
  at: string;
}

/** The tickets asked for after the keyword: a number, `max`/`all`, else 1. */
export function ticketsAsked(rest: string | undefined, max: number): number {
  const word = (rest ?? '').trim().toLowerCase();
  if (word === 'max' || word === 'all') return max;
  const n = /^\d{1,6}$/u.test(word) ? Number(word) : 1;
  return Math.max(1, Math.min(n, max));
}

export function createGiveawayStage(
  state: Pick<GiveawayState, 'get'>,
  isBot: (channelId: string, m: StageMessage['message']) => boolean,
): ChatStage {
  return {
    name: 'giveaways.chat',
    phase: 'command',
    onMessage(input: StageMessage, out: StageOutput): void {
      if (input.isSelf) return;
      const m = input.message;
      const c = state.get(m.channel_id);
      if (!c) return;
      for (const w of c.watching(`${m.provider}:${m.author.provider_user_id}`, input.now)) {
        const payload: WinnerChatPayload = {
          giveawayId: w.giveawayId,
          winnerId: w.winnerId,
          provider: m.provider,
          text: m.text.slice(0, 500),
          at: new Date(input.now).toISOString(),
        };
        out.effect({ kind: WINNER_CHAT_EFFECT, channelId: m.channel_id, payload });
      }
      const g = c.open;
      if (!g || (g.closesAt !== null && input.now >= g.closesAt)) return;
      const text = m.text.trimStart();
      const space = text.search(/\s/u);
      const word = (space < 0 ? text : text.slice(0, space)).toLowerCase();
      if (word !== g.keyword) return;
      if (input.audience < g.minLevel) return;
      if (g.platforms.length > 0 && !g.platforms.includes(m.provider)) return;
      if (isBot(m.channel_id, m)) return;
      const payload: EnterPayload = {
        giveawayId: g.id,
        channelProviderId: m.channel_provider_id,
        provider: m.provider,
        provider_user_id: m.author.provider_user_id,
        login: m.author.login,
        display_name: m.author.display_name,
        subscriber: m.author.roles.subscriber || m.author.roles.member,
        tickets: g.entryMode === 'tickets' ? ticketsAsked(space < 0 ? '' : text.slice(space).trim().split(/\s+/u)[0], g.maxTickets) : 1,
      };
      out.effect({ kind: ENTER_EFFECT, channelId: m.channel_id, payload });
    },
  };
}

type IdempotentHandler = EffectHandler & { readonly idempotent: boolean };

export function createGiveawayHandlers(service: Pick<GiveawayService, 'enterFromChat' | 'winnerChat'>): IdempotentHandler[] {
  return [
    {
      kind: ENTER_EFFECT,
      idempotent: true,
      run: (effect: PipelineEffect & { id: string }) => service.enterFromChat(effect.channelId, effect.payload as EnterPayload, effect.id),
    },
    {
      kind: WINNER_CHAT_EFFECT,
      idempotent: true,
      run: (effect: PipelineEffect & { id: string }) => service.winnerChat(effect.channelId, effect.payload as WinnerChatPayload),
    },
  ];
}
