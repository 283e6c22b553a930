import { z } from 'zod';

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

export const categorySchema = z.object({ id: z.string(), name: z.string(), image_url: z.string().nullable() });
export type CategoryDto = z.infer<typeof categorySchema>;
export const categoryListSchema = z.array(categorySchema);
export const categoriesQuerySchema = z.object({ query: z.string().trim().min(1).max(100) });
