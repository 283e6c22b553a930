import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn, uniqueName } from './support';

/**
 * An OBS widget page across a real server restart: the product runs as its own process on data kept on disk; the
 * alert box is open in a session-less browser; the server stops and starts again, and an alert is sent while the page
 * is away (its network held off). The page comes back live by itself and shows that alert once — and never again the
 * one it showed before the restart.
 */

const port = Number(process.env.E2E_PORT ?? 3200) + 5;
const origin = `http://localhost:${port}`;
let dataDir = '';
let server: ChildProcess | null = null;

async function start(): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The embedded database in DATA_DIR, kept across the restart.
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      EMULATOR: 'true',
      EMULATOR_PORT: String(port + 1),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  server = child;
  for (const deadline = Date.now() + 90_000; ; await new Promise((r) => setTimeout(r, 200))) {
    if (child.exitCode !== null) throw new Error('the server exited at start');
    if (Date.now() > deadline) throw new Error('the server did not start');
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
  }
}

async function stop(): Promise<void> {
  const child = server;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
  server = null;
}

/** An API call from inside the signed-in page (bearer token and anti-forgery header, as the app sends them). */
async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = localStorage.getItem('greenroom.access_token');
      const xsrf = /(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1];
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (xsrf) headers['X-XSRF-TOKEN'] = decodeURIComponent(xsrf);
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
    { method, url, body },
  );
}

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'greenroom-e2e-widgets-restart-'));
  await start();
});

test.afterAll(async () => {
  await stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('an alert box survives a server restart and shows the alert it missed, once', async ({ browser }) => {
  test.setTimeout(240_000);
  const editor = await (await browser.newContext({ baseURL: origin })).newPage();
  await signIn(editor);
  const channelId = (await api<{ id: string }>(editor, 'POST', '/api/2/channels', { display_name: uniqueName('Restart') })).id;
  const widget = await api<{ id: string; token: string }>(editor, 'POST', `/api/2/channels/${channelId}/widgets`, { type: 'alerts' });
  const sendTest = (type: string) =>
    api<{ id: string }>(editor, 'POST', `/api/2/channels/${channelId}/widgets/${widget.id}/test`, { type });

  // OBS: no session; every alert shown is counted by its id.
  const obsContext = await browser.newContext({ viewport: { width: 900, height: 400 } });
  await obsContext.addInitScript(() => {
    const shown: Record<string, number> = {};
    (window as unknown as { __shown: Record<string, number> }).__shown = shown;
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes)
          if (n instanceof HTMLElement && n.dataset.alertId) shown[n.dataset.alertId] = (shown[n.dataset.alertId] ?? 0) + 1;
    }).observe(document, { childList: true, subtree: true });
  });
  const obs = await obsContext.newPage();
  await obs.goto(`${origin}/widget/${widget.token}`);
  await expect(obs.locator('main[data-state="live"]')).toBeAttached();
  const shown = () => obs.evaluate(() => ({ ...(window as unknown as { __shown: Record<string, number> }).__shown }));

  const before = await sendTest('follow');
  await expect(obs.locator(`[data-alert-id="${before.id}"]`)).toContainText('GreenroomTester just followed!');

  // The network goes away and the server restarts meanwhile; an alert is sent while the page cannot reach it.
  await obsContext.setOffline(true);
  await stop();
  await expect(obs.locator('main[data-state="reconnecting"]')).toBeAttached();
  await start();
  const missed = await sendTest('raid');
  await obsContext.setOffline(false);

  await expect(obs.locator('main[data-state="live"]')).toBeAttached({ timeout: 60_000 });
  await expect(obs.locator(`[data-alert-id="${missed.id}"]`)).toContainText('GreenroomTester is raiding with 42 viewers!', {
    timeout: 20_000,
  });
  await obs.screenshot({ path: 'test-results/widgets-after-restart.png', omitBackground: true });
  // Live again, and each alert was shown once.
  const after = await sendTest('cheer');
  await expect(obs.locator(`[data-alert-id="${after.id}"]`)).toContainText('GreenroomTester cheered 500 bits!', { timeout: 20_000 });
  expect(await shown()).toEqual({ [before.id]: 1, [missed.id]: 1, [after.id]: 1 });
  await obsContext.close();
  await editor.context().close();
});
