/**
 * Real answers of Kick's public API, as recorded in Kick's developer-docs issue tracker (source beside each), with
 * the PlatformError code the parser must give. Add the body of every new Kick failure seen in the wild here.
 */
import type { PlatformErrorCode } from '../platform-error';

export interface KickErrorFixture {
  name: string;
  source: string;
  status: number;
  body: unknown;
  /** The scope the call needed and the token's scopes (a 403 without the scope asks for reconnecting). */
  scope?: string;
  tokenScopes?: string[];
  code: PlatformErrorCode;
  message: RegExp;
}

export const kickErrorFixtures: KickErrorFixture[] = [
  {
    name: 'token refused when sending a chat message',
    source: 'https://github.com/KickEngineering/KickDevDocs/issues/253',
    status: 401,
    body: { data: {}, message: 'Unauthorized' },
    code: 'auth_revoked',
    message: /Kick needs to be reconnected/,
  },
  {
    name: 'channel not found (detail in data)',
    source: 'https://github.com/KickEngineering/KickDevDocs/issues/143',
    status: 400,
    body: { data: 'Channel not found', message: 'Bad request' },
    code: 'refused',
    message: /Kick refused to send the message: Channel not found\./,
  },
  {
    name: 'app token without broadcaster_user_id',
    source: 'https://github.com/KickEngineering/KickDevDocs/issues/140',
    status: 400,
    body: { data: 'broadcaster_user_id is required for app tokens', message: 'Bad request' },
    code: 'refused',
    message: /broadcaster_user_id is required for app tokens/,
  },
  {
    name: 'blocked by the edge security policy',
    source: 'https://github.com/KickEngineering/KickDevDocs/issues/281',
    status: 403,
    body: { error: 'Request blocked by security policy.', reference: '9e4db7e3' },
    scope: 'chat:write',
    tokenScopes: ['chat:write'],
    code: 'refused',
    message: /Request blocked by security policy/,
  },
  {
    name: 'forbidden without the scope on the token',
    source: 'https://github.com/KickEngineering/KickDevDocs/issues/277',
    status: 403,
    body: { data: {}, message: 'Forbidden' },
    scope: 'chat:write',
    tokenScopes: ['user:read'],
    code: 'insufficient_scope',
    message: /missing scope chat:write/,
  },
];
