import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { emulatorControl as emulator, signIn, topLeftAlpha, uniqueName } from './support';

/**
 * Stream widgets as a streamer uses them: the editor in one browser, the widget's OBS URL in another (no session),
 * events from the editor's test button and from the platforms (the emulator) arriving live.
 */

type Platform = 'twitch' | 'kick' | 'youtube';
const PLATFORMS: Platform[] = ['twitch', 'kick', 'youtube'];
/** Streamer accounts created for this file (an emulator account joins one channel per run). */
const stamp = Date.now().toString(36);
const STREAMERS: Record<Platform, string> = { twitch: `widgetsgg${stamp}`, kick: `widgetskick${stamp}`, youtube: `widgetsyt${stamp}` };

/** An API call from inside the signed-in page, with the app's bearer token and anti-forgery header. */
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

async function connect(page: Page, channelId: string, platform: Platform): Promise<void> {
  const back = `/channels/${channelId}`;
  const { url } = await api<{ url: string }>(
    page,
    'GET',
    `/api/2/${platform}/connect-chat-url?channel_id=${channelId}&redirect_to=${encodeURIComponent(back)}`,
  );
  const authorize = new URL(url);
  authorize.searchParams.set('emulator_account', STREAMERS[platform]);
  await page.goto(authorize.toString());
  await page.waitForURL((u) => u.pathname === back);
}

let channelId = '';
const storageState = path.join(os.tmpdir(), `greenroom-e2e-widgets-${process.ppid}.json`);
const channelFile = path.join(os.tmpdir(), `greenroom-e2e-widgets-${process.ppid}.channel`);
if (!existsSync(channelFile)) writeFileSync(storageState, JSON.stringify({ cookies: [], origins: [] }));

test.use({ storageState });

test.beforeAll(async ({ browser, baseURL }) => {
  if (existsSync(channelFile)) {
    [channelId] = readFileSync(channelFile, 'utf8').split('\n') as [string];
    Object.assign(STREAMERS, JSON.parse(readFileSync(channelFile, 'utf8').split('\n')[1]!) as Record<Platform, string>);
    return;
  }
  for (const platform of PLATFORMS) {
    await emulator('POST', '/_emulator/accounts', {
      platform,
      kind: 'streamer',
      login: STREAMERS[platform],
      displayName: `Widgets ${platform}`,
    });
    await emulator('POST', `/_emulator/channels/${platform}/${STREAMERS[platform]}/live`, { live: true });
  }
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page);
  const id = (await api<{ id: string }>(page, 'POST', '/api/2/channels', { display_name: uniqueName('Widgets') })).id;
  for (const platform of PLATFORMS) await connect(page, id, platform);
  await context.storageState({ path: storageState });
  await context.close();
  channelId = id;
  writeFileSync(channelFile, `${id}\n${JSON.stringify(STREAMERS)}`);
});

/**
 * The alpha of a PNG's top-left pixel (8-bit RGBA). Whatever a row's filter, its first pixel is stored as is
 * (every predictor of the first pixel of the first row is 0).
 */
