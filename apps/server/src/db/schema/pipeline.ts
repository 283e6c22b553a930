import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { channels } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The chat pipeline's outbox: effects decided by stages (a bot reply, a platform deletion, points),
 * written in the same transaction as the message or activity they came from and run after the commit
 * by the handler registered for `kind`.
 *
 * `status`: 'pending' (waiting for `run_after`) → 'running' (claimed: `claimed_at`, `claimed_by`) →
 * 'done', or back to 'pending' with a later `run_after` after a failure, or 'failed' after the last
 * attempt, or 'interrupted' when the process died after claiming it and its handler is not
 * idempotent (it is never run a second time).
 */
export const pipelineEffects = pgTable(
  'pipeline_effects',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<unknown>(),
    /** The message or activity it came from (contract id), when there is one. */
    sourceId: text('source_id'),
    status: text('status').$type<'pending' | 'running' | 'done' | 'failed' | 'interrupted'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    runAfter: ts('run_after').notNull().defaultNow(),
    claimedAt: ts('claimed_at'),
    claimedBy: text('claimed_by'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('pipeline_effects_due').on(t.status, t.runAfter), index('pipeline_effects_finished').on(t.finishedAt)],
);
