import { z } from 'zod';
import { platforms, type Platform } from '../world';

export const platformSchema = z.enum(platforms as [Platform, ...Platform[]]);

export const chatBody = z.object({
  platform: platformSchema,
  channel: z.string().min(1),
  /** Author id or login; default: a random viewer. */
  user: z.string().optional(),
  text: z.string().min(1),
  replyTo: z.string().optional(),
});

export const eventTypes = [
  'follow',
  'sub',
  'resub',
  'gift',
  'raid',
  'cheer',
  'superchat',
  'supersticker',
  'membership',
  'membership_gift',
  'kicks',
  'tiktok_gift',
  'like',
  'member_join',
  'stream_online',
  'stream_offline',
] as const;

export const eventBody = z.object({
  platform: platformSchema,
  channel: z.string().min(1),
  type: z.enum(eventTypes),
  /** Viewer id or login (raids: the raiding broadcaster); default: a random viewer; null: anonymous. */
  user: z.string().nullable().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const faultBody = z.object({
  platform: z.union([platformSchema, z.literal('*')]).default('*'),
  match: z.string().default(''),
  kind: z.enum(['status', 'rate_limit', 'slow', 'expire_tokens', 'revoke_tokens']),
  status: z.number().int().min(400).max(599).optional(),
  delayMs: z.number().int().min(0).max(120_000).optional(),
  /** How many matching requests it applies to; omit for "until cleared". */
  count: z.number().int().min(1).optional(),
});

export const tokenBody = z.object({
  platform: platformSchema,
  userId: z.string().optional(),
  clientId: z.string().optional(),
  token: z.string().optional(),
  /** Twitch revocation status sent on EventSub. */
  status: z.enum(['authorization_revoked', 'user_removed', 'version_removed']).optional(),
});

export const appBody = z.object({
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  redirectUris: z.array(z.string().url()).optional(),
  webhookUrl: z.string().url().nullable().optional(),
  accessTokenTtlSeconds: z.number().int().min(1).nullable().optional(),
});

export const crowdRateBody = z.object({
  rate: z.number().min(0).max(20_000).nullable(),
  eventRate: z.number().min(0).max(1000).optional(),
  platform: platformSchema.optional(),
  channel: z.string().optional(),
});

export const liveBody = z.object({
  live: z.boolean(),
  viewerCount: z.number().int().min(0).optional(),
  /** YouTube: the kind of broadcast this and later streams of the channel use (default persistent, "Stream now"). */
  broadcastType: z.enum(['event', 'persistent']).optional(),
});
export const chattersBody = z.object({
  join: z.array(z.string()).optional(),
  part: z.array(z.string()).optional(),
  clear: z.boolean().optional(),
});

export const accountBody = z.object({
  platform: platformSchema,
  displayName: z.string().min(1).max(50),
  login: z
    .string()
    .regex(/^[a-z0-9_]{2,25}$/)
    .optional(),
  kind: z.enum(['streamer', 'bot', 'viewer']).default('viewer'),
  premium: z.boolean().optional(),
});

/** Platforms whose own chat a simulated moderator can act in (POST /moderation/*). */
export const moderatedPlatformSchema = z.enum(['twitch', 'youtube', 'kick']);

export const moderationDeleteBody = z.object({
  platform: moderatedPlatformSchema,
  channel: z.string().min(1),
  messageId: z.string().min(1),
  /** Moderator id or login; default: the broadcaster. */
  moderator: z.string().optional(),
});

export const moderationBanBody = z.object({
  platform: moderatedPlatformSchema,
  channel: z.string().min(1),
  /** Viewer id or login. */
  user: z.string().min(1),
  /** Omit for a permanent ban; Twitch allows 1–1,209,600 s. */
  durationSeconds: z.number().int().min(1).max(1_209_600).optional(),
  reason: z.string().max(500).optional(),
  /** Moderator id or login; default: the broadcaster. */
  moderator: z.string().optional(),
});
