import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { PlatformError, platformErrorCodes } from '../platforms/platform-error';
import { platformErrorHttp, registerErrorHandling } from './errors';

describe('platform errors over HTTP (the one mapping)', () => {
  it('gives every code one status and type; reconnect needed is never a 401', () => {
    const table = Object.fromEntries(platformErrorCodes.map((code) => [code, platformErrorHttp(code)]));
    expect(table).toEqual({
      temporary: { status: 502, type: 'provider_error' },
      rate_limited: { status: 429, type: 'rate_limited' },
      auth_revoked: { status: 409, type: 'reconnect_required' },
      insufficient_scope: { status: 409, type: 'reconnect_required' },
      not_found: { status: 404, type: 'not_found' },
      refused: { status: 422, type: 'provider_refused' },
    });
  });

  it('answers { type, message } with Retry-After when the platform gave one, for every platform alike', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    app.get('/limited', async () => {
      throw new PlatformError('rate_limited', 'kick', 'Kick is rate limiting Greenroom.', { retryAfterSeconds: 30 });
    });
    app.get('/refused/:provider', async (request) => {
      const { provider } = request.params as { provider: 'twitch' | 'youtube' | 'kick' };
      throw new PlatformError('refused', provider, `${provider} said no`);
    });
    const limited = await app.inject('/limited');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('30');
    expect(limited.json()).toEqual({ type: 'rate_limited', message: 'Kick is rate limiting Greenroom.' });
    for (const provider of ['twitch', 'youtube', 'kick']) {
      const res = await app.inject(`/refused/${provider}`);
      expect([res.statusCode, res.json()]).toEqual([422, { type: 'provider_refused', message: `${provider} said no` }]);
    }
    await app.close();
  });
});
