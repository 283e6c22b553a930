import { z } from 'zod';

/** Error body of every failed API call: `{ type, message }`. */
export const errorTypes = [
  'bad_request',
  'validation_error',
  'unauthenticated',
  'user_no_longer_exists',
  'forbidden',
  'not_found',
  'conflict',
  /** The thing existed but can no longer be used (expired, used or revoked invitation). */
  'gone',
  'unsupported',
  'rate_limited',
  'provider_error',
  'internal_error',
] as const;
export type ErrorType = (typeof errorTypes)[number];

export const errorBodySchema = z.object({ type: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
