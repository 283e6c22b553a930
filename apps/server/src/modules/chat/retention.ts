/**
 * Chat log retention (`CHAT_RETENTION_DAYS`): chat messages, moderation events and gap lines older
 * than the retention are deleted in bounded batches, hourly; finished pipeline effects are kept a
 * day (for diagnosis) and then deleted too.
 */
import { and, inArray, isNotNull, lt, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatGaps, chatMessages, moderationEvents, pipelineEffects } from '../../db/schema';

const DAY_MS = 24 * 60 * 60 * 1000;

export class ChatRetention {
  constructor(private readonly db: Db) {}

  /** Deletes what is older than `days` (finished effects: older than a day); returns rows removed. */
  async purgeOlderThan(days: number, now = new Date(), batch = 5000): Promise<number> {
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    let total = 0;
    for (;;) {
      const old = this.db.select({ seq: chatMessages.seq }).from(chatMessages).where(lt(chatMessages.receivedAt, cutoff)).limit(batch);
      const n = (await this.db.delete(chatMessages).where(inArray(chatMessages.seq, old)).returning({ seq: chatMessages.seq })).length;
      total += n;
      if (n < batch) break;
    }
    for (;;) {
      const old = this.db
        .select({ seq: moderationEvents.seq })
        .from(moderationEvents)
        .where(lt(moderationEvents.occurredAt, cutoff))
        .limit(batch);
      const n = (await this.db.delete(moderationEvents).where(inArray(moderationEvents.seq, old)).returning({ seq: moderationEvents.seq }))
        .length;
      total += n;
      if (n < batch) break;
    }
    total += (await this.db.delete(chatGaps).where(lt(chatGaps.endedAt, cutoff)).returning({ seq: chatGaps.seq })).length;
    const effectsCutoff = new Date(now.getTime() - DAY_MS);
    total += (
      await this.db
        .delete(pipelineEffects)
        .where(
          and(isNotNull(pipelineEffects.finishedAt), ne(pipelineEffects.status, 'running'), lt(pipelineEffects.finishedAt, effectsCutoff)),
        )
        .returning({ id: pipelineEffects.id })
    ).length;
    return total;
  }
}

/** The hourly retention purge; `stop()` cancels it at shutdown. */
export class RetentionJob {
  private timer: NodeJS.Timeout | null = null;
  private first: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: Pick<ChatRetention, 'purgeOlderThan'>,
    private readonly days: number,
    private readonly log: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void },
    private readonly intervalMs = 60 * 60 * 1000,
  ) {}

  /** Purges once shortly after start (not in the start-up path), then every interval. */
  start(firstDelayMs = 60_000): void {
    if (this.timer) return;
    this.first = setTimeout(() => void this.runOnce(), firstDelayMs);
    this.first.unref();
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  async runOnce(): Promise<number> {
    if (this.running) return 0;
    let removed = 0;
    this.running = this.store
      .purgeOlderThan(this.days)
      .then((n) => {
        removed = n;
        if (n > 0) this.log.info({ removed: n, days: this.days }, 'chat log retention purge');
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'chat log retention purge failed'))
      .finally(() => {
        this.running = null;
      });
    await this.running;
    return removed;
  }

  async stop(): Promise<void> {
    if (this.first) clearTimeout(this.first);
    this.first = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
