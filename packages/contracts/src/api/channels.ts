import { z } from 'zod';
import { can } from '../abilities';
import { AccessLevel, accessLevelSchema, hasLevel } from '../access';
import { channelProviderIdSchema, providerIdSchema } from '../providers';
import { paginated } from './common';

export const channelSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  created_at: z.string(),
  /** The caller's level in this channel (an AccessLevel value). */
  access_level: accessLevelSchema,
  /** Summary of connected platforms. */
  providers: z.array(z.object({ provider: channelProviderIdSchema, provider_channel_name: z.string() })),
  /** The Owner lets Editors post in chat as the streamer's own account (Admins and the Owner always may). */
  editors_post_as_streamer: z.boolean(),
});
export type Channel = z.infer<typeof channelSchema>;

/**
 * Who may post in chat as the broadcaster's own account: Admins and the Owner, and Editors when the Owner
 * allows it. Everyone else (Mods, Editors by default) sends as the bot.
 */
export function canPostAsStreamer(level: number, editorsPostAsStreamer: boolean): boolean {
  return can(level, 'chat.post_as_streamer') || (editorsPostAsStreamer && hasLevel(level, AccessLevel.EDITOR));
}
export const POST_AS_STREAMER_REFUSED = 'Only Admins and the Owner can post as the streamer (and Editors when the Owner allows it).';

/** The chat settings of a channel only its Owner changes. */
export const channelChatSettingsBodySchema = z.object({ editors_post_as_streamer: z.boolean() });
export type ChannelChatSettingsBody = z.infer<typeof channelChatSettingsBodySchema>;
export const channelListSchema = paginated(channelSchema);

export const listChannelsQuerySchema = z.object({
  name: z.string().max(200).optional(),
  channel_id: z.string().max(64).optional(),
  provider: providerIdSchema.optional(),
  provider_channel_name: z.string().max(200).optional(),
  cursor: z.string().max(200).optional(),
  per_page: z.coerce.number().int().min(1).max(100).default(50),
});
export type ListChannelsQuery = z.input<typeof listChannelsQuerySchema>;

export const CHANNEL_NAME_MAX = 64;
export const createChannelBodySchema = z.object({
  display_name: z
    .string()
    .trim()
    .min(1, 'Enter a channel name')
    .max(CHANNEL_NAME_MAX, `A channel name has at most ${CHANNEL_NAME_MAX} characters`),
});

export type CreateChannelBody = z.infer<typeof createChannelBodySchema>;

/** Rename (Admin). */
export const updateChannelBodySchema = createChannelBodySchema;
export type UpdateChannelBody = z.infer<typeof updateChannelBodySchema>;

/** Delete (Owner): the channel's name typed as confirmation; the server verifies it. */
export const deleteChannelQuerySchema = z.object({ name: z.string().trim().max(200) });

export const adminChannelSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  created_at: z.string(),
  owner: z.object({ id: z.string(), display_name: z.string() }).nullable(),
  providers: z.array(
    z.object({ provider: channelProviderIdSchema, provider_channel_name: z.string(), scope_needed: z.boolean(), is_live: z.boolean() }),
  ),
});
export type AdminChannel = z.infer<typeof adminChannelSchema>;
export const adminChannelListSchema = paginated(adminChannelSchema);
export const adminListChannelsQuerySchema = z.object({
  name: z.string().max(200).optional(),
  cursor: z.string().max(200).optional(),
  per_page: z.coerce.number().int().min(1).max(100).default(50),
});
