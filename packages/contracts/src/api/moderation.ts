import { z } from 'zod';
import { channelProviderIdSchema } from '../providers';

export const moderationParamsSchema = z.object({
  channelId: z.string().min(1).max(64),
  provider: channelProviderIdSchema,
  channelProviderId: z.string().min(1).max(64),
});

/** Chat ban payload: absent duration = permanent; reason only for twitch and kick. */
export const banBodySchema = z.object({
  provider_viewer_id: z.string().min(1).max(200),
  duration_seconds: z.number().int().min(1).optional(),
  reason: z.string().max(500).optional(),
});
export type BanBody = z.infer<typeof banBodySchema>;

export const unbanQuerySchema = z.object({ provider_viewer_id: z.string().min(1).max(200) });

export const deleteMessageParamsSchema = moderationParamsSchema.extend({ providerMessageId: z.string().min(1).max(200) });
