import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import type { Token } from '../world';

/** Kick's error envelope: `{ data: {}, message }`. */
export function kickError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send({ data: {}, message });
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * Authenticates a Kick API call. Sends Kick's 401 (bad/expired/revoked token) or 403 (missing scope)
 * and returns null when the call must stop.
 */
export function requireKickToken(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply, scope?: string): Token | null {
  const checked = ctx.world.checkToken('kick', bearerToken(request));
  if (!checked.ok) {
    kickError(reply, 401, 'Unauthorized');
    return null;
  }
  if (scope && !checked.token.scopes.includes(scope)) {
    kickError(reply, 403, 'Forbidden');
    return null;
  }
  return checked.token;
}

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID (Kick's webhook message ids are ULIDs). */
export function ulid(now = Date.now(), random: () => number = Math.random): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = crockford[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  let rest = '';
  for (let i = 0; i < 16; i++) rest += crockford[Math.floor(random() * 32)]!;
  return time + rest;
}

/** Kick ids are integers on the wire; world ids are strings. */
export function kickId(id: string): number {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : 0;
}
