/**
 * Stages of the chat pipeline: per-channel steps that run exactly once per accepted message, on the
 * instance that holds the channel, in this order:
 *
 *   normalise → dedupe → moderation stages → command stages → persist (group commit) → publish
 *
 * A stage is synchronous and does no I/O: it reads in-memory state (a channel's compiled filters and
 * command matcher, cooldowns) and decides. Whatever needs I/O — sending a reply, deleting or timing out
 * on the platform, changing points, counting a command use — is an effect: stored in the same
 * transaction as the message it came from (an outbox), and run after the commit by the handler
 * registered for its kind. A message that is re-delivered after a crash is a duplicate by id, so its
 * stages never run twice; an effect that was stored runs once, also across restarts.
 *
 * A stage that throws is isolated: the error is logged with the stage's name and counted, the stage's
 * output for that message is discarded, and the message flows on.
 *
 * Registering: a feature adds its stages and effect handlers when it is constructed —
 * `pipeline.addStage(stage)` and `pipeline.addEffectHandler(handler)` (services.ts builds the
 * pipeline first). Stages run in registration order within their phase.
 *
 * The runner (pipeline/ingest.ts, pipeline/stage-runner.ts, pipeline/outbox.ts):
 * - every stage sees every accepted message of every channel, Greenroom's own ones too
 *   (`isSelf`): a stage that answers or counts must skip those;
 * - a message a moderation stage filtered is stored marked and published to staff only; later
 *   moderation stages and all command stages do not see it (its effects, e.g. deleting it on the
 *   platform, are kept);
 * - effects are stored only with a message that was stored now: a message replayed after a crash
 *   (a duplicate by id) is not published again and its effects are not stored again;
 * - an effect is claimed before its handler runs. A handler that throws says the effect did NOT
 *   happen: it is retried with backoff (1 s, 2 s, 4 s … up to `maxAttempts`, default 5), unless it
 *   throws `EffectRefused` (it can never happen): then it is failed at once with that reason. If the
 *   process dies after the claim (or the run outlives `timeoutMs`), the outcome is unknown: the
 *   effect runs again only when its handler sets `idempotent: true`; otherwise it is marked
 *   interrupted and never run again (a bot reply is never sent twice).
 */
import type { AccessLevelValue } from '@greenroom/contracts/access';
import type { Activity, ChatMessage } from '@greenroom/contracts/api/events';

/** What a stage sees of one accepted chat message. */
export interface StageMessage {
  readonly message: ChatMessage;
  /**
   * The author's audience level in this channel, from the platform's roles: Public 0, Sub 1 (subscriber or
   * member), VIP 2, Mod 7, Owner 500 (the broadcaster). Staff roles in Greenroom do not change it.
   */
  readonly audience: AccessLevelValue;
  /** Written by Greenroom itself (the channel's bot, the system bot, or a message sent from Greenroom): never answer it. */
  readonly isSelf: boolean;
  /** Ingest time in ms since the epoch: stages use it for cooldowns and windows, never the wall clock. */
  readonly now: number;
}

/** An effect to run after the message (or activity) is committed. The payload is JSON. */
export interface PipelineEffect {
  /** The registered handler's kind, e.g. `chatbot.reply`, `chatbot.filter-action`, `points.earn`. */
  readonly kind: string;
  readonly channelId: string;
  readonly payload: unknown;
}

/** What a stage may do with a message. */
export interface StageOutput {
  /**
   * Moderation stages: the message is filtered — stored marked with the reason, shown to staff as
   * removed by the filter and never to the public; command stages do not see it.
   */
  filter(verdict: { stage: string; reason: string }): void;
  /** Stores an effect with the message; it runs after the commit, exactly once. */
  effect(effect: PipelineEffect): void;
}

export interface ChatStage {
  readonly name: string;
  readonly phase: 'moderation' | 'command';
  /** Called for every accepted chat message of every channel (stages keep per-channel state themselves). */
  onMessage(input: StageMessage, out: StageOutput): void;
  /** Called for every accepted activity (follow, sub, raid …); only `effect` is meaningful here. */
  onActivity?(activity: Activity, now: number, out: Pick<StageOutput, 'effect'>): void;
}

/**
 * Thrown by an effect handler when the effect cannot happen, now or later (no account may send on that platform, the
 * platform has no such action, it refused the input): the outbox marks the effect `failed` at once, with this message
 * as its recorded reason, instead of retrying it.
 */
export class EffectRefused extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EffectRefused';
  }
}

/**
 * Runs the stored effects of one kind after commit. A failure is retried with backoff (an `EffectRefused` is failed at
 * once); it never blocks chat.
 */
export interface EffectHandler {
  readonly kind: string;
  run(effect: PipelineEffect & { id: string }): Promise<void>;
  /** Running it twice does no harm (a deletion, setting a value): it is run again after a crash or timeout. Default false. */
  readonly idempotent?: boolean;
  /** Attempts before it is marked failed (default 5). */
  readonly maxAttempts?: number;
  /** A run still going after this long counts as interrupted (default 30 s). */
  readonly timeoutMs?: number;
  /**
   * Database-only effects (a points credit): applied set-based INSIDE the statement that stores
   * their messages (or activities), instead of being stored in the outbox and run after the commit.
   * The store puts the batch's effects of this kind whose message or activity that statement stored
   * now in a relation named `source` (columns `id` text, `channel_id` text, `payload` jsonb, `ord`:
   * the batch's order); this returns the CTEs that apply them (`name AS (…), …`, SQL text that
   * depends on `source` only; names unique to the handler). Exactly once by construction: they
   * commit or roll back with their message, and a message stored before (a redelivery, a replay
   * after a crash, an earlier attempt whose COMMIT outcome was unknown) is not in `source`. They
   * must only write the database. If the batch fails on its data, it is written again with these
   * effects stored in the outbox instead, where `run` applies them (so `run` stays required, and
   * also runs rows stored by older versions).
   */
  applyInStatement?(source: string): string;
}
