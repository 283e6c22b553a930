/**
 * Real Google / YouTube Data API error answers, as recorded in public bug reports (source beside each), with the
 * PlatformError code (and Google reason) the parser must give. Add the body of every new failure seen here.
 */
import type { PlatformErrorCode } from '../platform-error';

export interface YoutubeErrorFixture {
  name: string;
  source: string;
  status: number;
  body: unknown;
  code: PlatformErrorCode;
  reason: string | null;
  message: RegExp;
}

const quotaMessage =
  'The request cannot be completed because you have exceeded your \u003ca href="/youtube/v3/getting-started#quota"\u003equota\u003c/a\u003e.';

export const youtubeErrorFixtures: YoutubeErrorFixture[] = [
  {
    name: 'daily quota used up',
    source: 'https://github.com/ShareX/ShareX/issues/4477',
    status: 403,
    body: {
      error: { code: 403, message: quotaMessage, errors: [{ message: quotaMessage, domain: 'youtube.quota', reason: 'quotaExceeded' }] },
    },
    code: 'rate_limited',
    reason: 'quotaExceeded',
    message: /quota for today is used up/,
  },
  {
    name: 'token without the needed scope (errors[] reason)',
    source: 'https://github.com/m3talstorm/ymi.js/issues/1',
    status: 403,
    body: {
      error: {
        code: 403,
        message: 'Insufficient Permission: Request had insufficient authentication scopes.',
        errors: [
          {
            domain: 'global',
            reason: 'insufficientPermissions',
            message: 'Insufficient Permission: Request had insufficient authentication scopes.',
          },
        ],
      },
    },
    code: 'insufficient_scope',
    reason: null,
    message: /YouTube needs to be reconnected: missing scope/,
  },
  {
    name: 'token without the needed scope (RPC status only, no errors[])',
    source: 'https://github.com/kwent/react-google-contacts/issues/6',
    status: 403,
    body: { error: { code: 403, message: 'Request had insufficient authentication scopes.', status: 'PERMISSION_DENIED' } },
    code: 'insufficient_scope',
    reason: null,
    message: /missing scope/,
  },
  {
    name: 'no credentials',
    source: 'https://github.com/1v/dislike-truck/issues/32',
    status: 401,
    body: {
      error: {
        code: 401,
        message:
          'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        errors: [{ message: 'Login Required.', domain: 'global', reason: 'required', location: 'Authorization', locationType: 'header' }],
        status: 'UNAUTHENTICATED',
      },
    },
    code: 'auth_revoked',
    reason: null,
    message: /YouTube needs to be reconnected/,
  },
  {
    name: 'Google account without a YouTube channel',
    source: 'https://github.com/tokland/youtube-upload/issues/333',
    status: 401,
    body: {
      error: {
        code: 401,
        message: 'Unauthorized',
        errors: [
          {
            message: 'Unauthorized',
            domain: 'youtube.header',
            reason: 'youtubeSignupRequired',
            location: 'Authorization',
            locationType: 'header',
          },
        ],
      },
    },
    code: 'refused',
    reason: 'youtubeSignupRequired',
    message: /has no YouTube channel/,
  },
  {
    name: 'live chat ended (the reason YouTube gives when polling an ended chat)',
    source: 'https://github.com/shughes-uk/python-youtubechat/issues/15',
    status: 403,
    body: { error: { code: 403, message: 'The live chat is no longer live.', errors: [{ reason: 'liveChatEnded' }] } },
    code: 'refused',
    reason: 'liveChatEnded',
    message: /live chat has ended/,
  },
];
