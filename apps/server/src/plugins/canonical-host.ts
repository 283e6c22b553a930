import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Sends browsers that opened Greenroom on another host name (`127.0.0.1` while PUBLIC_URL says `localhost`, a bare
 * IP address, an old domain) to PUBLIC_URL, keeping the path and query. Cookies belong to a host name: a sign-in
 * started on one host sets its state cookie there, and the platform returns to PUBLIC_URL's host (the only
 * redirect URI registered with it), where that cookie does not exist, so the sign-in would fail.
 *
 * Only page loads are moved: GET and HEAD outside `/api/`, and browser navigations into it (the sign-in and connect
 * starts, which set the state cookie). API calls, webhooks, health checks and sockets are answered wherever they arrive. A request that came through a proxy without saying which host the browser asked
 * for (`X-Forwarded-For` without `X-Forwarded-Host`) is left alone: its Host header may be the proxy's upstream.
 */
export function registerCanonicalHost(app: FastifyInstance, publicUrl: string): void {
  const canonical = new URL(publicUrl);
  const origin = canonical.origin;
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const api = request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?');
    if (api && request.headers['sec-fetch-mode'] !== 'navigate') return;
    if (!hostIsKnown(request) || sameHost(request.hostname, canonical.hostname)) return;
    return reply.redirect(`${origin}${request.url}`, 307);
  });
}

function hostIsKnown(request: FastifyRequest): boolean {
  const h = request.headers;
  const proxied = h['x-forwarded-for'] !== undefined || h.forwarded !== undefined;
  return !proxied || h['x-forwarded-host'] !== undefined;
}

function sameHost(a: string, b: string): boolean {
  return a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');
}
