import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { channels } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The running Greenroom instances of a cluster (several instances on one PostgreSQL and one Redis). An instance
 * renews `expires_at` about every quarter of its lease and holds a session advisory lock while it lives; once
 * `expires_at` has passed (the database's clock), or the lock is gone (its process died and PostgreSQL closed its
 * session: the others then set `expires_at` to now), the instance is dead to the others: its channels are taken
 * over and it may never renew again (it starts over as a new instance).
 */
export const clusterInstances = pgTable('cluster_instances', {
  id: text('id').primaryKey(),
  startedAt: ts('started_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  /** The last renewal: the last moment the instance is known to have been alive (a takeover's gap line starts here). */
  renewedAt: ts('renewed_at').notNull().defaultNow(),
});

/**
 * Which instance holds each channel's platform connections (and runs its chat pipeline stages, timers and point
 * ticks). Valid while that instance's lease in `cluster_instances` is; a row pointing to an expired instance is
 * free to take.
 */
export const channelOwners = pgTable(
  'channel_owners',
  {
    channelId: text('channel_id')
      .primaryKey()
      .references(() => channels.id, { onDelete: 'cascade' }),
    instanceId: text('instance_id').notNull(),
    acquiredAt: ts('acquired_at').notNull().defaultNow(),
  },
  (t) => [index('channel_owners_instance').on(t.instanceId)],
);

/**
 * Connection commands (reopen, close) for the instance holding a channel, written by the instance where the request
 * landed; and hand-offs (`take`: the channel is now this instance's, `channel_provider_id` names the instance that
 * handed it over and keeps its connections open until the taker's are up). Redis only nudges the owner to read them at once; without Redis it reads them on its next lease tick.
 */
export const clusterCommands = pgTable(
  'cluster_commands',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    instanceId: text('instance_id').notNull(),
    channelId: text('channel_id').notNull(),
    channelProviderId: text('channel_provider_id').notNull(),
    kind: text('kind').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('cluster_commands_instance').on(t.instanceId)],
);
