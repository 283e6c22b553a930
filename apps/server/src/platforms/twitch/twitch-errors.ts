/**
 * Twitch's error parser: a failed Helix answer (`{ error, status, message }`, carried by twurple's HTTP error as
 * status + raw body) to the one PlatformError (see platform-error.ts). Recorded real bodies: twitch-error-fixtures.ts.
 * twurple refreshes the token once after a 401 before the error reaches this parser.
 */
import { PlatformError, reconnectNeeded, type PlatformFailure } from '../platform-error';

const missingScope = /missing scope/i;

/** Helix's `message` (the useful part), else the start of the raw body. */
export function twitchMessage(body: unknown): string {
  if (typeof body === 'string') {
    try {
      return twitchMessage(JSON.parse(body) as unknown);
    } catch {
      return body.slice(0, 200) || 'no details';
    }
  }
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' && body.message.trim() !== '')
    return body.message;
  return 'no details';
}

/** Whether the failure says the token lacks a scope (the credential must then be reconnected). */
export function isMissingScope(failure: PlatformFailure): boolean {
  return (failure.status === 401 || failure.status === 403) && missingScope.test(twitchMessage(failure.body));
}

export function parseTwitchError(failure: PlatformFailure, options: { cause?: unknown } = {}): PlatformError {
  const message = twitchMessage(failure.body);
  const cause = options.cause === undefined ? {} : { cause: options.cause };
  if (isMissingScope(failure)) return reconnectNeeded('twitch', message, 'insufficient_scope');
  switch (failure.status) {
    case 400:
      return new PlatformError('refused', 'twitch', `Twitch refused: ${message}`, cause);
    case 401:
      return new PlatformError('auth_revoked', 'twitch', `Twitch refused the account: ${message}`, cause);
    case 403:
      return new PlatformError('refused', 'twitch', `Twitch refused: ${message}`, cause);
    case 404:
      return new PlatformError('not_found', 'twitch', `Twitch: ${message}`, cause);
    case 429:
      return new PlatformError('rate_limited', 'twitch', 'Twitch is rate limiting requests, try again in a moment.', {
        ...cause,
        retryAfterSeconds: failure.retryAfterSeconds ?? null,
      });
    default:
      return new PlatformError('temporary', 'twitch', `Twitch answered HTTP ${failure.status}: ${message}`, cause);
  }
}