/** A browser with no session at all, like OBS. */
async function obsPage(browser: Browser, baseURL: string | undefined, url: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

/** Creates a widget from the list page's menu and lands in its editor; returns its OBS URL. */
async function createFromMenu(page: Page, label: string): Promise<string> {
  await page.goto(`/channels/${channelId}/widgets`);
  await expect(page.getByRole('heading', { name: 'Stream Widgets', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New widget' }).first().click();
  await page.getByRole('menuitem', { name: new RegExp(label) }).click();
  await page.waitForURL(/\/widgets\/[0-9a-f-]{36}$/);
  const url = await page.getByRole('textbox', { name: 'Widget URL' }).inputValue();
  expect(url).toMatch(/\/widget\/[\w-]{40,}$/);
  return url;
}

test('an alert box shows a test follow from the editor and a real follow, each leaving after its duration; alerts queue', async ({
  page,
  browser,
  baseURL,
}) => {
  const url = await createFromMenu(page, 'Alert box');
  // Shorter alerts for the test: 3 s each.
  for (const type of ['follow', 'raid', 'cheer']) {
    await page.getByRole('button', { name: { follow: 'Follow', raid: 'Raid', cheer: 'Cheer' }[type], exact: true }).click();
    const duration = page.getByRole('textbox', { name: 'Duration' }).last();
    await duration.fill('3');
  }
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Alert box saved')).toBeVisible();

  const obs = await obsPage(browser, baseURL, url);
  await expect(obs.locator('main[data-state="live"]')).toBeAttached();
  // Transparent: nothing but the widget is painted.
  expect(await obs.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
  expect(topLeftAlpha(await obs.screenshot({ omitBackground: true }))).toBe(0);
  expect(await obs.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);

  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByRole('menuitem', { name: 'Follow' }).click();
  const alert = obs.locator('[data-alert-type="follow"]');
  await expect(alert).toContainText('GreenroomTester just followed!');
  // The editor's preview shows it too.
  await expect(page.getByRole('region', { name: 'Widget preview' })).toContainText('GreenroomTester just followed!');
  await obs.screenshot({ path: 'test-results/widgets-alert.png', omitBackground: true });
  await expect(alert).toHaveCount(0, { timeout: 6_000 });

  // A real follow on Twitch.
  await emulator('POST', '/_emulator/events', { platform: 'twitch', channel: STREAMERS.twitch, type: 'follow' });
  await expect(obs.locator('[data-alert-type="follow"]')).toContainText('just followed!');
  await expect(obs.locator('[data-alert-type="follow"]')).not.toContainText('GreenroomTester');
  await expect(obs.locator('[data-alert-type="follow"]')).toHaveCount(0, { timeout: 6_000 });

  // Two alerts at once: the second waits until the first has left.
  await api(page, 'POST', `/api/2/channels/${channelId}/widgets/${page.url().split('/').pop()}/test`, { type: 'raid' });
  await api(page, 'POST', `/api/2/channels/${channelId}/widgets/${page.url().split('/').pop()}/test`, { type: 'cheer' });
  await expect(obs.locator('[data-alert-type="raid"]')).toContainText('GreenroomTester is raiding with 42 viewers!');
  await expect(obs.locator('[data-alert-type]')).toHaveCount(1);
  await expect(obs.locator('[data-alert-type="cheer"]')).toContainText('GreenroomTester cheered 500 bits!', { timeout: 8_000 });
  await expect(obs.locator('[data-alert-type="raid"]')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/widgets-editor.png', fullPage: true });
  await obs.context().close();
});

test('a chat box shows messages from three platforms and hides commands', async ({ page, browser, baseURL }) => {
  const url = await createFromMenu(page, 'Chat box');
  const obs = await obsPage(browser, baseURL, url);
  await expect(obs.locator('main[data-state="live"]')).toBeAttached();
  const tag = uniqueName('hi');
  for (const platform of PLATFORMS)
    await emulator('POST', '/_emulator/chat', { platform, channel: STREAMERS[platform], text: `${tag} from ${platform}` });
  await emulator('POST', '/_emulator/chat', { platform: 'twitch', channel: STREAMERS.twitch, text: `!${tag} command` });
  const log = obs.getByRole('log', { name: 'Chat' });
  for (const platform of PLATFORMS)
    await expect(log.locator(`[data-provider="${platform}"]`).filter({ hasText: `${tag} from ${platform}` })).toBeVisible();
  await expect(log).not.toContainText(`!${tag} command`);
  await obs.screenshot({ path: 'test-results/widgets-chat.png', omitBackground: true });
  await obs.context().close();
});

test('an event list and a goal bar move with a live follow', async ({ page, browser, baseURL }) => {
  const eventsUrl = await createFromMenu(page, 'Event list');
  const goalUrl = await createFromMenu(page, 'Goal bar');
  const events = await obsPage(browser, baseURL, eventsUrl);
  const goal = await events.context().newPage();
  await goal.goto(goalUrl);
  await expect(events.locator('main[data-state="live"]')).toBeAttached();
  await expect(goal.locator('main[data-state="live"]')).toBeAttached();
  const bar = goal.getByRole('progressbar', { name: 'Follower goal' });
  const before = Number(await bar.getAttribute('aria-valuenow'));
  await emulator('POST', '/_emulator/events', { platform: 'kick', channel: STREAMERS.kick, type: 'follow' });
  await expect(events.getByRole('list', { name: 'Events' }).getByRole('listitem').first()).toContainText('followed');
  await expect(bar).toHaveAttribute('aria-valuenow', String(before + 1));
  await goal.screenshot({ path: 'test-results/widgets-goal.png', omitBackground: true });
  await events.screenshot({ path: 'test-results/widgets-events.png', omitBackground: true });
  await events.context().close();
});

test('a new URL stops the old one at once', async ({ page, browser, baseURL }) => {
  const url = await createFromMenu(page, 'Alert box');
  const obs = await obsPage(browser, baseURL, url);
  await expect(obs.locator('main[data-state="live"]')).toBeAttached();
  await page.getByRole('button', { name: 'New URL' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'New URL' }).click();
  await expect(page.getByText('New widget URL ready')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Widget URL' })).not.toHaveValue(url);
  // The open page is told at once and stops.
  await expect(obs.locator('main[data-state="gone"]')).toBeAttached();
  await obs.reload();
  await expect(obs.locator('main[data-state="gone"]')).toBeAttached();
  await expect(obs.locator('[data-widget-type]')).toHaveCount(0);
  // The widget page has no session: the rest of the API stays closed to it.
  const other = await obs.evaluate(async (id) => (await fetch(`/api/2/channels/${id}/widgets`)).status, channelId);
  expect(other).toBe(401);
  await obs.context().close();

  // The list and, on a phone, the editor.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/widgets-editor-mobile.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('link', { name: 'Stream Widgets' }).first().click();
  await expect(page.getByRole('table', { name: 'Widgets' })).toBeVisible();
  await page.screenshot({ path: 'test-results/widgets-list.png' });
});
