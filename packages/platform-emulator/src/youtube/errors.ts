import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import type { Token } from '../world';

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** Google's JSON error body: `{ error: { code, message, errors: [{ message, domain, reason }], status } }`. */
export function googleError(
  reply: FastifyReply,
  code: number,
  reason: string,
  message: string,
  domain = 'global',
  extra: { location?: string; locationType?: string } = {},
): FastifyReply {
  return reply.code(code).send({
    error: { code, message, errors: [{ message, domain, reason, ...extra }], status: statusNames[code] ?? 'UNKNOWN' },
  });
}

export function googleBearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  return /^Bearer\s+(\S+)$/i.exec(header)?.[1];
}

const scopePrefix = 'https://www.googleapis.com/auth/';

/** Short names of a token's scopes (`youtube.readonly`, `youtube`, `youtube.force-ssl`, …). */
export function shortScopes(token: Token): Set<string> {
  return new Set(token.scopes.map((s) => (s.startsWith(scopePrefix) ? s.slice(scopePrefix.length) : s)));
}

export const readScopes = ['youtube.readonly', 'youtube', 'youtube.force-ssl'];
export const writeScopes = ['youtube', 'youtube.force-ssl'];

/** 401 with Google's body for missing/invalid/expired/revoked tokens, 403 insufficientPermissions for scopes. */
export function requireGoogleToken(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply, anyOf: string[]): Token | null {
  const checked = ctx.world.checkToken('youtube', googleBearer(request));
  if (!checked.ok) {
    reply.header('www-authenticate', 'Bearer realm="https://accounts.google.com/", error="invalid_token"');
    googleError(
      reply,
      401,
      'authError',
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      'global',
      { location: 'Authorization', locationType: 'header' },
    );
    return null;
  }
  const scopes = shortScopes(checked.token);
  if (!anyOf.some((s) => scopes.has(s))) {
    reply.header(
      'www-authenticate',
      `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="${anyOf.map((s) => scopePrefix + s).join(' ')}"`,
    );
    reply.code(403).send({
      error: {
        code: 403,
        message: 'Request had insufficient authentication scopes.',
        errors: [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }],
        status: 'PERMISSION_DENIED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
            domain: 'googleapis.com',
            metadata: { service: 'youtube.googleapis.com', method: 'youtube.api.v3.V3DataService' },
          },
        ],
      },
    });
    return null;
  }
  return checked.token;
}
