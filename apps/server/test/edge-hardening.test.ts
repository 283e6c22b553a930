/**
 * Hardening at the edge: hostile input answered 400 (never 5xx), Fastify's and Node's own refusals as
 * `{ type, message }`, the trusted-proxy setting, and the Origin check of the signed-in websockets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { AccessLevel } from '@greenroom/contracts/access';
import { channelUsers } from '../src/db/schema';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let owner: TestUser;
let channelId: string;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Edge Owner' });
  channelId = (await t.s.channels.create(owner.id, 'Edge channel')).id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t.close());

const errorBody = { type: expect.any(String), message: expect.any(String) };

/** A raw HTTP request over a socket (for what `inject` cannot send: oversized headers). */
function rawRequest(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('hostile input answers 400 with { type, message }', () => {
  it('NUL in a path, a query or a body, also anonymously', async () => {
    const cases = [
      await t.inject(null, { method: 'GET', url: '/api/2/public/channels/%00/chat/messages' }),
      await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?q=%00` }),
      await t.inject(owner, { method: 'GET', url: '/api/2/channels/%00' }),
      await t.inject(owner, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'a\u0000b' } }),
      await t.inject(owner, { method: 'PUT', url: '/api/2/user/settings', payload: { note: 'x\u0000' } }),
    ];
    for (const res of cases) {
      expect(res.statusCode, res.body).toBe(400);
      // A body field's refusal also names the field (`fields`), as every validation error does.
      expect(res.json()).toMatchObject(errorBody);
    }
    expect(cases[0]!.json().message).toBe('Invalid address field "channelId": must not contain NUL characters.');
  });

  it('an empty channel id', async () => {
    const res = await t.inject(owner, { method: 'GET', url: '/api/2/channels/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: 'bad_request', message: 'A channel id is required.' });
  });

  it('a lone surrogate stored in JSON, and deeply nested user settings', async () => {
    const surrogate = await t.inject(owner, {
      method: 'PUT',
      url: '/api/2/user/settings',
      headers: { 'content-type': 'application/json' },
      payload: '{"theme":"\\ud800"}',
    });
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json().message).toBe('Invalid body field "theme": must be valid Unicode text (it has an unpaired surrogate).');

    const depth = 5_000;
    const nested = await t.inject(owner, {
      method: 'PUT',
      url: '/api/2/user/settings',
      headers: { 'content-type': 'application/json' },
      payload: `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json()).toMatchObject({ type: 'bad_request', message: expect.stringMatching(/nested more than 32 levels deep/) });
    // The settings were not touched.
    expect((await t.inject(owner, { method: 'GET', url: '/api/2/user/settings' })).json()).toEqual({});
  });

  it("Fastify's and Node's own refusals: bad percent-encoding 400, a long path parameter 414, huge headers 431", async () => {
    const badUrl = await t.inject(owner, { method: 'GET', url: '/api/2/channels/%E0%A4%A' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({ type: 'bad_request', message: 'The address is not valid: it has broken percent-encoding.' });

    const long = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${'a'.repeat(300)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ type: 'bad_request', message: 'A part of the address is too long.' });

    const huge = await rawRequest('/api/health', { 'x-filler': 'a'.repeat(64 * 1024) });
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body)).toEqual({ type: 'bad_request', message: 'The request headers are too large.' });
  });
});

describe('trusted proxy', () => {
  it('is off by default: a forged X-Forwarded-For does not get past the per-address limit', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await limited.app.inject({
          method: 'GET',
          url: '/api/2/auth/providers',
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('TRUST_PROXY names the proxies whose X-Forwarded-For is believed', async () => {
    const behindProxy = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5', TRUST_PROXY: '127.0.0.1' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await behindProxy.app.inject({
          method: 'GET',
          url: '/api/2/auth/providers',
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200]);
    } finally {
      await behindProxy.close();
    }
  });

  it('caps public chat sockets per real address whatever X-Forwarded-For says', async () => {
    const sockets: WebSocket[] = [];
    const closes: number[] = [];
    try {
      for (let i = 0; i < 21; i++) {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/api/2/public/channels/${channelId}/chat-ws`, {
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
        });
        ws.on('close', (code) => closes.push(code));
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', reject);
        });
        sockets.push(ws);
      }
      await expect.poll(() => closes).toEqual([1013]);
    } finally {
      for (const ws of sockets) ws.terminate();
    }
  });
});

describe('websocket Origin', () => {
  function upgrade(path: string, origin: string | undefined, token?: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, token ? ['greenroom', token] : [], origin ? { origin } : {});
      ws.once('open', () => {
        ws.close();
        resolve(101);
      });
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', reject);
    });
  }

  it("staff sockets open only from PUBLIC_URL's origin", async () => {
    const mod = await t.createUser({ displayName: 'Origin Mod' });
    await t.s.db.insert(channelUsers).values({ channelId, userId: mod.id, level: AccessLevel.MOD });
    for (const path of [`/api/2/channels/${channelId}/chat-ws`, `/api/2/channels/${channelId}/providers-ws`]) {
      expect(await upgrade(path, 'https://evil.example', mod.token)).toBe(403);
      expect(await upgrade(path, 'http://localhost:3001', mod.token)).toBe(403);
      expect(await upgrade(path, 'http://localhost:3000', mod.token)).toBe(101);
    }
  });

  it('the public chat popout socket stays open to any page (public data, no credentials)', async () => {
    expect(await upgrade(`/api/2/public/channels/${channelId}/chat-ws`, 'https://overlay.example')).toBe(101);
  });
});
