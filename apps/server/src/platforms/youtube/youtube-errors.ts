/**
 * YouTube's error parser: Google error bodies (`{ error: { code, message, status, errors: [{ reason }], details } }`)
 * to the one PlatformError (see platform-error.ts), keeping Google's `reason` so the connection loop can react
 * (quota, ended chat). Recorded real bodies: youtube-error-fixtures.ts. A 401 reaches this parser only after one
 * refresh was tried.
 */
import { PlatformError, reconnectNeeded, type PlatformFailure } from '../platform-error';

export interface GoogleError {
  /** The first `errors[].reason` (YouTube's own codes), else the ErrorInfo `details[].reason`, else ''. */
  reason: string;
  /** Google's RPC status ("PERMISSION_DENIED", "UNAUTHENTICATED"), else ''. */
  status: string;
  message: string;
}

export function googleError(body: unknown): GoogleError {
  if (body && typeof body === 'object' && 'error' in body && body.error && typeof body.error === 'object') {
    const error = body.error as { message?: unknown; errors?: unknown; status?: unknown; details?: unknown };
    const first = Array.isArray(error.errors) ? (error.errors[0] as { reason?: unknown } | undefined) : undefined;
    const info = Array.isArray(error.details)
      ? (error.details as { reason?: unknown }[]).find((d) => d && typeof d.reason === 'string')
      : undefined;
    const reason = typeof first?.reason === 'string' ? first.reason : typeof info?.reason === 'string' ? info.reason : '';
    return {
      reason,
      status: typeof error.status === 'string' ? error.status : '',
      message: typeof error.message === 'string' ? error.message.replace(/<[^>]+>/g, '') : '',
    };
  }
  return { reason: '', status: '', message: '' };
}

/** The daily API quota is used up (it resets at midnight Pacific time). */
export function isQuotaError(error: unknown): error is PlatformError {
  return error instanceof PlatformError && (error.reason === 'quotaExceeded' || error.reason === 'dailyLimitExceeded');
}

/** The live chat is gone (ended, disabled, unknown): find the live broadcast again. */
export function isChatGone(error: unknown): error is PlatformError {
  return (
    error instanceof PlatformError &&
    (error.reason === 'liveChatEnded' || error.reason === 'liveChatNotFound' || error.reason === 'liveChatDisabled')
  );
}

const insufficientScope = /insufficient authentication scopes/i;

export function parseYoutubeError(failure: PlatformFailure, what: string): PlatformError {
  const { status } = failure;
  const { reason, message, status: rpcStatus } = googleError(failure.body);
  const detail = message || `HTTP ${status}`;
  const fail = (code: PlatformError['code'], text: string, fallbackReason: string) =>
    new PlatformError(code, 'youtube', text, {
      reason: reason || fallbackReason,
      ...(code === 'rate_limited' ? { retryAfterSeconds: failure.retryAfterSeconds ?? null } : {}),
    });
  switch (reason) {
    case 'insufficientPermissions':
    case 'ACCESS_TOKEN_SCOPE_INSUFFICIENT':
      return reconnectNeeded('youtube', 'missing scope youtube.force-ssl, reconnect YouTube to grant it', 'insufficient_scope');
    case 'youtubeSignupRequired':
      return fail('refused', 'This Google account has no YouTube channel: create one on YouTube, then reconnect.', reason);
    case 'quotaExceeded':
    case 'dailyLimitExceeded':
      return fail(
        'rate_limited',
        `The YouTube API quota for today is used up, so Greenroom cannot ${what} until it resets (midnight Pacific time).`,
        reason,
      );
    case 'rateLimitExceeded':
    case 'userRateLimitExceeded':
      return fail('rate_limited', `YouTube is rate limiting Greenroom, wait a moment and try again to ${what}.`, reason);
    case 'liveChatEnded':
      return fail('refused', `Cannot ${what}: the YouTube live chat has ended.`, reason);
    case 'liveChatDisabled':
      return fail('refused', `Cannot ${what}: the live chat is disabled on this YouTube broadcast.`, reason);
    case 'liveChatNotFound':
      return fail('not_found', `Cannot ${what}: YouTube does not know this live chat any more.`, reason);
    case 'modificationNotAllowed':
      return fail('refused', 'YouTube does not allow deleting messages of the channel owner or its moderators.', reason);
    case 'liveChatBanNotFound':
      return fail('not_found', 'YouTube does not know this ban any more (it may have expired or been lifted in YouTube Studio).', reason);
    case 'liveChatMessageNotFound':
      return fail('not_found', 'YouTube does not know this message (it may already be deleted).', reason);
    case 'invalidTitle':
      return fail('refused', 'YouTube refused the title: at most 100 characters, without < or >.', reason);
    case 'invalidCategoryId':
      return fail('refused', 'YouTube refused the category.', reason);
    case 'messageTextInvalid':
      return fail('refused', 'YouTube refused the message: it is empty or longer than 200 characters.', reason);
    default:
      break;
  }
  if (status === 401) return reconnectNeeded('youtube', 'the token was refused');
  if (status === 403 && rpcStatus === 'PERMISSION_DENIED' && insufficientScope.test(message))
    return reconnectNeeded('youtube', 'missing scope youtube.force-ssl, reconnect YouTube to grant it', 'insufficient_scope');
  if (status === 403) return fail('refused', `YouTube did not allow Greenroom to ${what}: ${detail}`, 'forbidden');
  if (status === 404) return fail('not_found', `YouTube could not ${what}: ${detail}`, 'notFound');
  if (status === 429)
    return fail('rate_limited', `YouTube is rate limiting Greenroom, wait a moment and try again to ${what}.`, 'rateLimited');
  if (status >= 500) return fail('temporary', `YouTube failed to ${what} (HTTP ${status}), try again.`, 'backendError');
  return fail('refused', `YouTube refused to ${what}: ${detail}`, 'badRequest');
}
