/**
 * The points module's chat pipeline stage and effect handler.
 *
 * - `points.earn` (command phase): a chat message earns its author the per-message points within
 *   the per-minute cap (times the sub multiplier) and marks them as an active chatter; an activity
 *   (follow, sub, cheer, Super Chat, Kicks, TikTok gift …) earns its viewer the activity's points.
 *   Bots and Greenroom's own messages earn nothing. Decided in memory; the credit is an effect.
 * - The `points.earn` effect is credited in the statement that stores the chat messages (and
 *   activities) that earned it, set-based for the batch (`applyInStatement`); one held in the outbox
 *   goes through the batcher. Its ledger key is in the payload (a message's: viewer, minute and slot of the per-minute cap,
 *   so the database enforces the cap across restarts and instances) or is the effect id (an
 *   activity's), so running it again (after a crash) credits nothing twice.
 */
import type { Activity } from '@greenroom/contracts/api/events';
import type { LedgerKind } from '@greenroom/contracts/api/points';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { ChatStage, EffectHandler, PipelineEffect, StageMessage, StageOutput } from '../../pipeline/stage';
import { activityPoints, identityKey, messageEarnKey, withSubMultiplier } from './domain/earning';
import type { EarnBatcher } from './earn-batcher';
import { earnCtes, type EarnEntry } from './points-repository';
import type { PointsState } from './points-state';

export const EARN_EFFECT = 'points.earn';

export interface EarnPayload {
  provider: ChannelProviderId;
  provider_user_id: string;
  login: string;
  display_name: string;
  amount: number;
  kind: LedgerKind;
  /** The ledger key (a message's cap slot); the effect id when absent. */
  key?: string;
}

export function createPointsStage(state: Pick<PointsState, 'get'>): ChatStage {
  return {
    name: 'points.earn',
    phase: 'command',
    onMessage(input: StageMessage, out: StageOutput): void {
      if (input.isSelf) return;
      const m = input.message;
      const c = state.get(m.channel_id);
      const s = c.settings;
      if (!s.enabled) return;
      const a = m.author;
      if (c.bots.isBot(m.provider, a.provider_user_id, a.login)) return;
      const subscriber = a.roles.subscriber || a.roles.member;
      c.recent.saw({
        provider: m.provider,
        providerUserId: a.provider_user_id,
        login: a.login,
        displayName: a.display_name,
        subscriber,
        lastAt: input.now,
      });
      const viewer = identityKey(m.provider, a.provider_user_id);
      const earned = c.messages.earn(viewer, input.now, s);
      const amount = withSubMultiplier(earned.amount, subscriber, s);
      if (amount <= 0) return;
      const payload: EarnPayload = {
        provider: m.provider,
        provider_user_id: a.provider_user_id,
        login: a.login,
        display_name: a.display_name,
        amount,
        kind: 'chat',
        key: messageEarnKey(viewer, earned.minute, earned.slot),
      };
      out.effect({ kind: EARN_EFFECT, channelId: m.channel_id, payload });
    },
    onActivity(activity: Activity, _now: number, out: Pick<StageOutput, 'effect'>): void {
      const c = state.get(activity.channel_id);
      const s = c.settings;
      const v = activity.viewer;
      if (!s.enabled || !v || c.bots.isBot(activity.provider, v.provider_user_id, v.login)) return;
      const earned = activityPoints(activity, s);
      if (!earned) return;
      const payload: EarnPayload = {
        provider: activity.provider,
        provider_user_id: v.provider_user_id,
        login: v.login,
        display_name: v.display_name,
        amount: earned.amount,
        kind: earned.kind,
      };
      out.effect({ kind: EARN_EFFECT, channelId: activity.channel_id, payload });
    },
  };
}

/**
 * The credit a `points.earn` effect asks for: its ledger key is the payload's (a message's cap slot)
 * or the effect id (an activity's). What the effect handler hands to the batcher; `EARN_INPUT` is
 * the same in SQL.
 */
export function earnEntryOf(effect: PipelineEffect & { id: string }): EarnEntry {
  const p = effect.payload as EarnPayload;
  return {
    channelId: effect.channelId,
    identity: { provider: p.provider, providerUserId: p.provider_user_id, login: p.login, displayName: p.display_name },
    amount: p.amount,
    kind: p.kind,
    key: p.key ?? effect.id,
  };
}

/** `earnEntryOf` in SQL: the entries `earnCtes` reads, of the effects in the relation `source` (`id`, `channel_id`, `payload`, `ord`). */
const earnInput = (source: string) => `earn_effects AS (
    SELECT e.channel_id, e.payload->>'provider' AS provider, e.payload->>'provider_user_id' AS provider_user_id,
      e.payload->>'login' AS login, e.payload->>'display_name' AS display_name, (e.payload->>'amount')::bigint AS amount,
      e.payload->>'kind' AS kind, coalesce(e.payload->>'key', e.id) AS key, e.ord
    FROM ${source} e
  )`;

/**
 * `points.earn`: credited set-based in the statement that stores the messages and activities that
 * earned it (the ledger rows and balances commit with them, see `earnCtes`); the batcher runs what
 * the outbox holds (a batch the database refused on its data, rows stored by an older version).
 * Idempotent: the ledger key is fixed in the payload or is the effect id.
 */
export function createEarnHandler(batcher: Pick<EarnBatcher, 'add'>): EffectHandler & { readonly idempotent: boolean } {
  return {
    kind: EARN_EFFECT,
    idempotent: true,
    run: (effect) => batcher.add(earnEntryOf(effect)),
    applyInStatement: (source) => `${earnInput(source)}, ${earnCtes('earn_effects')}`,
  };
}
