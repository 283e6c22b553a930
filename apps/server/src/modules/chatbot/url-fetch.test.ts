import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, urlFetch, URLFETCH_MAX_BYTES, UrlFetchError } from './url-fetch';

let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/text') return res.writeHead(200, { 'content-type': 'text/plain' }).end('  hello\n world  ');
    if (req.url === '/big') return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(10_000));
    if (req.url === '/html') return res.writeHead(200, { 'content-type': 'image/png' }).end('png');
    if (req.url === '/slow') return setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('late'), 3000);
    if (req.url === '/redirect') return res.writeHead(302, { location: '/text' }).end();
    if (req.url === '/away') return res.writeHead(302, { location: 'http://10.0.0.1/' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const loopbackAllowed = { allowAddress: (a: string) => a === '127.0.0.1' };

describe('urlfetch', () => {
  it('refuses private, loopback, link-local and odd addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('never reaches loopback without the test allowance, and only http(s)', async () => {
    await expect(urlFetch(`${base}/text`)).rejects.toThrow('address not allowed');
    await expect(urlFetch('file:///etc/passwd')).rejects.toThrow('only http and https');
    await expect(urlFetch('not a url')).rejects.toThrow(UrlFetchError);
    await expect(urlFetch('http://user:pw@example.com/')).rejects.toThrow('no credentials');
    await expect(urlFetch('http://internal.example/', { resolve: async () => [{ address: '10.0.0.5', family: 4 }] })).rejects.toThrow(
      'address not allowed',
    );
  });

  it('reads text, collapses whitespace, caps the size, follows checked redirects', async () => {
    expect(await urlFetch(`${base}/text`, loopbackAllowed)).toBe('hello world');
    expect((await urlFetch(`${base}/big`, loopbackAllowed)).length).toBeLessThanOrEqual(URLFETCH_MAX_BYTES);
    expect(await urlFetch(`${base}/redirect`, loopbackAllowed)).toBe('hello world');
    await expect(urlFetch(`${base}/away`, loopbackAllowed)).rejects.toThrow('address not allowed');
    await expect(urlFetch(`${base}/html`, loopbackAllowed)).rejects.toThrow('not text');
    await expect(urlFetch(`${base}/missing`, loopbackAllowed)).rejects.toThrow('HTTP 404');
  });

  it('gives up after 2 seconds', async () => {
    const started = Date.now();
    await expect(urlFetch(`${base}/slow`, loopbackAllowed)).rejects.toThrow('timed out');
    expect(Date.now() - started).toBeLessThan(2900);
  });
});
