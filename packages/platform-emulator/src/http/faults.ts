/** Applies faults set through the control API to matching requests (one global onRequest hook). */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Fault, Platform, World } from '../world';
import { authorizationCredentials } from './params';
import { platformOfPath } from './platform-of-path';

const statusText: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function httpStatusText(status: number): string {
  return statusText[status] ?? 'Error';
}

/** The platform's own error body for a status (used by status and rate-limit faults). */
export function platformErrorBody(platform: Platform | null, status: number, retryAfterSeconds: number): unknown {
  const text = httpStatusText(status);
  switch (platform) {
    case 'twitch':
      return { error: text, status, message: status === 429 ? 'Too Many Requests' : text };
    case 'youtube': {
      const reason = status === 429 ? 'rateLimitExceeded' : status >= 500 ? 'backendError' : 'badRequest';
      const message = status === 429 ? 'The request cannot be completed because you have exceeded your quota.' : text;
      return { error: { code: status, message, errors: [{ message, domain: status === 429 ? 'youtube.quota' : 'global', reason }] } };
    }
    case 'kick':
      return { data: {}, message: text };
    case 'tiktok':
      return {
        data: {},
        error: { code: status === 429 ? 'rate_limit_exceeded' : 'internal_error', message: text, log_id: `${Date.now()}` },
      };
    case 'spotify':
      return { error: { status, message: status === 429 ? 'API rate limit exceeded' : text } };
    case 'discord':
      return status === 429
        ? { message: 'You are being rate limited.', retry_after: retryAfterSeconds, global: false }
        : { message: text, code: 0 };
    case null:
      return { error: text, status };
  }
}

function tokenOf(authorization: string | undefined): string | undefined {
  return authorizationCredentials(authorization, ['bearer', 'oauth']);
}

async function applyFault(
  world: World,
  fault: Fault,
  platform: Platform | null,
  authorization: string | undefined,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  switch (fault.kind) {
    case 'slow':
      await sleep(fault.delayMs ?? 2000);
      return undefined;
    case 'status': {
      const status = fault.status ?? 500;
      return reply.code(status).send(platformErrorBody(platform, status, 1));
    }
    case 'rate_limit': {
      const waitSeconds = Math.max(1, Math.ceil((fault.delayMs ?? 1000) / 1000));
      const resetAt = Math.ceil(Date.now() / 1000) + waitSeconds;
      if (platform === 'twitch')
        reply.header('ratelimit-limit', '800').header('ratelimit-remaining', '0').header('ratelimit-reset', String(resetAt));
      else reply.header('retry-after', String(waitSeconds));
      return reply.code(429).send(platformErrorBody(platform, 429, waitSeconds));
    }
    case 'expire_tokens':
    case 'revoke_tokens': {
      if (!platform) return undefined;
      const accessToken = tokenOf(authorization);
      const token = accessToken ? world.tokens.get(accessToken) : undefined;
      const targets = token ? [token] : world.tokensOf(platform);
      for (const t of targets) {
        if (fault.kind === 'expire_tokens') t.expiresAt = new Date(Date.now() - 1000);
        else world.revokeToken(t);
      }
      return undefined;
    }
  }
}

export function registerFaultHook(app: FastifyInstance, world: World): void {
  app.addHook('onRequest', async (request, reply) => {
    if (world.faults.length === 0 || request.url.startsWith('/_emulator')) return;
    const platform = platformOfPath(request.url);
    const fault = world.takeFault(platform, request.url);
    if (!fault) return;
    const result = await applyFault(world, fault, platform, request.headers.authorization, reply);
    if (result) return result;
  });
}
