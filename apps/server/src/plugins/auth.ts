import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
// The cookie API this gate uses (request.cookies, reply.setCookie) comes with @fastify/cookie's types.
import type {} from '@fastify/cookie';
import { and, eq } from 'drizzle-orm';
import { AccessLevel, type AccessLevelValue } from '@greenroom/contracts/access';
import type { Db } from '../db/client';
import { channelUsers, channels } from '../db/schema';
import type { Access } from '../lib/access';
import { AppError, badRequest, forbidden, notFound, unauthenticated } from '../lib/errors';
import { hmac, randomToken, safeEqual } from '../lib/crypto';
import type { AuthUser, ChannelStanding, SessionService } from '../modules/auth';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
/** Websocket clients cannot set headers: they offer `greenroom` plus the token as subprotocols. */
export const WS_PROTOCOL = 'greenroom';

export interface AuthContext {
  sessionId: string;
  user: AuthUser;
}

/** One /api route and the access it declares, as collected by the gate (read by the authorization matrix test). */
export interface AccessRoute {
  method: string;
  url: string;
  access: Access;
  /** The route's params schema (zod), used to build valid-looking params. */
  params: unknown;
  websocket: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with its declared access, in registration order. */
    accessRoutes: AccessRoute[];
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The caller's level in `params.channelId`, set by the gate on channel routes. */
    channelLevel: number | null;
    /** The caller's standing in `params.channelId`, read with their session (one query for both). */
    channelStanding: ChannelStanding | null;
  }
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Messages of the gate's refusals (the authorization matrix test tells them apart from a handler's own errors). */
export const GATE_MESSAGES = {
  channelNotFound: 'Channel not found',
  belowLevel: 'Your role in this channel does not allow this.',
  notOperator: 'Only operators can use the admin area.',
  foreignOrigin: 'This live connection may only be opened from Greenroom itself.',
  channelIdRequired: 'A channel id is required.',
} as const;

/** Level an operator gets in channels they are not staff of (support access from the admin area). */
export const OPERATOR_CHANNEL_LEVEL: AccessLevelValue = AccessLevel.ADMIN;

export function bearerFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || null;
  const protocols = request.headers['sec-websocket-protocol'];
  if (typeof protocols === 'string') {
    const parts = protocols.split(',').map((p) => p.trim());
    if (parts[0] === WS_PROTOCOL && parts[1]) return parts[1];
  }
  return null;
}

export function xsrfTokenFor(secret: string, sessionId: string): string {
  const nonce = randomToken(16);
  return `${nonce}.${hmac(secret, `${sessionId}.${nonce}`)}`;
}

function xsrfValid(secret: string, sessionId: string, value: string | undefined): boolean {
  if (!value) return false;
  const [nonce, mac] = value.split('.');
  return Boolean(nonce && mac && safeEqual(mac, hmac(secret, `${sessionId}.${nonce}`)));
}

export function setXsrfCookie(reply: FastifyReply, secret: string, sessionId: string, secure: boolean): void {
  void reply.setCookie(XSRF_COOKIE, xsrfTokenFor(secret, sessionId), { path: '/', sameSite: 'strict', httpOnly: false, secure });
}

