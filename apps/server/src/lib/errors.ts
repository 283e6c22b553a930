import type { ErrorType } from '@greenroom/contracts/errors';

/** The one error type of the server: a code (`type`), a user-facing message and an HTTP status. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, 'bad_request', message);
export const unauthenticated = (message = 'You need to sign in.') => new AppError(401, 'unauthenticated', message);
export const forbidden = (message = 'You do not have access to this.') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const gone = (message: string) => new AppError(410, 'gone', message);
export const unsupported = (message: string) => new AppError(422, 'unsupported', message);
export const unavailable = (message: string) => new AppError(503, 'unavailable', message);
