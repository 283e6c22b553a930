/**
 * Exactly-once side effects of chatbot replies. A `chatbot.reply` effect may run more than once (its send failed for
 * a moment and the outbox retries it); what the reply CHANGES must not happen twice: a quote added, `$(count)` moved,
 * a command added from chat, the command's use count. Each is written together with a row keyed by the effect's id
 * (`chatbot_reply_outcomes`) — in one transaction, or one statement — holding the reply it produced. A retry finds
 * the row, skips the side effect and sends the stored reply.
 *
 * - `once(apply)`: a built-in's side effect in a transaction that first takes the effect's row; a retry returns the
 *   reply stored by the run that committed.
 * - `record(reply)`: a built-in without `once` (its side effects carry their own key, like points under the effect
 *   id, or have none): its reply and the use count, once.
 * - `takeCount()`: a response command's use count, taken once per effect; the rendered text is stored after
 *   (`saveReply`), so a retry sends the same words.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { chatbotReplyOutcomes, chatCommands } from '../../db/schema';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface StoredOutcome {
  count: number | null;
  reply: string | null;
  rendered: boolean;
}

export class ReplyOutcomes {
  constructor(private readonly db: Db) {}

  async find(effectId: string): Promise<StoredOutcome | null> {
    const [row] = await this.db
      .select({ count: chatbotReplyOutcomes.count, reply: chatbotReplyOutcomes.reply, rendered: chatbotReplyOutcomes.rendered })
      .from(chatbotReplyOutcomes)
      .where(eq(chatbotReplyOutcomes.effectId, effectId));
    return row ?? null;
  }

  /**
   * Runs `apply` (the side effect, on `tx` only) in a transaction that takes this effect's row first and stores the
   * reply with it, and counts the command's use. When the row is already there, `apply` does not run: the stored
   * reply is returned.
   */
  async once(
    key: { effectId: string; channelId: string; commandId: string },
    apply: (tx: Tx) => Promise<string | null>,
  ): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      const taken = await tx
        .insert(chatbotReplyOutcomes)
        .values({ effectId: key.effectId, channelId: key.channelId, rendered: false })
        .onConflictDoNothing()
        .returning({ effectId: chatbotReplyOutcomes.effectId });
      if (taken.length === 0) {
        const [row] = await tx
          .select({ reply: chatbotReplyOutcomes.reply })
          .from(chatbotReplyOutcomes)
          .where(eq(chatbotReplyOutcomes.effectId, key.effectId));
        return row?.reply ?? null;
      }
      const reply = await apply(tx);
      await tx.update(chatbotReplyOutcomes).set({ reply, rendered: true }).where(eq(chatbotReplyOutcomes.effectId, key.effectId));
      await tx
        .update(chatCommands)
        .set({ useCount: sql`${chatCommands.useCount} + 1` })
        .where(eq(chatCommands.id, key.commandId));
      return reply;
    });
  }

  /**
   * Stores a built-in's reply and counts the command's use, in one statement, unless this effect's row exists (a
   * retry, or `once` stored it): then nothing changes.
   */
  async record(key: { effectId: string; channelId: string; commandId: string }, reply: string | null): Promise<void> {
    await this.db.execute(sql`
      WITH ins AS (
        INSERT INTO chatbot_reply_outcomes (effect_id, channel_id, reply, rendered)
        VALUES (${key.effectId}, ${key.channelId}, ${reply}, true)
        ON CONFLICT (effect_id) DO NOTHING
        RETURNING effect_id
      )
      UPDATE chat_commands SET use_count = use_count + 1
      WHERE id = ${key.commandId} AND EXISTS (SELECT 1 FROM ins)`);
  }

  /**
   * A response command's use: the command's count moves by one and is stored with the effect, in one statement; a
   * retry gets the stored count and moves nothing. Two runs of one effect at once: the second statement fails on the
   * key as a whole (nothing moved) and the effect is retried.
   */
  async takeCount(key: { effectId: string; channelId: string; commandId: string }): Promise<number> {
    const raw: unknown = await this.db.execute(sql`
      WITH prior AS (SELECT count FROM chatbot_reply_outcomes WHERE effect_id = ${key.effectId}),
      used AS (
        UPDATE chat_commands SET use_count = use_count + 1
        WHERE id = ${key.commandId} AND NOT EXISTS (SELECT 1 FROM prior)
        RETURNING use_count
      ),
      ins AS (
        INSERT INTO chatbot_reply_outcomes (effect_id, channel_id, count)
        SELECT ${key.effectId}, ${key.channelId}, use_count FROM used
        RETURNING count
      )
      SELECT count FROM ins UNION ALL SELECT count FROM prior`);
    const [row] = rowsOf<{ count: string | number | null }>(raw);
    return row?.count === null || row?.count === undefined ? 0 : Number(row.count);
  }

  /** The rendered reply of a response command (after `takeCount`); kept as first stored. */
  async saveReply(key: { effectId: string; channelId: string }, reply: string | null): Promise<void> {
    await this.db
      .insert(chatbotReplyOutcomes)
      .values({ effectId: key.effectId, channelId: key.channelId, reply, rendered: true })
      .onConflictDoUpdate({
        target: chatbotReplyOutcomes.effectId,
        set: { reply, rendered: true },
        setWhere: eq(chatbotReplyOutcomes.rendered, false),
      });
  }

  /** Deletes outcomes older than `before` (retries end long before), in bounded batches. */
  async prune(before: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const old = this.db
        .select({ id: chatbotReplyOutcomes.effectId })
        .from(chatbotReplyOutcomes)
        .where(lt(chatbotReplyOutcomes.createdAt, before))
        .limit(5000);
      const n = (
        await this.db
          .delete(chatbotReplyOutcomes)
          .where(and(sql`${chatbotReplyOutcomes.effectId} IN (${old})`))
          .returning({ id: chatbotReplyOutcomes.effectId })
      ).length;
      total += n;
      if (n < 5000) return total;
    }
  }
}
