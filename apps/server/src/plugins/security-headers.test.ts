import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders, securityHeaders } from './security-headers';

const options = { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameSrc: ["'self'", 'https://player.twitch.tv'] } } };

describe('security headers', () => {
  it("are Helmet's, with the policy given", () => {
    const headers = new Map(securityHeaders(options));
    expect(headers.get('content-security-policy')).toContain("frame-src 'self' https://player.twitch.tv");
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('are sent on every response, also on errors and unknown routes', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, options);
    app.get('/ok', async () => ({ ok: true }));
    app.get('/fails', async () => {
      throw new Error('no');
    });
    for (const url of ['/ok', '/fails', '/missing']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    await app.close();
  });
});
