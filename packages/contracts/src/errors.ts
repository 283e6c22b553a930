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
  /** An upload over its size limit (HTTP 413). */
  'payload_too_large',
  /** An upload of a kind that is not accepted (HTTP 415). */
  'unsupported_media_type',
  'rate_limited',
  /** A platform failed or could not be reached (HTTP 502); trying again later may work. */
  'provider_error',
  /** A platform understood the request and refused it (HTTP 422), e.g. the account is not a moderator there. */
  'provider_refused',
  /** A platform refused the stored token for good or it lacks a permission: reconnect the platform (HTTP 409, never 401). */
  'reconnect_required',
  /** Temporarily unable to take it (the chat log is not accepting writes): try again later (HTTP 503). */
  'unavailable',
  'internal_error',
] as const;
export type ErrorType = (typeof errorTypes)[number];

/**
 * What is wrong with single fields of a request, by the field's path in the body or query (dotted for nested values:
 * `display_name`, `options.0.text`). Forms show each message on its field; `message` still says it for everyone else.
 */
export const fieldErrorsSchema = z.record(z.string(), z.string());
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

export const errorBodySchema = z.object({ type: z.string(), message: z.string(), fields: fieldErrorsSchema.optional() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
