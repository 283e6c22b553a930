/** Helix request plumbing: error envelopes, token + Client-Id checks, scope checks and rate-limit headers. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpStatusText } from '../http/faults';
import { authorizationCredentials } from '../http/params';
import type { Token, World } from '../world';
import type { HelixRateLimiter } from './rate-limit';

export function helixError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send({ error: httpStatusText(status), status, message });
}

export interface HelixAuthOptions {
  /** Every listed scope is required. */
  scopes?: string[];
  /** A user access token is required (app tokens are refused). */
  user?: boolean;
}

export interface HelixDeps {
  world: World;
  rateLimiter: HelixRateLimiter;
}

/** Checks the request like Helix does; sends the error and returns null when it fails. */
export function helixAuth(deps: HelixDeps, request: FastifyRequest, reply: FastifyReply, options: HelixAuthOptions = {}): Token | null {
  const accessToken = authorizationCredentials(request.headers.authorization, ['bearer']);
  const clientIdHeader = request.headers['client-id'];
  const clientId = Array.isArray(clientIdHeader) ? clientIdHeader[0] : clientIdHeader;
  if (!accessToken) {
    helixError(reply, 401, 'OAuth token is missing');
    return null;
  }
  if (!clientId) {
    helixError(reply, 401, 'Client ID is missing');
    return null;
  }
  const check = deps.world.checkToken('twitch', accessToken);
  if (!check.ok) {
    helixError(reply, 401, 'Invalid OAuth token');
    return null;
  }
  const { token } = check;
  if (token.clientId !== clientId) {
    helixError(reply, 401, 'Client ID and OAuth token do not match');
    return null;
  }
  const bucket = deps.rateLimiter.take(`${token.clientId}:${token.userId ?? 'app'}`);
  reply
    .header('ratelimit-limit', String(bucket.limit))
    .header('ratelimit-remaining', String(bucket.remaining))
    .header('ratelimit-reset', String(bucket.reset));
  if (!bucket.allowed) {
    helixError(reply, 429, 'Too Many Requests');
    return null;
  }
  if (options.user && token.userId === null) {
    helixError(reply, 401, 'Missing User OAUTH Token');
    return null;
  }
  for (const scope of options.scopes ?? []) {
    if (!token.scopes.includes(scope)) {
      helixError(reply, 401, `Missing scope: ${scope}`);
      return null;
    }
  }
  return token;
}

/** Cursor pagination over an in-memory list (opaque base64 offsets like Helix's). */
export function paginate<T>(
  items: T[],
  query: { first?: string; after?: string },
  maxFirst = 100,
): { page: T[]; cursor: string | undefined } | { error: string } {
  const first = query.first === undefined ? 20 : Number(query.first);
  if (!Number.isInteger(first) || first < 1 || first > maxFirst)
    return {
      error: `The parameter "first" was malformed: the value must be greater than or equal to 1 and less than or equal to ${maxFirst}`,
    };
  let offset = 0;
  if (query.after) {
    const decoded = Number(Buffer.from(query.after, 'base64url').toString('utf8').replace(/^o:/, ''));
    if (!Number.isInteger(decoded) || decoded < 0) return { error: 'The parameter "after" was malformed' };
    offset = decoded;
  }
  const page = items.slice(offset, offset + first);
  const next = offset + first;
  return { page, cursor: next < items.length ? Buffer.from(`o:${next}`).toString('base64url') : undefined };
}
