/**
 * Kick's error parser: a failed public-API answer to the one PlatformError (see platform-error.ts).
 * Kick answers `{ data, message }` where `message` is the HTTP reason ("Unauthorized", "Bad request") and
 * `data` is the detail when it is a string ("Channel not found"); its edge answers `{ error, reference }`.
 * Recorded real bodies: kick-error-fixtures.ts. A 401 reaches this parser only after one refresh was tried.
 */
import { PlatformError, reconnectNeeded, type PlatformFailure } from '../platform-error';

export interface KickErrorContext {
  /** What the call was for, in the user's words ("send the message", "ban the user"). */
  what: string;
  /** The scope the call needs; a 403 without it on the token means the connection must be renewed. */
  scope: string | null;
  tokenScopes: readonly string[];
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The most useful human detail of a Kick error body: `data` when it is text, else `message`, else the edge's `error`. */
export function kickErrorMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const o = body as Record<string, unknown>;
  return text(o.data) ?? text(o.message) ?? text(o.error);
}

export function parseKickError(failure: PlatformFailure, context: KickErrorContext): PlatformError {
  const { status, body } = failure;
  const detail = kickErrorMessage(body) ?? `HTTP ${status}`;
  if (status === 401) return reconnectNeeded('kick', 'the token was refused');
  if (status === 403) {
    if (context.scope && !context.tokenScopes.includes(context.scope)) {
      return reconnectNeeded('kick', `missing scope ${context.scope}, reconnect Kick to grant it`, 'insufficient_scope');
    }
    return new PlatformError(
      'refused',
      'kick',
      `Kick did not allow Greenroom to ${context.what}: the account must be the broadcaster or a moderator of the channel (${detail}).`,
    );
  }
  if (status === 404) return new PlatformError('not_found', 'kick', `Kick could not ${context.what}: not found (${detail}).`);
  if (status === 429)
    return new PlatformError('rate_limited', 'kick', `Kick is rate limiting Greenroom, wait a moment and try again to ${context.what}.`, {
      retryAfterSeconds: failure.retryAfterSeconds ?? null,
    });
  if (status >= 500) return new PlatformError('temporary', 'kick', `Kick failed to ${context.what} (HTTP ${status}), try again.`);
  return new PlatformError('refused', 'kick', `Kick refused to ${context.what}: ${detail}.`);
}
