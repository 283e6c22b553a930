import { z } from 'zod';
import { providerIdSchema, signinProviderIdSchema } from '../providers';

export const userSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  avatar_url: z.string().nullable(),
  is_operator: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

export const userProviderSchema = z.object({
  id: z.string(),
  provider: providerIdSchema,
  provider_user_id: z.string(),
  display_name: z.string(),
  scope_needed: z.boolean(),
  created_at: z.string(),
});
export type UserProvider = z.infer<typeof userProviderSchema>;

/** Delete account: the user's display name typed as confirmation; the server verifies it. */
export const deleteUserQuerySchema = z.object({ username: z.string().trim().max(200).default('') });

/** User settings: a free JSON object, loaded and saved whole. */
export const userSettingsSchema = z.record(z.string(), z.unknown());
export type UserSettings = z.infer<typeof userSettingsSchema>;
export const USER_SETTINGS_MAX_BYTES = 16 * 1024;

export const signInStartQuerySchema = z.object({ next: z.string().max(2000).optional() });
export const oauthCallbackBodySchema = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().min(1).max(200),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});
export const oauthCallbackResultSchema = z.object({
  /** Present when the flow signed the user in: the bearer token to keep in localStorage. */
  access_token: z.string().optional(),
  expires_at: z.string().optional(),
  /** Where the browser goes next (same-origin path). */
  redirect_to: z.string(),
});
export type OauthCallbackResult = z.infer<typeof oauthCallbackResultSchema>;

export const urlResultSchema = z.object({ url: z.string() });

/**
 * Hash key of a connect flow's landing page when the platform did not connect (the user cancelled on the
 * consent page, or the platform refused): its value is the message to show. The opener's poll reads it.
 */
export const CONNECT_ERROR_HASH_KEY = 'connect_error';

export const connectChatUrlQuerySchema = z.object({
  redirect_to: z.string().max(2000),
  channel_id: z.string().max(64).optional(),
  /** Connect as the channel's own bot account rather than the broadcaster. */
  bot: z.enum(['true', 'false']).optional(),
  /** Connect the operators' system bot (admin area). */
  system_bot: z.enum(['true', 'false']).optional(),
});

export const signinProvidersSchema = z.array(z.object({ provider: signinProviderIdSchema, name: z.string() }));

export const platformModeSchema = z.object({
  /** True when the platforms are the local emulator (shows the "Local platforms" notice). */
  local_platforms: z.boolean(),
  emulator_url: z.string().nullable(),
});
