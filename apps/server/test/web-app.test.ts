/** The built web app served by the API process: files, the SPA fallback, and API 404s that stay JSON. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper';

let t: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'greenroom-web-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Greenroom</title><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  t = await createTestApp({ webDist: dist });
});

afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

it('serves hashed assets as immutable and app routes as index.html that is always revalidated', async () => {
  const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
  expect(asset.statusCode).toBe(200);
  expect(asset.headers['cache-control']).toContain('immutable');
  for (const url of ['/', '/channels/123/chat', '/sign-in?next=%2Fchannels']) {
    const page = await t.app.inject({ method: 'GET', url });
    expect(page.statusCode, url).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
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
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(404);
    expect(res.json()).toMatchObject({ type: 'not_found' });
  }
});
