/**
 * The persist step of the pipeline: one group commit = one transaction holding every chat message,
 * activity, moderation event, gap, outbox effect and connection state patch of the batch, the viewer
 * counters of the messages it stored, and the effects applied in the statement that stores their
 * messages (points credits, see `EffectHandler.applyInStatement`). Messages with their viewer
 * counters and their in-statement effects, activities with theirs, and outbox effects each go in
 * ONE statement whatever the batch size (a batch of chat alone is that one statement, run without
 * BEGIN/COMMIT: a statement is atomic by itself):
 * the rows are sent as one JSON array and expanded by `json_to_recordset` (no per-row placeholders
 * or array literals). The JSON is one parameter (db/json-param.ts), and a statement always has the
 * same CTEs (every in-statement handler's and the outbox's, with an empty array when they have
 * nothing), so its text never changes: PGlite parses and plans it once (a named prepared statement,
 * db/pglite-batched.ts). Duplicates (a platform's redelivery, a restart replaying
 * what was already stored) are skipped by the unique indexes and reported, so they are never
 * published and their effects never stored twice.
 *
 * `isolate: true` (after a batch failed on its data) writes each message, activity and moderation
 * event behind its own savepoint: a row the database still refuses is reported in `rejected` and the
 * rest of the batch commits.
 *
 * `recover: true` (the batch is written again after a connection loss) also reports the rows that
 * were stored already, in `existing`: the connection may have died after the database committed the
 * earlier attempt and before the client heard so. Those rows are published like new ones (nobody saw
 * them yet); their effects were stored by the commit that stored them and are not stored again.
 *
 * An in-statement effect reaches its handler's CTEs only through a join with the rows the statement
 * stored now (`stored`, the `ON CONFLICT DO NOTHING … RETURNING` rows): a duplicate, or a row an
 * earlier attempt stored, passes none. The store knows nothing of what the handler does.
 */
import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Activity, ChatGap, ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { channelProviders, chatMessages, moderationEvents } from '../db/schema';
import { jsonParam } from '../db/json-param';
import { newId } from '../lib/ids';
import { activityColumns, activityRecord, messageColumns, messageRecord, moderationRow, recordsetColumns } from './chat-rows';
import type { EffectHandler, PipelineEffect } from './stage';

/** A ban/timeout/clear hides the target's messages of this recent window. */
export const REMOVE_WINDOW_MS = 24 * 60 * 60 * 1000;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface EffectDraft {
  effect: PipelineEffect;
  /** The message or activity the effect came from: stored only if that was stored now (not a duplicate). */
  sourceId: string | null;
}

export interface WriteBatch {
  messages: ChatMessage[];
  moderation: ModerationEvent[];
  activities: Activity[];
  gaps: ChatGap[];
  effects: EffectDraft[];
  /** Connection state patches (`channel_providers.state || patch`), e.g. YouTube's next page token. */
  states: { channelProviderId: string; patch: Record<string, unknown> }[];
}

export interface WriteResult {
  /** `${channelId}\0${id}` → seq of each message stored now. */
  messages: Map<string, number>;
  activities: Map<string, number>;
  /** `${channelId}\0${id}` of each moderation event stored now. */
  moderation: Set<string>;
  /** `${channelId}\0${id}` of what the database refused even alone (isolate mode only). */
  rejected: Set<string>;
  /** Keys in `messages`, `activities` or `moderation` found stored by an earlier attempt (recover mode only). */
  existing: Set<string>;
  effects: number;
}

export const rowKey = (channelId: string, id: string): string => `${channelId}\u0000${id}`;

const messageColumnList = messageColumns.filter(([c]) => c !== 'deleted').map(([c]) => `"${c}"`);
const messageHead = sql.raw(
  `WITH stored AS (
  INSERT INTO chat_messages (${messageColumnList.join(', ')}, deleted_at)
  SELECT ${messageColumnList.map((c) => `r.${c}`).join(', ')}, CASE WHEN r.deleted THEN now() END
  FROM json_to_recordset(`,
);
/**
 * The messages and, in the same statement, the viewer counters of the messages it stored (a
 * duplicate skipped by the unique indexes, or a row an earlier attempt stored, counts nothing): one
 * statement instead of two per batch. One row per viewer (ON CONFLICT cannot touch a row twice in a
 * statement): the latest name, colour, badges and roles of the batch (and the latest avatar given),
 * first and last seen, the count.
 */
