import { z } from 'zod';
import { channelProviderIdSchema } from '../providers';

/**
 * The viewer queue: one line for viewers of every platform (`!join`, `!leave`, `!position`,
 * `!queue`); staff open, pause, close, pick and reorder it. At most one queue is open or paused in a
 * channel at a time: that is the one chat commands use.
 */

export const QUEUE_NAME_MAX = 60;
export const QUEUE_SIZE_MAX = 10_000;

export const queueStatusSchema = z.enum(['open', 'paused', 'closed']);
export type QueueStatus = z.infer<typeof queueStatusSchema>;
export const queueStatusLabels: Record<QueueStatus, string> = { open: 'Open', paused: 'Paused', closed: 'Closed' };

export const queueBodySchema = z.object({
  name: z.string().trim().min(1, 'Name the queue').max(QUEUE_NAME_MAX, `At most ${QUEUE_NAME_MAX} characters`),
  /** The most viewers waiting at once; 0: no limit. */
  max_size: z
    .number({ error: 'Enter a number' })
    .int('A whole number')
    .min(0, 'At least 0')
    .max(QUEUE_SIZE_MAX, `At most ${QUEUE_SIZE_MAX.toLocaleString('en-US')}`)
    .default(0),
  /** Closes the queue when it reaches its maximum size. */
  auto_close: z.boolean().default(false),
  /** After leaving or being picked, a viewer waits this long before joining again. */
  join_cooldown_seconds: z
    .number({ error: 'Enter a number of seconds' })
    .int('Whole seconds')
    .min(0, 'At least 0 seconds')
    .max(86_400, 'At most one day (86400 s)')
    .default(0),
  /** Subscribers and members join ahead of everyone else (after earlier subscribers). */
  sub_priority: z.boolean().default(false),
});
export type QueueBody = z.input<typeof queueBodySchema>;
export type QueueSettings = z.infer<typeof queueBodySchema>;

export const queueSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: queueStatusSchema,
  max_size: z.number().int(),
  auto_close: z.boolean(),
  join_cooldown_seconds: z.number().int(),
  sub_priority: z.boolean(),
  /** Viewers waiting now. */
  size: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Queue = z.infer<typeof queueSchema>;
export const queueListSchema = z.array(queueSchema);

export const queueEntrySchema = z.object({
  id: z.string(),
  /** 1 = next. */
  position: z.number().int(),
  wallet_id: z.string(),
  provider: channelProviderIdSchema,
  provider_user_id: z.string(),
  display_name: z.string(),
  priority: z.boolean(),
  joined_at: z.string(),
});
export type QueueEntry = z.infer<typeof queueEntrySchema>;

export const pickedEntrySchema = queueEntrySchema.omit({ position: true }).extend({ picked_at: z.string() });
export type PickedEntry = z.infer<typeof pickedEntrySchema>;

/** A queue with the viewers waiting (in order) and the most recently picked. */
export const queueDetailSchema = queueSchema.extend({
  entries: z.array(queueEntrySchema),
  picked: z.array(pickedEntrySchema),
});
export type QueueDetail = z.infer<typeof queueDetailSchema>;

export const queueParamsSchema = z.object({ channelId: z.string().max(64), queueId: z.string().max(64) });
export const queueEntryParamsSchema = queueParamsSchema.extend({ entryId: z.string().max(64) });

export const queueStatusBodySchema = z.object({ status: queueStatusSchema });

export const pickBodySchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('next') }),
  z.object({ mode: z.literal('random') }),
  z.object({ mode: z.literal('name'), name: z.string().trim().min(1, 'Enter a name').max(100, 'At most 100 characters') }),
]);
export type PickBody = z.infer<typeof pickBodySchema>;

export const moveBodySchema = z.object({
  /** The new position, 1 = next. */
  position: z.number().int().min(1, 'Positions start at 1').max(QUEUE_SIZE_MAX),
});
export type MoveBody = z.infer<typeof moveBodySchema>;

export const pickResultSchema = z.object({ picked: pickedEntrySchema, queue: queueDetailSchema });
export type PickResult = z.infer<typeof pickResultSchema>;

/** Viewers waiting that a queue event carries; a longer line is refetched whole. */
export const QUEUE_EVENT_ENTRIES = 100;

/** On the bus (`channel:<id>`) and the queues socket: a queue changed (status, settings, its line, a pick). */
export const queueUpdatedEventSchema = z.object({ type: z.literal('queue.updated'), data: queueDetailSchema });
export type QueueUpdatedEvent = z.infer<typeof queueUpdatedEventSchema>;
/** A queue was deleted. */
export const queueDeletedEventSchema = z.object({ type: z.literal('queue.deleted'), data: z.object({ id: z.string() }) });
export const queueSocketMessageSchema = z.discriminatedUnion('type', [
  queueUpdatedEventSchema,
  queueDeletedEventSchema,
  z.object({ type: z.literal('pong') }),
]);
