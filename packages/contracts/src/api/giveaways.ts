import { z } from 'zod';
import { AccessLevel, accessLevelSchema } from '../access';
import { channelProviderIdSchema } from '../providers';
import { POINTS_MAX } from './points';

/**
 * Giveaways: viewers on every platform enter by a keyword or buy tickets with points; staff open,
 * close (or let a timer close), draw one or more winners weighted by tickets and subscriber luck,
 * and re-roll a winner who does not claim in chat in time. Cancelling refunds every ticket.
 */

export const GIVEAWAY_TITLE_MAX = 100;
export const GIVEAWAY_WINNERS_MAX = 50;
export const GIVEAWAY_TICKETS_MAX = 10_000;
export const GIVEAWAY_DURATION_MAX_SECONDS = 7 * 86_400;
export const GIVEAWAY_CLAIM_MAX_SECONDS = 3_600;
/** Chat lines of a winner kept on the giveaway (the claim and what follows). */
export const WINNER_MESSAGES_MAX = 20;

export const giveawayEntryModeSchema = z.enum(['keyword', 'tickets']);
export type GiveawayEntryMode = z.infer<typeof giveawayEntryModeSchema>;
export const giveawayEntryModeLabels: Record<GiveawayEntryMode, string> = {
  keyword: 'Keyword (free, one entry each)',
  tickets: 'Tickets bought with points',
};

export const giveawayStatusSchema = z.enum(['draft', 'open', 'closed', 'drawn', 'cancelled']);
export type GiveawayStatus = z.infer<typeof giveawayStatusSchema>;
export const giveawayStatusLabels: Record<GiveawayStatus, string> = {
  draft: 'Not opened',
  open: 'Open',
  closed: 'Closed',
  drawn: 'Drawn',
  cancelled: 'Cancelled',
};

