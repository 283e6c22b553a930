/** The database side of webhook deduplication (table `webhook_deliveries`). */
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookDeliveries } from '../../db/schema';
import type { WebhookDeliveryStore } from '../../platforms/kick/kick-webhook-receiver';

export class DbWebhookDeliveryStore implements WebhookDeliveryStore {
  constructor(private readonly db: Db) {}

  async remember(provider: 'kick', messageId: string): Promise<boolean> {
    const inserted = await this.db
      .insert(webhookDeliveries)
      .values({ provider, messageId })
      .onConflictDoNothing()
      .returning({ messageId: webhookDeliveries.messageId });
    return inserted.length > 0;
  }

  async forgetBefore(before: Date): Promise<number> {
    const removed = await this.db
      .delete(webhookDeliveries)
      .where(lt(webhookDeliveries.receivedAt, before))
      .returning({ messageId: webhookDeliveries.messageId });
    return removed.length;
  }

  /** Whether a delivery id is remembered (a handled delivery). */
  async has(provider: 'kick', messageId: string): Promise<boolean> {
    const rows = await this.db
      .select({ messageId: webhookDeliveries.messageId })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.provider, provider), eq(webhookDeliveries.messageId, messageId)))
      .limit(1);
    return rows.length > 0;
  }
}