const messageTail = sql.raw(`) AS r(${recordsetColumns(messageColumns)})
  ON CONFLICT DO NOTHING
  RETURNING seq, channel_id, id, provider, author_id, author_login, author_name, author_color, author_avatar_url,
    author_badges, author_roles, sent_at
), counted AS (
  INSERT INTO viewers (channel_id, provider, provider_user_id, login, display_name, color, avatar_url, badges, roles, first_seen_at, last_seen_at, message_count)
  SELECT channel_id, provider, author_id,
    (array_agg(author_login ORDER BY seq DESC))[1], (array_agg(author_name ORDER BY seq DESC))[1],
    (array_agg(author_color ORDER BY seq DESC))[1],
    (array_agg(author_avatar_url ORDER BY seq DESC) FILTER (WHERE author_avatar_url IS NOT NULL))[1],
    (array_agg(author_badges ORDER BY seq DESC))[1], (array_agg(author_roles ORDER BY seq DESC))[1],
    min(sent_at), max(sent_at), count(*)
  FROM stored GROUP BY channel_id, provider, author_id
  ON CONFLICT (channel_id, provider, provider_user_id) DO UPDATE SET
    login = excluded.login,
    display_name = excluded.display_name,
    color = excluded.color,
    avatar_url = coalesce(excluded.avatar_url, viewers.avatar_url),
    badges = excluded.badges,
    roles = excluded.roles,
    first_seen_at = least(viewers.first_seen_at, excluded.first_seen_at),
    last_seen_at = greatest(viewers.last_seen_at, excluded.last_seen_at),
    message_count = viewers.message_count + excluded.message_count
)`);
const storedRows = sql.raw(`
SELECT seq, channel_id, id FROM stored`);

/**
 * The effects of the rows in `stored` (the rows the statement stores now), as CTEs of that statement:
 * per in-statement handler, its effects (a JSON array of `{ id, channel_id, payload, source_id }`)
 * joined with `stored` as the relation it reads, then the handler's own CTEs; and the outbox rows
 * (`outbox`), likewise joined. Always all of them, an empty array for those without effects (one
 * statement text).
 */
function effectCtes(effects: StatementEffects): SQL {
  const parts: SQL[] = [];
  for (const [handler, records] of effects.inStatement) {
    parts.push(sql`, ${sql.raw(handler.source)} AS (
  SELECT e.id, e.channel_id, e.payload, e.ord
  FROM ROWS FROM (json_to_recordset(${jsonParam(records)}) AS (id text, channel_id text, payload jsonb, source_id text))
    WITH ORDINALITY AS e(id, channel_id, payload, source_id, ord)
  JOIN stored s ON s.channel_id = e.channel_id AND s.id = e.source_id
), ${sql.raw(handler.ctes)}`);
  }
  parts.push(sql`, outbox AS (
  INSERT INTO pipeline_effects (id, channel_id, kind, payload, source_id)
  SELECT e.id, e.channel_id, e.kind, e.payload, e.source_id
  FROM json_to_recordset(${jsonParam(effects.outbox)}) AS e(id text, channel_id text, kind text, payload jsonb, source_id text)
  JOIN stored s ON s.channel_id = e.channel_id AND s.id = e.source_id
)`);
  return sql.join(parts);
}

const messageInsert = (json: SQL, effects: SQL) => sql`${messageHead}${json}${messageTail}${effects}${storedRows}`;

const activityHead = sql.raw(
  `WITH stored AS (
  INSERT INTO activities (${activityColumns.map(([c]) => `"${c}"`).join(', ')})
  SELECT ${activityColumns.map(([c]) => `r."${c}"`).join(', ')} FROM json_to_recordset(`,
);
const activityTail = sql.raw(`) AS r(${recordsetColumns(activityColumns)})
  ON CONFLICT DO NOTHING
  RETURNING seq, channel_id, id
)`);
const activityInsert = (json: SQL, effects: SQL) => sql`${activityHead}${json}${activityTail}${effects}${storedRows}`;

/** The statement storing these messages (or activities) with the effects of those it stores now. */
const messagesWith = (effects: StatementEffects) => (part: ChatMessage[]) =>
  messageInsert(jsonParam(part.map(messageRecord)), effectCtes(effects));
const activitiesWith = (effects: StatementEffects) => (part: Activity[]) =>
  activityInsert(jsonParam(part.map(activityRecord)), effectCtes(effects));

/** Messages and activities of the batch already stored (by an earlier attempt whose outcome was unknown). */
const storedMessages = (json: SQL) => sql`
  SELECT m.seq, m.channel_id, m.id FROM json_to_recordset(${json}) AS r(channel_id text, provider text, provider_message_id text)
  JOIN chat_messages m ON m.channel_id = r.channel_id AND m.provider = r.provider AND m.provider_message_id = r.provider_message_id`;