const int = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} is at least ${min}`)
    .max(max, `${label} is at most ${max.toLocaleString('en-US')}`);

export const giveawayBodySchema = z.object({
  title: z.string().trim().min(1, 'Give it a title').max(GIVEAWAY_TITLE_MAX, `At most ${GIVEAWAY_TITLE_MAX} characters`),
  entry_mode: giveawayEntryModeSchema.default('keyword'),
  /** What viewers type to enter (tickets: followed by how many, e.g. `!enter 5`). */
  keyword: z
    .string()
    .trim()
    .min(1, 'Enter a keyword')
    .max(50, 'At most 50 characters')
    .regex(/^\S+$/u, 'One word, without spaces')
    .transform((v) => v.toLowerCase())
    .default('!enter'),
  ticket_cost: int('The ticket cost', 1, POINTS_MAX).default(100),
  max_tickets: int('The maximum', 1, GIVEAWAY_TICKETS_MAX).default(10),
  /** The lowest audience level that may enter (Public, Sub, VIP, Mod, Owner). */
  min_level: accessLevelSchema.default(AccessLevel.PUBLIC),
  /** Platforms whose viewers may enter; empty: every platform. */
  platforms: z.array(channelProviderIdSchema).default([]),
  /** Subscribers' and members' entries weigh this many times more. */
  sub_luck: z.number({ error: 'Enter a number' }).min(1, 'At least 1×').max(10, 'At most 10×').multipleOf(0.1, 'Steps of 0.1').default(1),
  winners: int('The number of winners', 1, GIVEAWAY_WINNERS_MAX).default(1),
  /** Entries close by themselves this long after opening; 0: closed by hand. */
  duration_seconds: int('The timer', 0, GIVEAWAY_DURATION_MAX_SECONDS).default(0),
  /** A winner must write in chat within this many seconds; 0: no claim needed. */
  claim_seconds: int('The claim time', 0, GIVEAWAY_CLAIM_MAX_SECONDS).default(60),
});
export type GiveawayBody = z.input<typeof giveawayBodySchema>;
export type GiveawaySettings = z.infer<typeof giveawayBodySchema>;

export const winnerStatusSchema = z.enum(['pending', 'claimed', 'expired', 'rerolled']);
export type WinnerStatus = z.infer<typeof winnerStatusSchema>;
export const winnerStatusLabels: Record<WinnerStatus, string> = {
  pending: 'Waiting for claim',
  claimed: 'Claimed',
  expired: 'Did not claim',
  rerolled: 'Re-rolled',
};

export const winnerMessageSchema = z.object({ provider: channelProviderIdSchema, text: z.string(), at: z.string() });
export type WinnerMessage = z.infer<typeof winnerMessageSchema>;

export const giveawayWinnerSchema = z.object({
  id: z.string(),
  /** 1 for the first winner drawn; a re-roll takes the place it replaces. */
  place: z.number().int(),
  wallet_id: z.string(),
  provider: channelProviderIdSchema,
  provider_user_id: z.string(),
  display_name: z.string(),
  tickets: z.number().int(),
  status: winnerStatusSchema,
  drawn_at: z.string(),
  /** When the claim runs out (null: no claim needed). */
  claim_deadline: z.string().nullable(),
  claimed_at: z.string().nullable(),
  messages: z.array(winnerMessageSchema),
});
export type GiveawayWinner = z.infer<typeof giveawayWinnerSchema>;

export const giveawayEntrySchema = z.object({
  wallet_id: z.string(),
  provider: channelProviderIdSchema,
  provider_user_id: z.string(),
  display_name: z.string(),
  tickets: z.number().int(),
  subscriber: z.boolean(),
  /** Relative chance: tickets × subscriber luck. */
  weight: z.number(),
  entered_at: z.string(),
});
export type GiveawayEntry = z.infer<typeof giveawayEntrySchema>;

export const giveawaySchema = z.object({
  id: z.string(),
  title: z.string(),
  entry_mode: giveawayEntryModeSchema,
  keyword: z.string(),
  ticket_cost: z.number().int(),
  max_tickets: z.number().int(),
  min_level: accessLevelSchema,
  platforms: z.array(channelProviderIdSchema),
  sub_luck: z.number(),
  winners: z.number().int(),
  duration_seconds: z.number().int(),
  claim_seconds: z.number().int(),
  status: giveawayStatusSchema,
  entry_count: z.number().int(),
  ticket_count: z.number().int(),
  opened_at: z.string().nullable(),
  /** When a timer closes entries (null: closed by hand). */
  closes_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  drawn_at: z.string().nullable(),
  created_at: z.string(),
  /** Drawn winners (re-rolled ones too), in draw order. */
  winner_list: z.array(giveawayWinnerSchema),
});
export type Giveaway = z.infer<typeof giveawaySchema>;
export const giveawayListSchema = z.object({ records: z.array(giveawaySchema), cursor: z.string().nullable() });
export type GiveawayList = z.infer<typeof giveawayListSchema>;
export const giveawayListQuerySchema = z.object({
  per_page: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(64).optional(),
});
/**
 * A keyset page of entries (most tickets first, then earliest). `total` is the giveaway's entry count;
 * `total_weight` (the first page only) is the sum of every entry's weight, what a chance is a share of.
 */
export const giveawayEntriesSchema = z.object({
  records: z.array(giveawayEntrySchema),
  cursor: z.string().nullable(),
  total: z.number().int(),
  total_weight: z.number().optional(),
});
export const giveawayEntriesQuerySchema = z.object({
  per_page: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().max(300).optional(),
});
export type GiveawayEntries = z.infer<typeof giveawayEntriesSchema>;

export const giveawayParamsSchema = z.object({ channelId: z.string().max(64), giveawayId: z.string().max(64) });
export const winnerParamsSchema = giveawayParamsSchema.extend({ winnerId: z.string().max(64) });

export const giveawayActionSchema = z.enum(['open', 'close', 'draw', 'cancel']);
export type GiveawayAction = z.infer<typeof giveawayActionSchema>;

/** On the bus (`channel:<id>`) and the giveaways socket: a giveaway changed (entries, status, winners, claims). */
export const giveawayUpdatedEventSchema = z.object({ type: z.literal('giveaway.updated'), data: giveawaySchema });
export type GiveawayUpdatedEvent = z.infer<typeof giveawayUpdatedEventSchema>;
export const giveawaySocketMessageSchema = z.discriminatedUnion('type', [
  giveawayUpdatedEventSchema,
  z.object({ type: z.literal('pong') }),
]);
