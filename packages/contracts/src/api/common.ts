import { z } from 'zod';

/** Cursor-paginated list body: `records`, `cursor` (null at the end), optional `total`. */
export function paginated<T extends z.ZodType>(record: T) {
  return z.object({ records: z.array(record), cursor: z.string().nullable(), total: z.number().int().optional() });
}
export interface Paginated<T> {
  records: T[];
  cursor: string | null;
  total?: number;
}

export const idSchema = z.string().min(1).max(64);
export const isoDate = z.string();

/** A same-origin path such as `/channels/abc?x=1` (never `//host` or `https://…`). */
export const sameOriginPath = z
  .string()
  .max(2000)
  .refine((v) => v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/\\'), {
    message: 'must be a path on this site, starting with "/"',
  });
