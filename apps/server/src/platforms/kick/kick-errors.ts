/**
 * Kick's error parser: maps a failed public-API call (`{ data: {}, message }` bodies) to the one
 * AppError of the server. 401 is handled by the client (refresh once, then reconnect needed).
 */
import { AppError } from '../../lib/errors';
import { ReauthRequiredError } from '../oauth-client';

export interface KickErrorContext {
  /** What the call was for, in the user's words ("send the message", "ban the user"). */
  what: string;
  /** The scope the call needs; a 403 without it on the token means the connection must be renewed. */
  scope: string | null;
  tokenScopes: readonly string[];
}

export function kickErrorMessage(body: unknown): string | null {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' && body.message.trim() !== '')
    return body.message;
  return null;
}

export function parseKickError(status: number, body: unknown, context: KickErrorContext): AppError {
  const detail = kickErrorMessage(body) ?? `HTTP ${status}`;
  if (status === 401) return new ReauthRequiredError('kick', 'the token was refused');
  if (status === 403) {
    if (context.scope && !context.tokenScopes.includes(context.scope)) {
      return new ReauthRequiredError('kick', `missing scope ${context.scope}, reconnect Kick to grant it`);
    }
    return new AppError(
      403,
      'forbidden',
      `Kick did not allow Greenroom to ${context.what}: the account must be the broadcaster or a moderator of the channel.`,
    );
  }
  if (status === 404) return new AppError(404, 'not_found', `Kick could not ${context.what}: not found (${detail}).`);
  if (status === 429)
    return new AppError(429, 'rate_limited', `Kick is rate limiting Greenroom, wait a moment and try again to ${context.what}.`);
  if (status >= 500) return new AppError(502, 'provider_error', `Kick failed to ${context.what} (HTTP ${status}), try again.`);
  return new AppError(400, 'bad_request', `Kick refused to ${context.what}: ${detail}.`);
}