const storedActivities = (json: SQL) => sql`
  SELECT a.seq, a.channel_id, a.id FROM json_to_recordset(${json}) AS r(channel_id text, id text)
  JOIN activities a ON a.channel_id = r.channel_id AND a.id = r.id`;

const effectInsert = (json: SQL) => sql`
  INSERT INTO pipeline_effects (id, channel_id, kind, payload, source_id)
  SELECT r.id, r.channel_id, r.kind, r.payload, r.source_id
  FROM json_to_recordset(${json}) AS r(id text, channel_id text, kind text, payload jsonb, source_id text)`;

const gapInsert = (json: SQL) => sql`
  INSERT INTO chat_gaps (id, channel_id, channel_provider_id, provider, reason, started_at, ended_at, lost)
  SELECT r.id, r.channel_id, r.channel_provider_id, r.provider, r.reason, r.started_at, r.ended_at, r.lost
  FROM json_to_recordset(${json}) AS r(id text, channel_id text, channel_provider_id text, provider text, reason text,
    started_at timestamptz, ended_at timestamptz, lost integer)
  ON CONFLICT (id) DO NOTHING`;

interface EffectRecord {
  id: string;
  channel_id: string;
  kind: string;
  payload: unknown;
  source_id: string | null;
}

/** The effects written by the statement that stores their source rows. */
interface StatementEffects {
  inStatement: Map<InStatement, EffectRecord[]>;
  outbox: EffectRecord[];
}

/** A handler of in-statement effects: the name of the relation it reads and its CTEs (built once). */
interface InStatement {
  source: string;
  ctes: string;
}

interface Returned {
  seq: number | string;
  channel_id: string;
  id: string;
}

/** What runs a statement: the database (a statement alone), a transaction or a savepoint. */
type Runner = Pick<Tx, 'execute' | 'transaction'>;

function effectRecord(d: EffectDraft): EffectRecord {
  return { id: newId(), channel_id: d.effect.channelId, kind: d.effect.kind, payload: d.effect.payload ?? null, source_id: d.sourceId };
}

async function rows<T>(tx: Pick<Tx, 'execute'>, query: SQL): Promise<T[]> {
  return rowsOf<T>(await tx.execute(query));
}

export class ChatLogStore {
  /** Effect kinds applied inside the statement that stores their message (see `EffectHandler.applyInStatement`). */
  private readonly inStatement = new Map<string, InStatement>();

  constructor(private readonly db: Db) {}

  /** Every in-statement handler with no effects: a statement always has the same CTEs, so the same text. */
  private noEffects(): StatementEffects {
    return { inStatement: new Map([...this.inStatement.values()].map((h) => [h, []])), outbox: [] };
  }

  /** Effects of this handler's kind are applied in the statement that stores their message, not stored in the outbox. */
  applyInStatement(handler: EffectHandler): void {
    if (!handler.applyInStatement) return;
    const source = `effects_${this.inStatement.size}`;
    this.inStatement.set(handler.kind, { source, ctes: handler.applyInStatement(source) });
  }

