import { z } from 'zod';
import { streamProviderIds } from '../providers';

export const streamProviderIdSchema = z.enum(streamProviderIds);

/** `GET /api/2/public/watch/{provider}/{providerChannelName}` path parameters. */
export const watchParamsSchema = z.object({
  provider: streamProviderIdSchema,
  providerChannelName: z.string().trim().min(1).max(100),
});

/** One platform a channel streams to, as the public watch page shows it (nothing private: no ids of Greenroom rows). */
export const watchPlatformSchema = z.object({
  provider: streamProviderIdSchema,
  provider_channel_name: z.string(),
  /** The platform's own channel id (YouTube's `UC…`, for its channel embed and link). */
  provider_channel_id: z.string(),
  is_live: z.boolean(),
  viewer_count: z.number().int().nullable(),
  /** YouTube: the live broadcast's video id (the embed plays it). */
  live_stream_id: z.string().nullable(),
  /** The stream's title and category as the platform has them (also offline: the last ones set); null when unknown. */
  title: z.string().nullable(),
  category: z.string().nullable(),
  /** When the current stream started (ISO), null offline. */
  live_since: z.string().nullable(),
});
export type WatchPlatform = z.infer<typeof watchPlatformSchema>;

/** The channel's latest stream on any platform (ended, or still running). */
export const watchLastStreamSchema = z.object({
  provider: streamProviderIdSchema,
  started_at: z.string(),
  ended_at: z.string().nullable(),
  peak_viewers: z.number().int().nullable(),
});
export type WatchLastStream = z.infer<typeof watchLastStreamSchema>;

export const watchChannelSchema = z.object({
  /** The channel's id: the public chat beside the player is read by it. */
  channel_id: z.string(),
  display_name: z.string(),
  /** The platform of the page's address. */
  platform: watchPlatformSchema,
  /** The other platforms the channel streams to. */
  others: z.array(watchPlatformSchema),
  last_stream: watchLastStreamSchema.nullable(),
});
export type WatchChannel = z.infer<typeof watchChannelSchema>;
