import { z } from 'zod';
import { providers, type ChannelProviderId } from '../providers';

/** Title and category of one connection (title limits: 140 on Twitch and Kick, 100 on YouTube). */
export const streamInfoSchema = z.object({
  title: z.string(),
  category: z.object({ id: z.string(), name: z.string() }).nullable(),
  is_live: z.boolean(),
  viewer_count: z.number().int().nullable(),
  live_stream_id: z.string().nullable(),
});
export type StreamInfoDto = z.infer<typeof streamInfoSchema>;

export const updateStreamInfoBodySchema = z
  .object({ title: z.string().trim().min(1).max(1000).optional(), category_id: z.string().min(1).max(100).optional() })
  .refine((b) => b.title !== undefined || b.category_id !== undefined, { message: 'Give a title or a category_id' });
export type UpdateStreamInfoBody = z.infer<typeof updateStreamInfoBodySchema>;

/**
 * What is wrong with a stream title for this platform, or null: not empty, and at most the platform's limit counted
 * in code points (as the platforms count).
 */
export function streamTitleProblem(provider: ChannelProviderId, title: string): string | null {
  const { name, streamTitleMaxLength: max } = providers[provider];
  const trimmed = title.trim();
  if (trimmed === '') return 'The title cannot be empty.';
  if (max !== null && [...trimmed].length > max) return `${name} titles are limited to ${max} characters.`;
  return null;
}

export const categorySchema = z.object({ id: z.string(), name: z.string(), image_url: z.string().nullable() });
export type CategoryDto = z.infer<typeof categorySchema>;
export const categoryListSchema = z.array(categorySchema);
export const categoriesQuerySchema = z.object({ query: z.string().trim().min(1).max(100) });

/**
 * Every platform at once: a title, and/or a category. The category is a name that each platform matches with its own
 * search (`category_name`), and/or the category id to use on a given connection (`categories`: channel provider id →
 * the platform's category id, e.g. one picked by hand where the name matched nothing or the wrong thing).
 * `channel_provider_ids` limits the change to those connections (default: every connection that can take it).
 */
export const updateAllStreamInfoBodySchema = z
  .object({
    title: z.string().trim().min(1).max(1000).optional(),
    category_name: z.string().trim().min(1).max(100).optional(),
    categories: z.record(z.string().min(1).max(64), z.string().min(1).max(100)).optional(),
    channel_provider_ids: z.array(z.string().min(1).max(64)).min(1).max(20).optional(),
  })
  .refine((b) => b.title !== undefined || b.category_name !== undefined || Object.keys(b.categories ?? {}).length > 0, {
    message: 'Give a title or a category',
  });
export type UpdateAllStreamInfoBody = z.infer<typeof updateAllStreamInfoBodySchema>;

/** The best category for a name among a platform's search results: the exact name (any case), else the first. */
export function pickCategory<C extends { name: string }>(found: readonly C[], name: string): C | null {
  const wanted = name.trim().toLocaleLowerCase();
  return found.find((c) => c.name.toLocaleLowerCase() === wanted) ?? found[0] ?? null;
}

/** A category search on every connection that has categories: each platform's own results, or the error it gave. */
export const categorySearchResultSchema = z.object({
  channel_provider_id: z.string(),
  provider: z.string(),
  categories: categoryListSchema,
  error: z.object({ type: z.string(), message: z.string() }).nullable(),
});
export type CategorySearchResultDto = z.infer<typeof categorySearchResultSchema>;
export const categorySearchResultListSchema = z.object({ results: z.array(categorySearchResultSchema) });

/** One platform's outcome of an update on every platform: its new state, or the error it gave (`{ type, message }`). */
export const streamInfoResultSchema = z.object({
  channel_provider_id: z.string(),
  provider: z.string(),
  ok: z.boolean(),
  info: streamInfoSchema.nullable(),
  error: z.object({ type: z.string(), message: z.string() }).nullable(),
});
export type StreamInfoResultDto = z.infer<typeof streamInfoResultSchema>;
export const streamInfoResultListSchema = z.object({ results: z.array(streamInfoResultSchema) });
