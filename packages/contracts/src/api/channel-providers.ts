import { z } from 'zod';
import { channelProviderIdSchema } from '../providers';

/** Live connection state of one channel provider (server-side health, shown as the live status). */
export const connectionStates = ['connecting', 'connected', 'reconnecting', 'offline', 'needs_reauth', 'error'] as const;
export const connectionStateSchema = z.enum(connectionStates);

export const connectionHealthSchema = z.object({
  state: connectionStateSchema,
  detail: z.string().nullable(),
  since: z.string(),
  last_event_at: z.string().nullable(),
  reconnects: z.number().int(),
});
export type ConnectionHealthDto = z.infer<typeof connectionHealthSchema>;

/** The account a channel sends chat as besides the broadcaster: its own bot, or the operators' system bot. */
export const botProviderSchema = z.object({
  id: z.string(),
  provider: channelProviderIdSchema,
  display_name: z.string(),
  scope_needed: z.boolean(),
  /** True when this is the operators' system bot (not disconnectable from the channel). */
  system: z.boolean(),
});
export type BotProvider = z.infer<typeof botProviderSchema>;

/** Channel provider plus live status, health and the dashboard link. */
export const channelProviderSchema = z.object({
  id: z.string(),
  channel_id: z.string(),
  provider: channelProviderIdSchema,
  provider_channel_name: z.string(),
  provider_channel_id: z.string(),
  live_stream_id: z.string().nullable(),
  /** True: the connection must be reconnected ("Reconnect needed"). */
  scope_needed: z.boolean(),
  bot_provider: botProviderSchema.nullable(),
  is_live: z.boolean(),
  viewer_count: z.number().int().nullable(),
  /** Null when the platform keeps no live connection (Spotify) or it is not running. */
  health: connectionHealthSchema.nullable(),
  dashboard_url: z.string().nullable(),
  created_at: z.string(),
});
export type ChannelProvider = z.infer<typeof channelProviderSchema>;
export const channelProviderListSchema = z.array(channelProviderSchema);

export const channelProviderParamsSchema = z.object({ channelId: z.string().min(1).max(64), channelProviderId: z.string().min(1).max(64) });

/**
 * The YouTube Data API quota of the project Greenroom runs as, today: every YouTube connection of this Greenroom
 * spends from it. Google's quota day ends at midnight Pacific time.
 */
export const youtubeQuotaSchema = z.object({
  /** The quota day, YYYY-MM-DD in Pacific time. */
  day: z.string(),
  used: z.number().int(),
  limit: z.number().int(),
  /** YouTube refuses calls until `resets_at`: chat, moderation and stream info on YouTube pause. */
  exhausted: z.boolean(),
  resets_at: z.string(),
});
export type YoutubeQuota = z.infer<typeof youtubeQuotaSchema>;

/** Provider updates message of the providers websocket. */
export const providerUpdateActions = ['new', 'updated', 'deleted'] as const;
export const providerUpdateMessageSchema = z.object({ action: z.enum(providerUpdateActions), data: channelProviderSchema });
export type ProviderUpdateMessage = z.infer<typeof providerUpdateMessageSchema>;

/** Heartbeat frames of the live websockets (the web pings every 2 s). */
export const wsPingSchema = z.object({ type: z.literal('ping') });
export const wsPong = { type: 'pong' } as const;

/** Hash key the connect popup lands with on `/channel-provider-connected`. */
export const CHANNEL_PROVIDER_HASH_KEY = 'channel_provider_id';
