import { z } from 'zod';
import { providerIds, providers, type ProviderId } from '../providers';

/** Platforms whose system bot (the operators' shared bot account) can be connected (`systemBot` capability). */
export const systemBotProviderIds: ProviderId[] = providerIds.filter((id) => providers[id].systemBot);
export const systemBotProviderIdSchema = z
  .enum(providerIds)
  .refine((id) => providers[id].systemBot, { message: 'This platform has no system bot' });

/** A connected system bot (provider and scope_needed, plus the account it is). */
export const systemBotProviderSchema = z.object({
  provider: z.enum(providerIds),
  /** True when the bot must be reconnected (its grant is missing scopes or was revoked). */
  scope_needed: z.boolean(),
  display_name: z.string(),
  provider_user_id: z.string(),
  connected_at: z.string(),
});
export type SystemBotProvider = z.infer<typeof systemBotProviderSchema>;
export const systemBotProviderListSchema = z.array(systemBotProviderSchema);

export const systemBotParamsSchema = z.object({ provider: systemBotProviderIdSchema });

/** Hash key the connect popup lands with on `/user-provider-connected`. */
export const SYSTEM_BOT_HASH_KEY = 'system_bot_provider';
