import type { ErrorType, FieldErrors } from '@greenroom/contracts/errors';

/**
 * The one error type of the server: a code (`type`), a user-facing message and an HTTP status. `fields` names the
 * request fields at fault (path → message), so a form can show each message on its field.
 */
export class AppError extends Error {
  readonly fields?: FieldErrors;

  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    options?: { cause?: unknown; fields?: FieldErrors },
  ) {
    super(message, options);
    this.name = 'AppError';
    if (options?.fields) this.fields = options.fields;
  }
}

/** A refused request; `fields` when the refusal is about one field, e.g. `badRequest(msg, { name: msg })`. */
export const badRequest = (message: string, fields?: FieldErrors) => new AppError(400, 'bad_request', message, { fields });
export const unauthenticated = (message = 'You need to sign in.') => new AppError(401, 'unauthenticated', message);
export const forbidden = (message = 'You do not have access to this.') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const gone = (message: string) => new AppError(410, 'gone', message);
export const unsupported = (message: string) => new AppError(422, 'unsupported', message);
export const payloadTooLarge = (message: string) => new AppError(413, 'payload_too_large', message);
export const unsupportedMediaType = (message: string) => new AppError(415, 'unsupported_media_type', message);
export const unavailable = (message: string) => new AppError(503, 'unavailable', message);
