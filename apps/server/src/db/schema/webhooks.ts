import { index, primaryKey, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Ids of webhook deliveries already handled (Kick: `Kick-Event-Message-Id`), so an at-least-once
 * redelivery is ignored, across restarts too. Pruned after a day.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    provider: text('provider').notNull(),
    messageId: text('message_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.messageId] }), index('webhook_deliveries_received').on(t.receivedAt)],
);
