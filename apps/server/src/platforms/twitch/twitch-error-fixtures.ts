/**
 * Real Helix error answers, as recorded in public bug reports (source beside each), with the PlatformError code
 * the parser must give. Add the body of every new Helix failure seen in the wild here.
 */
import type { PlatformErrorCode } from '../platform-error';

export interface ErrorFixture {
  name: string;
  /** Where the answer was recorded. */
  source: string;
  status: number;
  /** The raw body, as twurple's HTTP error carries it. */
  body: string;
  code: PlatformErrorCode;
  message: RegExp;
}

export const twitchErrorFixtures: ErrorFixture[] = [
  {
    name: 'token missing',
    source: 'https://github.com/twitchdev/issues/issues/1060',
    status: 401,
    body: '{"error": "Unauthorized", "status": 401, "message": "OAuth token is missing"}',
    code: 'auth_revoked',
    message: /OAuth token is missing/,
  },
  {
    name: 'missing scope (with an empty data array)',
    source: 'https://github.com/twitchdev/issues/issues/836',
    status: 401,
    body: '{"data": [], "error": "Unauthorized", "message": "missing scope moderator:read:follows", "status": 401}',
    code: 'insufficient_scope',
    message: /needs to be reconnected: missing scope moderator:read:follows/,
  },
  {
    name: 'ban with an invalid user id',
    source: 'https://github.com/twitchdev/issues/issues/746',
    status: 400,
    body: '{"error":"Bad Request","status":400,"message":"One of broadcaster ID, user ID or the moderator ID is invalid."}',
    code: 'refused',
    message: /^Twitch refused: One of broadcaster ID/,
  },
  {
    name: 'invalid login names',
    source: 'https://github.com/3dproger/AxelChat/issues/74',
    status: 400,
    body: '{"error":"Bad Request","status":400,"message":"Invalid login names, emails or IDs in request"}',
    code: 'refused',
    message: /Invalid login names/,
  },
  {
    name: 'delete a message without moderator rights',
    source: 'https://github.com/twitchdev/issues/issues/659',
    status: 403,
    body: '{\n  "error": "Forbidden",\n  "message": "You don\'t have permission to perform that action.",\n  "status": 403\n}',
    code: 'refused',
    message: /You don't have permission/,
  },
  {
    name: 'internal error with an empty message',
    source: 'https://github.com/twitchdev/issues/issues/592',
    status: 500,
    body: '{"error":"Internal Server Error","status":500,"message":""}',
    code: 'temporary',
    message: /Twitch answered HTTP 500/,
  },
];
