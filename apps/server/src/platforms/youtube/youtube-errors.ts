/**
 * YouTube's error parser: Google error bodies (`{ error: { code, message, errors: [{ reason }] } }`)
 * to the server's AppError, keeping Google's `reason` so the connection loop can react (quota,
 * ended chat). 401 is handled by the client (refresh once, then reconnect needed).
 */
import { AppError } from '../../lib/errors';
import { ReauthRequiredError } from '../oauth-client';

/** An AppError from a YouTube call, with Google's error reason. */
export class YoutubeApiError extends AppError {
  constructor(
    status: number,
    type: ConstructorParameters<typeof AppError>[1],
    message: string,
    readonly reason: string,
  ) {
    super(status, type, message);
    this.name = 'YoutubeApiError';
  }

  get isQuota(): boolean {
    return this.reason === 'quotaExceeded' || this.reason === 'dailyLimitExceeded';
  }

  /** The live chat is gone (ended, disabled, unknown): find the live broadcast again. */
  get chatGone(): boolean {
    return this.reason === 'liveChatEnded' || this.reason === 'liveChatNotFound' || this.reason === 'liveChatDisabled';
  }
}

export function googleErrorReason(body: unknown): { reason: string; message: string } {
  if (body && typeof body === 'object' && 'error' in body && body.error && typeof body.error === 'object') {
    const error = body.error as { message?: unknown; errors?: unknown };
    const first = Array.isArray(error.errors) ? (error.errors[0] as { reason?: unknown } | undefined) : undefined;
    return {
      reason: typeof first?.reason === 'string' ? first.reason : '',
      message: typeof error.message === 'string' ? error.message.replace(/<[^>]+>/g, '') : '',
    };
  }
  return { reason: '', message: '' };
}

export function parseYoutubeError(status: number, body: unknown, what: string): AppError {
  const { reason, message } = googleErrorReason(body);
  const detail = message || `HTTP ${status}`;
  if (status === 401) return new ReauthRequiredError('youtube', 'the token was refused');
  switch (reason) {
    case 'insufficientPermissions':
    case 'ACCESS_TOKEN_SCOPE_INSUFFICIENT':
      return new ReauthRequiredError('youtube', 'missing scope youtube.force-ssl, reconnect YouTube to grant it');
    case 'quotaExceeded':
    case 'dailyLimitExceeded':
      return new YoutubeApiError(
        429,
        'rate_limited',
        `The YouTube API quota for today is used up, so Greenroom cannot ${what} until it resets (midnight Pacific time).`,
        reason,
      );
    case 'rateLimitExceeded':
    case 'userRateLimitExceeded':
      return new YoutubeApiError(
        429,
        'rate_limited',
        `YouTube is rate limiting Greenroom, wait a moment and try again to ${what}.`,
        reason,
      );
    case 'liveChatEnded':
      return new YoutubeApiError(409, 'conflict', `Cannot ${what}: the YouTube live chat has ended.`, reason);
    case 'liveChatDisabled':
      return new YoutubeApiError(409, 'conflict', `Cannot ${what}: the live chat is disabled on this YouTube broadcast.`, reason);
    case 'liveChatNotFound':
      return new YoutubeApiError(409, 'conflict', `Cannot ${what}: YouTube does not know this live chat any more.`, reason);
    case 'modificationNotAllowed':
      return new YoutubeApiError(
        403,
        'forbidden',
        'YouTube does not allow deleting messages of the channel owner or its moderators.',
        reason,
      );
    case 'liveChatBanNotFound':
      return new YoutubeApiError(
        404,
        'not_found',
        'YouTube does not know this ban any more (it may have expired or been lifted in YouTube Studio).',
        reason,
      );
    case 'liveChatMessageNotFound':
      return new YoutubeApiError(404, 'not_found', 'YouTube does not know this message (it may already be deleted).', reason);
    case 'invalidTitle':
      return new YoutubeApiError(400, 'validation_error', 'YouTube refused the title: at most 100 characters, without < or >.', reason);
    case 'invalidCategoryId':
      return new YoutubeApiError(400, 'validation_error', 'YouTube refused the category.', reason);
    case 'messageTextInvalid':
      return new YoutubeApiError(
        400,
        'validation_error',
        'YouTube refused the message: it is empty or longer than 200 characters.',
        reason,
      );
    default:
      break;
  }
  if (status === 403)
    return new YoutubeApiError(403, 'forbidden', `YouTube did not allow Greenroom to ${what}: ${detail}`, reason || 'forbidden');
  if (status === 404) return new YoutubeApiError(404, 'not_found', `YouTube could not ${what}: ${detail}`, reason || 'notFound');
  if (status === 429)
    return new YoutubeApiError(
      429,
      'rate_limited',
      `YouTube is rate limiting Greenroom, wait a moment and try again to ${what}.`,
      reason || 'rateLimited',
    );
  if (status >= 500)
    return new YoutubeApiError(502, 'provider_error', `YouTube failed to ${what} (HTTP ${status}), try again.`, reason || 'backendError');
  return new YoutubeApiError(400, 'bad_request', `YouTube refused to ${what}: ${detail}`, reason || 'badRequest');
}