  /**
   * One transaction, a fixed number of statements whatever the batch size (isolate mode aside):
   * messages with the viewer counters, in-statement effects and outbox rows of those stored now,
   * activities with theirs, gaps, the other outbox rows, the connection states. Chat alone: the
   * messages statement, without a transaction around it.
   */
  async write(batch: WriteBatch, options: { isolate?: boolean; recover?: boolean } = {}): Promise<WriteResult> {
    const result: WriteResult = {
      messages: new Map(),
      activities: new Map(),
      moderation: new Set(),
      rejected: new Set(),
      existing: new Set(),
      effects: 0,
    };
    const isolate = options.isolate ?? false;
    const recover = options.recover ?? false;
    const { messages, activities, apart } = this.routeEffects(batch, isolate);
    // A batch whose whole write is the messages statement (chat alone, with its effects) runs alone: one statement is
    // atomic by itself, so no BEGIN and COMMIT — one call into PGlite's thread (or one round trip) a batch.
    const alone =
      !isolate &&
      !recover &&
      batch.activities.length === 0 &&
      batch.moderation.length === 0 &&
      batch.gaps.length === 0 &&
      batch.states.length === 0 &&
      apart.length === 0;
    if (alone && batch.messages.length) {
      await this.insertRows(this.db, batch.messages, messagesWith(messages), result.messages, result);
      result.effects = this.storedOutbox(messages, result);
      return result;
    }
    await this.db.transaction(async (tx) => {
      if (batch.messages.length) await this.insertRows(tx, batch.messages, messagesWith(messages), result.messages, result, isolate);
      if (batch.activities.length)
        await this.insertRows(tx, batch.activities, activitiesWith(activities), result.activities, result, isolate);
      if (batch.moderation.length) await this.applyModeration(tx, batch.moderation, result, isolate, recover);
      if (recover) await this.findStored(tx, batch, result);
      if (batch.gaps.length) await tx.execute(gapInsert(jsonParam(batch.gaps)));
      result.effects = this.storedOutbox(messages, result) + this.storedOutbox(activities, result);
      const records: EffectRecord[] = [];
      for (const d of apart) {
        if (d.sourceId !== null) {
          const key = rowKey(d.effect.channelId, d.sourceId);
          if (!(result.messages.has(key) || result.activities.has(key)) || result.existing.has(key)) continue;
        }
        records.push(effectRecord(d));
      }
      if (records.length) {
        await tx.execute(effectInsert(jsonParam(records)));
        result.effects += records.length;
      }
      for (const { channelProviderId, patch } of mergeStates(batch.states)) {
        await tx
          .update(channelProviders)
          .set({ state: sql`${channelProviders.state} || ${JSON.stringify(patch)}::jsonb` })
          .where(eq(channelProviders.id, channelProviderId));
      }
    });
    return result;
  }

  /**
   * Where each effect of the batch is written: in the statement that stores its source message or
   * activity (an in-statement handler's CTEs, or the outbox rows), or `apart` (no source in the batch,
   * or isolate mode: then every effect goes to the outbox, written after the rows by their own
   * statement, so a credit the database refuses cannot hold its messages back; the outbox runs it and
   * retries it).
   */
  private routeEffects(
    batch: WriteBatch,
    isolate: boolean,
  ): { messages: StatementEffects; activities: StatementEffects; apart: EffectDraft[] } {
    const messages = this.noEffects();
    const activities = this.noEffects();
    if (isolate) return { messages, activities, apart: batch.effects };
    const apart: EffectDraft[] = [];
    const messageKeys = new Set(batch.messages.map((m) => rowKey(m.channel_id, m.id)));
    const activityKeys = new Set(batch.activities.map((a) => rowKey(a.channel_id, a.id)));
    for (const d of batch.effects) {
      const key = d.sourceId === null ? null : rowKey(d.effect.channelId, d.sourceId);
      const into = key === null ? undefined : messageKeys.has(key) ? messages : activityKeys.has(key) ? activities : undefined;
      if (!into) {
        apart.push(d);
        continue;
      }
      const handler = this.inStatement.get(d.effect.kind);
      if (!handler) into.outbox.push(effectRecord(d));
      else {
        // Every handler has its list (`noEffects`).
        into.inStatement.get(handler)!.push(effectRecord(d));
      }
    }
    return { messages, activities, apart };
  }

  /** How many of these outbox rows the statement stored (those of rows it stored now). */
  private storedOutbox(effects: StatementEffects, result: WriteResult): number {
    let n = 0;
    for (const e of effects.outbox) {
      const key = rowKey(e.channel_id, e.source_id!);
      if ((result.messages.has(key) || result.activities.has(key)) && !result.existing.has(key)) n++;
    }
    return n;
  }

  /** Recover mode: the batch's messages and activities not inserted now because an earlier attempt stored them. */
  private async findStored(tx: Tx, batch: WriteBatch, result: WriteResult): Promise<void> {
    const missing = (key: string, map: Map<string, number>) => !map.has(key) && !result.rejected.has(key);
    const messages = batch.messages.filter((m) => missing(rowKey(m.channel_id, m.id), result.messages));
    if (messages.length) {
      const keys = messages.map((m) => ({ channel_id: m.channel_id, provider: m.provider, provider_message_id: m.provider_message_id }));
      for (const r of await rows<Returned>(tx, storedMessages(jsonParam(keys)))) {
        const key = rowKey(r.channel_id, r.id);
        result.messages.set(key, Number(r.seq));
        result.existing.add(key);
      }
    }
    const acts = batch.activities.filter((a) => missing(rowKey(a.channel_id, a.id), result.activities));
    if (acts.length) {
      const keys = acts.map((a) => ({ channel_id: a.channel_id, id: a.id }));
      for (const r of await rows<Returned>(tx, storedActivities(jsonParam(keys)))) {
        const key = rowKey(r.channel_id, r.id);
        result.activities.set(key, Number(r.seq));
        result.existing.add(key);
      }
    }
  }

