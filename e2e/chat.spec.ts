import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn, uniqueName } from './support';

/** The emulator's control API next to the e2e server (playwright.config.ts: port + 1). */
const EMULATOR = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3200) + 1}`;

/** Streamer accounts of the seeded emulator world used by this file only. */
const STREAMERS = { twitch: 'nightowlgg', kick: 'latenightlarry', youtube: 'retrorunner' } as const;
type Platform = keyof typeof STREAMERS;

async function emulator<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${EMULATOR}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

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

/** Connects a platform to the channel through connect-chat-url and the emulator's auto-approve. */
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

async function say(platform: Platform, text: string, user?: string): Promise<{ id: string; authorId: string }> {
  return emulator('POST', '/_emulator/chat', { platform, channel: STREAMERS[platform], text, user });
}

function row(page: Page, text: string) {
  return page.locator('[data-message-id]').filter({ hasText: text });
}

/** The row of a message by its id (its text is hidden once it is removed). */
async function pinned(page: Page, text: string) {
  const line = row(page, text);
  await expect(line).toBeVisible();
  return page.locator(`[data-message-id="${await line.getAttribute('data-message-id')}"]`);
}

let channelId = '';
/** The streamer's signed-in browser state (token in localStorage, cookies), shared by every test here. */
// Keyed by the runner process: a worker restarted after a failure reuses the channel (an emulator
// streamer account is connected to one channel only once per run).
const storageState = path.join(os.tmpdir(), `greenroom-e2e-chat-${process.ppid}.json`);
const channelFile = path.join(os.tmpdir(), `greenroom-e2e-chat-${process.ppid}.channel`);
// Signed out until beforeAll has signed in (the browser fixture applies `storageState` to every context).
if (!existsSync(channelFile)) writeFileSync(storageState, JSON.stringify({ cookies: [], origins: [] }));

test.use({ storageState });

test.beforeAll(async ({ browser, baseURL }) => {
  if (existsSync(channelFile)) {
    channelId = readFileSync(channelFile, 'utf8');
    return;
  }
  // Only what this file injects: no simulated crowd while it runs.
  await emulator('PUT', '/_emulator/crowd/rate', { rate: 0, eventRate: 0 });
  for (const platform of Object.keys(STREAMERS) as Platform[]) {
    await emulator('POST', `/_emulator/channels/${platform}/${STREAMERS[platform]}/live`, { live: true });
  }
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page);
  const id = (await api<{ id: string }>(page, 'POST', '/api/2/channels', { display_name: uniqueName('Chat') })).id;
  for (const platform of Object.keys(STREAMERS) as Platform[]) await connect(page, id, platform);
  await context.storageState({ path: storageState });
  await context.close();
  channelId = id;
  writeFileSync(channelFile, id);
});

test.afterAll(async () => {
  await emulator('PUT', '/_emulator/crowd/rate', { rate: 2, eventRate: 0.05 });
});

test('chat shows messages from three platforms live, with emotes as images', async ({ page }) => {
  await page.goto(`/channels/${channelId}/chat`);
  await expect(page.getByRole('heading', { name: 'Chat', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();

  const tag = uniqueName('hello');
  await say('twitch', `${tag} from twitch Kappa`);
  await say('kick', `${tag} from kick`);
  await say('youtube', `${tag} from youtube`);

  await expect(row(page, `${tag} from twitch`)).toHaveAttribute('data-provider', 'twitch');
  await expect(row(page, `${tag} from kick`)).toHaveAttribute('data-provider', 'kick');
  await expect(row(page, `${tag} from youtube`)).toHaveAttribute('data-provider', 'youtube');
  const emote = row(page, `${tag} from twitch`).getByRole('img', { name: 'Kappa' });
  await expect(emote).toHaveAttribute('src', /^https?:\/\//);
  // Twitch emote images come from the configured emote CDN (the emulator here) and actually load (CSP img-src allows it).
  await expect(emote).toHaveAttribute('src', /\/twitch-cdn\/emoticons\/v2\/25\/default\/dark\/1\.0$/);
  await expect.poll(() => emote.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(28);
});

test('time out, ban, unban and delete from the context menu', async ({ page }) => {
  await page.goto(`/channels/${channelId}/chat`);
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  const tag = uniqueName('mod');
  await say('twitch', `${tag} first`);
  const line = await pinned(page, `${tag} first`);

  // Timeout 10 min via the submenu (opens after the 500 ms delay).
  await line.click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Timeout' }).hover();
  await page.getByRole('menuitem', { name: '10 min' }).click();
  await expect(page.getByText('User timed out for 0:10:00')).toBeVisible();
  await expect(line).toHaveAttribute('data-removed', 'timeout');

  // Ban with the confirmation dialog, then unban.
  await say('twitch', `${tag} second`);
  const second = await pinned(page, `${tag} second`);
  await second.click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Ban', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason (optional)').fill('e2e test');
  await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
  await expect(page.getByText('User banned successfully')).toBeVisible();
  await expect(second).toHaveAttribute('data-removed', 'ban');

  await second.click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Unban' }).click();
  await expect(page.getByText('User unbanned successfully')).toBeVisible();

  // Delete a message through the keyboard-reachable "⋯" button.
  await say('twitch', `${tag} delete me`);
  const doomed = await pinned(page, `${tag} delete me`);
  await doomed.hover();
  await doomed.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Delete message' }).click();
  await expect(page.getByText('Message deleted successfully')).toBeVisible();
  await expect(doomed).toHaveAttribute('data-removed', 'deleted');
  await expect(doomed).toContainText('message deleted');
});

test('scrolling up pauses the live view and the jump button resumes it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto(`/channels/${channelId}/chat`);
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  await emulator('POST', '/_emulator/crowd/burst', { count: 80, platform: 'twitch', channel: STREAMERS.twitch });
  const log = page.getByRole('log', { name: 'Chat messages' });
  await expect.poll(() => log.evaluate((el) => el.scrollHeight > el.clientHeight * 2)).toBe(true);

  await log.hover();
  await page.mouse.wheel(0, -1500);
  const jump = page.getByRole('button', { name: /New messages|back to live/ });
  await expect(jump).toBeVisible();
  const tag = uniqueName('later');
  await say('twitch', `${tag} while paused`);
  await expect(page.getByRole('button', { name: /New messages \(\d+\)/ })).toBeVisible();
  await expect(row(page, `${tag} while paused`)).toHaveCount(0);

  await jump.click();
  await expect(jump).toBeHidden();
  await expect(row(page, `${tag} while paused`)).toBeVisible();
});

test('open a viewer card popout from a message', async ({ page, context }) => {
  await page.goto(`/channels/${channelId}/chat`);
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  const tag = uniqueName('card');
  await say('twitch', `${tag} look at me`);
  const line = row(page, `${tag} look at me`);
  await expect(line).toBeVisible();
  const author = (await line.locator('button').first().textContent())!.trim();

  await line.click({ button: 'right' });
  const [popup] = await Promise.all([context.waitForEvent('page'), page.getByRole('menuitem', { name: 'Open viewer card' }).click()]);
  await popup.waitForLoadState();
  expect(new URL(popup.url()).pathname).toMatch(new RegExp(`^/popout/channels/${channelId}/viewers/twitch/`));
  await expect(popup.getByRole('heading', { name: author, level: 1 })).toBeVisible();
  await expect(popup.getByText('Recent messages')).toBeVisible();
  await expect(popup.getByText(`${tag} look at me`)).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Timeout' })).toBeVisible();
});

test('activity feed shows a raid and a sub live', async ({ page }) => {
  await page.goto(`/channels/${channelId}/activity-feed`);
  await expect(page.getByRole('heading', { name: 'Activity Feed', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();

  await emulator('POST', '/_emulator/events', {
    platform: 'twitch',
    channel: STREAMERS.twitch,
    type: 'raid',
    user: 'pixelpioneer',
    data: { viewers: 42 },
  });
  await emulator('POST', '/_emulator/events', { platform: 'twitch', channel: STREAMERS.twitch, type: 'sub' });

  const feed = page.getByRole('list', { name: 'Activity' });
  await expect(feed.getByRole('listitem').filter({ hasText: 'PixelPioneer raided' })).toBeVisible();
  await expect(feed.getByRole('listitem').filter({ hasText: 'subscribed' }).first()).toBeVisible();
  // Newest first: the sub came after the raid.
  await expect(feed.getByRole('listitem').first()).toContainText('subscribed');
});
