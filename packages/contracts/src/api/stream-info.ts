import { z } from 'zod';
import { providers, type ChannelProviderId } from '../providers';

/** Title and category of one connection (spec §5 title limits: 140 twitch/kick, 100 youtube). */
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
