import { z } from 'zod';
import { channelProviderIdSchema } from '../providers';
import { paginated } from './common';

/**
 * Loyalty points: one wallet per viewer per channel, shared by the viewer's linked platform
 * identities, and a ledger row for every change. Limits here are shared by the settings form and
 * the server.
 */

/** The largest balance and the largest single change (far below 2^53, so amounts stay exact in JSON). */
export const POINTS_MAX = 1_000_000_000_000;
export const POINTS_NAME_MAX = 30;
export const IGNORED_LOGINS_MAX = 200;
/** How long a `!link` code stays valid. */
export const LINK_CODE_MINUTES = 10;
/** Chatters who wrote within this window count as watching where the platform has no chatter list. */
export const ACTIVE_CHATTER_MINUTES = 10;
export const ADJUST_REASON_MAX = 200;

const points = (label: string, max = 1_000_000) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} cannot be negative`)
    .max(max, `${label} is at most ${max.toLocaleString('en-US')}`);

/** A platform login as typed in settings: lower case, no `@`. */
const loginSchema = z
  .string()
  .trim()
  .transform((v) => v.replace(/^@+/, '').toLowerCase())
  .pipe(z.string().min(1, 'A login is required').max(100, 'Logins are at most 100 characters').regex(/^\S+$/u, 'Logins have no spaces'));

export const pointSettingsSchema = z.object({
  enabled: z.boolean().default(true),
  points_name: z.string().trim().min(1, 'Name your points').max(POINTS_NAME_MAX, `At most ${POINTS_NAME_MAX} characters`).default('points'),
  /** Paid to everyone watching a live stream, for each minute of the payout interval. */
  watch_points_per_minute: points('Points per minute').default(1),
  payout_interval_minutes: z
    .number({ error: 'The interval must be a number' })
    .int('Whole minutes')
    .min(1, 'At least 1 minute')
    .max(60, 'At most 60 minutes')
    .default(5),
  /** Added at each payout for viewers who chatted during the interval. */
  active_chatter_bonus: points('The bonus').default(2),
  message_points: points('Points per message').default(1),
  /** The most a viewer earns from messages in one minute. */
  message_points_cap_per_minute: points('The cap').default(5),
  follow_points: points('Points per follow').default(50),
  sub_points: points('Points per sub').default(500),
  resub_points: points('Points per resub').default(250),
  /** Per gifted sub or membership, to the gifter. */
  gift_points: points('Points per gifted sub').default(250),
  raid_points: points('Points per raid').default(100),
  /** Per 100 bits. */
  cheer_points: points('Points per 100 bits').default(100),
  /** Per tier of the Super Chat or Super Sticker (YouTube's tiers 1–7 follow the amount in every currency). */
  superchat_points: points('Points per Super Chat tier').default(100),
  /** Per 100 Kicks. */
  kicks_points: points('Points per 100 Kicks').default(100),
  /** Per 100 diamonds. */
  tiktok_gift_points: points('Points per 100 diamonds').default(50),
  /** Multiplies watch-time and message points of subscribers and members. */
  sub_multiplier: z
    .number({ error: 'The multiplier must be a number' })
    .min(1, 'At least 1×')
    .max(10, 'At most 10×')
    .multipleOf(0.1, 'Steps of 0.1')
    .default(1),
  /** More bot accounts that never earn (known bots, the channel's bot and the system bot never do). */
  ignored_logins: z.array(loginSchema).max(IGNORED_LOGINS_MAX, `At most ${IGNORED_LOGINS_MAX} accounts`).default([]),
  /** The most a viewer may lose at slots and roulette together in one stream; 0: no cap. */
  gamble_loss_cap: points('The loss cap', POINTS_MAX).default(0),
});
export type PointSettings = z.infer<typeof pointSettingsSchema>;
export type PointSettingsBody = z.input<typeof pointSettingsSchema>;
export const defaultPointSettings: PointSettings = pointSettingsSchema.parse({});

/** Why a balance changed. */
export const ledgerKinds = [
  'watch',
  'chat',
  'follow',
  'sub',
  'resub',
  'gift',
  'raid',
  'cheer',
  'superchat',
  'kicks',
  'tiktok_gift',
  'give',
  'command',
  'adjust',
  'slots',
  'roulette',
  'ticket',
  'refund',
  'link',
  'song_request',
  'song_refund',
] as const;
export const ledgerKindSchema = z.enum(ledgerKinds);
export type LedgerKind = z.infer<typeof ledgerKindSchema>;
export const ledgerKindLabels: Record<LedgerKind, string> = {
  watch: 'Watch time',
  chat: 'Chat messages',
  follow: 'Follow',
  sub: 'Sub',
  resub: 'Resub',
  gift: 'Gifted subs',
  raid: 'Raid',
  cheer: 'Cheer',
  superchat: 'Super Chat',
  kicks: 'Kicks',
  tiktok_gift: 'TikTok gift',
  give: 'Given by a viewer',
  command: 'Chat command by a mod',
  adjust: 'Staff adjustment',
  slots: 'Slots',
  roulette: 'Roulette',
  ticket: 'Giveaway tickets',
  refund: 'Giveaway refund',
  link: 'Linked accounts',
  song_request: 'Song request',
  song_refund: 'Song request refund',
};

export const viewerIdentitySchema = z.object({
  provider: channelProviderIdSchema,
  provider_user_id: z.string(),
  login: z.string(),
  display_name: z.string(),
  linked_at: z.string(),
});
export type ViewerIdentity = z.infer<typeof viewerIdentitySchema>;

export const walletSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  balance: z.number().int(),
  /** 1 for the highest balance; equal balances share a rank. */
  rank: z.number().int(),
  identities: z.array(viewerIdentitySchema),
  updated_at: z.string(),
});
export type Wallet = z.infer<typeof walletSchema>;
/** A keyset page; `total` comes with the first page when the list holds at most 1,000 wallets. */
export const walletListSchema = paginated(walletSchema);
export type WalletList = z.infer<typeof walletListSchema>;

export const walletListQuerySchema = z.object({
  /** Filters by a display name or login containing this text. */
  search: z.string().trim().max(100).optional(),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(300).optional(),
});

export const ledgerEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: ledgerKindSchema,
  delta: z.number().int(),
  /** The balance after this change. */
  balance: z.number().int(),
  /** Who or what: the other viewer of a gift, the staff member, the game's outcome. */
  note: z.string().nullable(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export const ledgerPageSchema = z.object({ records: z.array(ledgerEntrySchema), cursor: z.string().nullable() });
export type LedgerPage = z.infer<typeof ledgerPageSchema>;
export const ledgerQuerySchema = z.object({
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(30).optional(),
});

export const walletParamsSchema = z.object({ channelId: z.string().max(64), walletId: z.string().max(64) });
export const identityParamsSchema = walletParamsSchema.extend({
  provider: channelProviderIdSchema,
  providerUserId: z.string().min(1).max(200),
});

/** A viewer by platform account (the viewer card's wallet). */
export const viewerWalletParamsSchema = z.object({
  channelId: z.string().max(64),
  provider: channelProviderIdSchema,
  providerUserId: z.string().min(1).max(200),
});

export const adjustBodySchema = z.object({
  delta: z
    .number({ error: 'Enter an amount' })
    .int('A whole number of points')
    .min(-POINTS_MAX, 'Too large')
    .max(POINTS_MAX, 'Too large')
    .refine((v) => v !== 0, 'Enter an amount other than 0'),
  reason: z.string().trim().min(1, 'Say why (it is logged)').max(ADJUST_REASON_MAX, `At most ${ADJUST_REASON_MAX} characters`),
});
export type AdjustBody = z.input<typeof adjustBodySchema>;

/** A viewer's wallet as the viewer card shows it. */
export const viewerWalletSchema = z.object({
  wallet_id: z.string(),
  balance: z.number().int(),
  rank: z.number().int(),
  points_name: z.string(),
  identities: z.array(viewerIdentitySchema),
});
export type ViewerWallet = z.infer<typeof viewerWalletSchema>;
