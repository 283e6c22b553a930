import { ApiError } from './api-client';

export const UNKNOWN_ERROR = 'Unknown error';

function messageOfBody(body: unknown): string | null {
  if (body && typeof body === 'object' && 'message' in body) {
    const message = body.message;
    if (typeof message === 'string' && message.trim()) return message;
  }
  return null;
}

/**
 * The text shown for an error: the explicit message if given, else the `message` of the server's
 * response body, else the error's own message, else "Unknown error".
 */
export function errorMessage(error: unknown, explicit?: string | null): string {
  if (explicit?.trim()) return explicit;
  if (error instanceof ApiError) {
    const fromBody = messageOfBody(error.body);
    if (fromBody) return fromBody;
  } else if (error && typeof error === 'object' && 'response' in error) {
    const response = (error as { response?: { data?: unknown } }).response;
    const fromBody = messageOfBody(response?.data);
    if (fromBody) return fromBody;
  }
  if (error instanceof Error && error.message.trim()) return error.message;
  if (typeof error === 'string' && error.trim()) return error;
  const own = messageOfBody(error);
  if (own) return own;
  return UNKNOWN_ERROR;
}