  /**
   * Messages or activities in one statement (`statement` writes the rows given, with their effects); `stored` gets the
   * seq of each row stored now. Isolate mode: each row behind its own savepoint, a row the database refuses left out.
   */
  private async insertRows<T extends { channel_id: string; id: string }>(
    tx: Runner,
    items: T[],
    statement: (part: T[]) => SQL,
    stored: Map<string, number>,
    result: WriteResult,
    isolate = false,
  ): Promise<void> {
    const insert = async (part: T[], on: Runner) => {
      for (const r of await rows<Returned>(on, statement(part))) stored.set(rowKey(r.channel_id, r.id), Number(r.seq));
    };
    if (!isolate) return insert(items, tx);
    for (const item of items) {
      try {
        await tx.transaction((sp) => insert([item], sp));
      } catch {
        result.rejected.add(rowKey(item.channel_id, item.id));
      }
    }
  }

  private async applyModeration(tx: Tx, events: ModerationEvent[], result: WriteResult, isolate: boolean, recover: boolean): Promise<void> {
    for (const e of events) {
      const apply = async (on: Tx) => {
        const key = rowKey(e.channel_id, e.id);
        if (await this.applyOne(on, e)) result.moderation.add(key);
        else if (recover) {
          // Stored (and applied) by an earlier attempt: published now, as nobody saw it yet.
          result.moderation.add(key);
          result.existing.add(key);
        }
      };
      if (!isolate) await apply(tx);
      else {
        try {
          await tx.transaction((sp) => apply(sp));
        } catch {
          result.rejected.add(rowKey(e.channel_id, e.id));
        }
      }
    }
  }

  /** Stores one moderation event and marks the messages it removes; false when it was stored before. */
  private async applyOne(tx: Tx, e: ModerationEvent): Promise<boolean> {
    const row = moderationRow(e);
    // A message deletion names the message only: attribute it to its author (viewer card history).
    if (row.kind === 'delete' && !row.targetId && row.providerMessageId) {
      const [author] = await tx
        .select({ id: chatMessages.authorId, name: chatMessages.authorName })
        .from(chatMessages)
        .where(
          and(
            eq(chatMessages.channelId, row.channelId),
            eq(chatMessages.provider, row.provider),
            eq(chatMessages.providerMessageId, row.providerMessageId),
          ),
        )
        .limit(1);
      if (author) {
        row.targetId = author.id;
        row.targetName = author.name;
      }
    }
    const inserted = await tx.insert(moderationEvents).values(row).onConflictDoNothing().returning({ id: moderationEvents.id });
    if (inserted.length === 0) return false;
    const now = new Date();
    const base = and(eq(chatMessages.channelId, e.channel_id), eq(chatMessages.provider, e.provider), isNull(chatMessages.deletedAt));
    switch (e.kind) {
      case 'delete':
        if (e.provider_message_id)
          await tx
            .update(chatMessages)
            .set({ deletedAt: now })
            .where(and(base, eq(chatMessages.providerMessageId, e.provider_message_id)));
        break;
      case 'ban':
      case 'timeout':
        if (e.target) {
          const since = new Date(new Date(e.occurred_at).getTime() - REMOVE_WINDOW_MS);
          await tx
            .update(chatMessages)
            .set({ deletedAt: now })
            .where(and(base, eq(chatMessages.authorId, e.target.provider_user_id), gt(chatMessages.sentAt, since)));
        }
        break;
      case 'clear': {
        // With a target only that viewer's lines were cleared (Twitch clear_user_messages); without, the whole chat.
        const since = new Date(new Date(e.occurred_at).getTime() - REMOVE_WINDOW_MS);
        const who = e.target ? eq(chatMessages.authorId, e.target.provider_user_id) : undefined;
        await tx
          .update(chatMessages)
          .set({ deletedAt: now })
          .where(and(base, eq(chatMessages.channelProviderId, e.channel_provider_id), gt(chatMessages.sentAt, since), who));
        break;
      }
      case 'unban':
        break;
    }
    return true;
  }
}

/** One patch per connection (later keys win), so each connection row is updated once per batch. */
function mergeStates(states: WriteBatch['states']): WriteBatch['states'] {
  if (states.length <= 1) return states;
  const merged = new Map<string, Record<string, unknown>>();
  for (const s of states) merged.set(s.channelProviderId, { ...merged.get(s.channelProviderId), ...s.patch });
  return [...merged].map(([channelProviderId, patch]) => ({ channelProviderId, patch }));
}
