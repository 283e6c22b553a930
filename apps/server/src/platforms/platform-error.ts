/**
 * The one error the platform layer throws for a failed platform call. Each platform has an error
 * parser (`<platform>/<platform>-errors.ts`, tested against recorded real error bodies) that turns
 * the platform's answer into a PlatformError with one of these codes; the error plugin
 * (plugins/errors.ts) maps the code to HTTP, once, for every platform:
 *
 *  - `temporary`          the platform failed or could not be reached; trying again later may work (502)
 *  - `rate_limited`       too many calls or the quota is used up; `retryAfterSeconds` when the platform says (429)
 *  - `auth_revoked`       the platform refused the stored token for good: the connection must be reconnected (409)
 *  - `insufficient_scope` the token lacks a permission the call needs: reconnect to grant it (409)
 *  - `not_found`          the platform does not know the thing (message, ban, channel) (404)
 *  - `refused`            the platform understood and said no (not a moderator, chat ended, message dropped) (422)
 *
 * "Reconnect needed" is deliberately not a 401: a 401 tells the web app that the user's own session ended.
 * `message` is shown to users as it is; `reason` keeps the platform's own code (Google's `reason`, Twitch's drop code)
 * for the adapter's loops to react to (quota, ended chat).
 */
import { providers, type ProviderId } from '@greenroom/contracts/providers';

export const platformErrorCodes = ['temporary', 'rate_limited', 'auth_revoked', 'insufficient_scope', 'not_found', 'refused'] as const;
export type PlatformErrorCode = (typeof platformErrorCodes)[number];

export interface PlatformErrorOptions {
  /** The platform's own error code or reason, when it gives one. */
  reason?: string | null;
  /** Seconds to wait before trying again (rate limits), when the platform says. */
  retryAfterSeconds?: number | null;
  cause?: unknown;
}

export class PlatformError extends Error {
  readonly reason: string | null;
  readonly retryAfterSeconds: number | null;

  constructor(
    readonly code: PlatformErrorCode,
    readonly provider: ProviderId,
    message: string,
    options: PlatformErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PlatformError';
    this.reason = options.reason ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }

  /** The stored credential cannot be used any more: the user must reconnect the platform. */
  get needsReconnect(): boolean {
    return this.code === 'auth_revoked' || this.code === 'insufficient_scope';
  }
}

/** "{Platform} needs to be reconnected: {detail}" — the token was refused for good. */
export function reconnectNeeded(
  provider: ProviderId,
  detail: string,
  code: 'auth_revoked' | 'insufficient_scope' = 'auth_revoked',
): PlatformError {
  return new PlatformError(code, provider, `${providers[provider].name} needs to be reconnected: ${detail}`);
}

/** True for a PlatformError asking for the connection to be reconnected. */
export function isReconnectNeeded(error: unknown): error is PlatformError {
  return error instanceof PlatformError && error.needsReconnect;
}

/** The platform could not be reached at all (network error, timeout). */
export function unreachable(provider: ProviderId, what: string, cause: unknown): PlatformError {
  return new PlatformError('temporary', provider, `${providers[provider].name} could not be reached to ${what}, try again.`, { cause });
}

/** The platform answered something we cannot read (a contract change or a proxy page). */
export function unreadable(provider: ProviderId, what: string): PlatformError {
  return new PlatformError('temporary', provider, `${providers[provider].name} sent an unreadable answer when trying to ${what}.`);
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(headers: { get(name: string): string | null }, now = Date.now()): number | null {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A failed platform answer as the error parsers read it. */
export interface PlatformFailure {
  status: number;
  /** The parsed JSON body, or null when empty or not JSON. */
  body: unknown;
  retryAfterSeconds?: number | null;
}