/** The one authorization gate: authenticates the bearer session and enforces each route's declared access. */
export function registerAuth(
  app: FastifyInstance,
  deps: {
    db: Db;
    sessions: SessionService;
    cookieSecret: string;
    secureCookies: boolean;
    /** The origin browsers use (PUBLIC_URL's): the only one allowed to open signed-in websockets. */
    publicOrigin: string;
  },
): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('channelLevel', null);
  app.decorateRequest('channelStanding', null);
  const accessRoutes: AccessRoute[] = [];
  app.decorate('accessRoutes', accessRoutes);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const access = route.config?.access;
    if (access === undefined) throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`);
    if (typeof access === 'object' && !route.url.includes(':channelId')) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares channel access without a :channelId parameter`);
    }
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method === 'HEAD') continue;
      accessRoutes.push({ method, url: route.url, access, params: route.schema?.params, websocket: Boolean(route.websocket) });
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access;
    if (access === undefined) return;
    const token = bearerFrom(request);
    if (token) {
      // On a channel route the session and the caller's standing in the channel are read by one statement.
      const channelId = typeof access === 'object' ? (request.params as { channelId?: unknown } | undefined)?.channelId : undefined;
      const found = await deps.sessions.lookup(
        token,
        typeof channelId === 'string' && channelId.length > 0 && channelId.length <= 64 ? channelId : undefined,
      );
      if (found.ok) {
        request.auth = { sessionId: found.sessionId, user: found.user };
        request.channelStanding = found.channel ?? null;
      } else if (access !== 'public')
        throw new AppError(
          401,
          found.type,
          found.type === 'user_no_longer_exists'
            ? 'Your user account no longer exists.'
            : 'Your session has expired, please sign in again.',
        );
    }
    if (access === 'public') return;
    // A signed-in websocket opened by a page of another site is refused (cross-site websocket hijacking).
    // Browsers always send Origin on a websocket upgrade; other clients have no ambient credentials to abuse.
    const origin = request.headers.origin;
    if (request.ws && origin !== undefined && origin !== deps.publicOrigin) throw forbidden(GATE_MESSAGES.foreignOrigin);
    if (!request.auth) throw unauthenticated();
    const cookie = request.cookies[XSRF_COOKIE];
    const cookieOk = xsrfValid(deps.cookieSecret, request.auth.sessionId, cookie);
    if (unsafeMethods.has(request.method)) {
      const header = request.headers[XSRF_HEADER];
      if (!cookieOk || typeof header !== 'string' || !safeEqual(header, cookie ?? '')) {
        throw new AppError(403, 'forbidden', 'Missing or invalid anti-forgery token. Reload the page and try again.');
      }
    } else if (!cookieOk) {
      setXsrfCookie(reply, deps.cookieSecret, request.auth.sessionId, deps.secureCookies);
    }
    if (access === 'operator' && !request.auth.user.isOperator) throw forbidden(GATE_MESSAGES.notOperator);
  });

  // Channel access is decided before input validation, so a caller without the level cannot learn
  // anything from validation errors (and non-members always get the same 404).
  app.addHook('preValidation', async (request) => {
    const access = request.routeOptions.config.access;
    if (access === undefined || typeof access === 'string') return;
    const auth = request.auth;
    if (!auth) throw unauthenticated();
    const channelId = (request.params as { channelId?: unknown } | undefined)?.channelId;
    if (typeof channelId !== 'string')
      throw new Error(`Route ${request.routeOptions.url ?? ''} declares channel access without a :channelId parameter`);
    if (channelId.length === 0) throw badRequest(GATE_MESSAGES.channelIdRequired);
    const standing = request.channelStanding;
    const level =
      channelId.length > 64
        ? null
        : standing?.channelId === channelId
          ? levelOf(auth.user, standing.level, standing.exists)
          : await channelLevel(deps.db, channelId, auth.user);
    if (level == null) throw notFound(GATE_MESSAGES.channelNotFound);
    request.channelLevel = level;
    if (level < access.channel) throw forbidden(GATE_MESSAGES.belowLevel);
  });
}

/** The user's level in a channel, or null when they have none (operators get support access). */
export async function channelLevel(db: Db, channelId: string, user: AuthUser): Promise<number | null> {
  const rows = await db
    .select({ level: channelUsers.level })
    .from(channelUsers)
    .where(and(eq(channelUsers.channelId, channelId), eq(channelUsers.userId, user.id)))
    .limit(1);
  const level = rows[0]?.level ?? null;
  if (user.isOperator) {
    const exists =
      level != null || (await db.select({ id: channels.id }).from(channels).where(eq(channels.id, channelId)).limit(1)).length > 0;
    return levelOf(user, level, exists);
  }
  return level;
}

/** The level a user with staff level `level` (or none) has in a channel that `exists` (or not): operators get support access. */
export function levelOf(user: AuthUser, level: number | null, exists: boolean): number | null {
  if (!user.isOperator) return level;
  return exists ? Math.max(level ?? 0, OPERATOR_CHANNEL_LEVEL) : null;
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}
