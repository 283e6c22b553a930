/**
 * The built web app served by the API process: files (precompressed, by content negotiation), the SPA fallback,
 * caching, no source maps, API 404s that stay JSON; and API answers compressed above a size threshold.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_COMPRESSION_THRESHOLD_BYTES } from '../src/plugins/web-app';
import { createTestApp, type TestApp } from './helper';

let t: TestApp;
let dist: string;

const indexHtml = `<!doctype html><title>Greenroom</title><div id="root"></div>${'<!-- padding -->'.repeat(100)}`;
const appJs = `console.log(${JSON.stringify('x'.repeat(4000))});`;

/** A built file with the `.br` and `.gz` copies the web build writes beside it. */
function writeBuilt(file: string, content: string): void {
  const full = path.join(dist, file);
  writeFileSync(full, content);
  writeFileSync(`${full}.br`, brotliCompressSync(content));
  writeFileSync(`${full}.gz`, gzipSync(content));
}

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'greenroom-web-'));
  mkdirSync(path.join(dist, 'assets'));
  writeBuilt('index.html', indexHtml);
  writeBuilt('assets/index-abc123.js', appJs);
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["secret.ts"]}');
  // Below the build's precompression size: only the file itself exists.
  writeFileSync(path.join(dist, 'assets', 'tiny-def456.js'), 'console.log(0)');
  t = await createTestApp({ webDist: dist });
});

afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the web app', () => {
  it('serves hashed assets as immutable and app routes as index.html that is always revalidated', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['cache-control']).toContain('max-age=31536000');
    for (const url of ['/', '/channels/123/chat', '/sign-in?next=%2Fchannels']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<div id="root">');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
  });

  it('sends the precompressed copy the browser accepts, with Vary: Accept-Encoding', async () => {
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [acceptEncoding, expected] of cases) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });
      expect(res.statusCode, acceptEncoding).toBe(200);
      expect(res.headers['content-encoding'], acceptEncoding).toBe(expected);
      expect(res.headers['content-type'], acceptEncoding).toMatch(/^(text|application)\/javascript/);
      expect(res.headers.vary, acceptEncoding).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control'], acceptEncoding).toContain('immutable');
      const body =
        expected === 'br' ? brotliDecompressSync(res.rawPayload) : expected === 'gzip' ? gunzipSync(res.rawPayload) : res.rawPayload;
      expect(body.toString('utf8'), acceptEncoding).toBe(appJs);
      expect(Number(res.headers['content-length']), acceptEncoding).toBe(res.rawPayload.length);
    }
  });

  it('sends index.html compressed too, still revalidated, on the root and on app routes', async () => {
    for (const url of ['/', '/channels/123/chat']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers.vary, url).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(res.rawPayload).toString('utf8'), url).toBe(indexHtml);
    }
  });

  it('revalidates index.html and unhashed files even without precompressed copies', async () => {
    // A small index.html has no copies: the app routes still get it with no-cache, whatever the browser accepts.
    rmSync(path.join(dist, 'index.html.br'));
    rmSync(path.join(dist, 'index.html.gz'));
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    try {
      for (const url of ['/', '/channels/123/chat', '/favicon.svg']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-encoding'], url).toBeUndefined();
        expect(res.headers['cache-control'], url).toBe('no-cache');
      }
    } finally {
      writeBuilt('index.html', indexHtml);
    }
  });

  it('sends a file without precompressed copies as it is', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/tiny-def456.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('console.log(0)');
  });

  it('never serves source maps, nor the compressed copies by their own names', async () => {
    for (const url of ['/assets/index-abc123.js.map', '/assets/index-abc123.js.br', '/assets/index-abc123.js.gz', '/index.html.br']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ type: 'not_found' });
    }
  });

  it('serves a file written after start (a web build made while the server runs)', async () => {
    writeFileSync(path.join(dist, 'assets', 'index-new456.js'), 'console.log(2)');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-new456.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(2)');
  });

  it('answers unknown API paths and missing files with a JSON 404, not the app', async () => {
    for (const url of ['/api/2/nope', '/assets/missing.js']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ type: 'not_found' });
    }
  });
});

describe('API compression', () => {
  it('compresses JSON above the threshold with the best encoding the client accepts', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(API_COMPRESSION_THRESHOLD_BYTES);

    const br = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());

    const gz = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('sends small bodies as they are', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ ok: true });
  });

  it('does not accept compressed request bodies', async () => {
    const user = await t.createUser();
    const res = await t.inject(user, {
      method: 'POST',
      url: '/api/2/channels',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ display_name: 'Zipped' })),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('leaves websocket upgrades alone', async () => {
    const user = await t.createUser();
    const created = await t.inject(user, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'Sockets' } });
    const channelId = created.json<{ id: string }>().id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${address.port}/api/2/public/channels/${channelId}/chat-ws`, {
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      ws.once('upgrade', (res) => resolve(res.headers));
      ws.once('open', () => ws.close());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)));
      ws.once('error', reject);
    });
    expect(headers['content-encoding']).toBeUndefined();
    expect(headers.upgrade).toBe('websocket');
  });
});
