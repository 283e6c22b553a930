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

/** A 64×64 GIF (one colour), made here: the smallest real picture a streamer could upload. */
function gif64(): Buffer {
  const header = Buffer.from('GIF89a', 'latin1');
  const screen = Buffer.from([64, 0, 64, 0, 0x80, 0, 0, 0x40, 0xc0, 0x57, 0xff, 0xff, 0xff]);
  const image = Buffer.from([0x2c, 0, 0, 0, 0, 64, 0, 64, 0, 0]);
  // LZW, code size 2: 4096 pixels of colour 0 as literal codes, a clear code before every two (the codes stay 3 bits wide).
  const codes: number[] = [];
  for (let i = 0; i < 4096; i++) {
    if (i % 2 === 0) codes.push(4);
    codes.push(0);
  }
  codes.push(5);
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const c of codes) {
    acc |= c << bits;
    bits += 3;
    while (bits >= 8) {
      bytes.push(acc & 0xff);
      acc >>= 8;
      bits -= 8;
    }
  }
  if (bits) bytes.push(acc);
  const blocks: number[] = [2];
  for (let i = 0; i < bytes.length; i += 255) blocks.push(Math.min(255, bytes.length - i), ...bytes.slice(i, i + 255));
  blocks.push(0);
  return Buffer.concat([header, screen, image, Buffer.from(blocks), Buffer.from([0x3b])]);
}

/** A short WAV of silence. */
function wav(): Buffer {
  const samples = 4000;
  const b = Buffer.alloc(44 + samples, 0x80);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + samples, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(samples, 40);
  return b;
}

test('an alert shows an uploaded GIF and has its uploaded sound; an SVG is refused', async ({ page, browser, baseURL }) => {
  const url = await createFromMenu(page, 'Alert box');
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  const imageInput = page.locator('input[type="file"][accept^="image/"]').first();
  await imageInput.setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  });
  await expect(page.getByText('SVG images are not accepted: use a PNG, JPEG, GIF or WebP image')).toBeVisible();
  await imageInput.setInputFiles({ name: 'party.gif', mimeType: 'image/gif', buffer: gif64() });
  await expect(page.getByText('party.gif uploaded')).toBeVisible();
  await expect(page.getByLabel('Image or GIF', { exact: true }).first()).toHaveValue(/party\.gif/);
  await page
    .locator('input[type="file"][accept^="audio/"]')
    .first()
    .setInputFiles({ name: 'ding.wav', mimeType: 'audio/wav', buffer: wav() });
  await expect(page.getByText('ding.wav uploaded')).toBeVisible();
  await expect(page.getByLabel('Sound', { exact: true }).first()).toHaveValue(/ding\.wav/);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Alert box saved')).toBeVisible();

  const obs = await obsPage(browser, baseURL, url);
  await expect(obs.locator('main[data-state="live"]')).toBeAttached();
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByRole('menuitem', { name: 'Follow' }).click();
  const alert = obs.locator('[data-alert-type="follow"]');
  await expect(alert).toContainText('GreenroomTester just followed!');
  const image = alert.locator('img');
  await expect(image).toHaveAttribute('src', /^\/api\/2\/public\/widget-media\/[0-9a-f]{64}$/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
  const sound = await alert.getAttribute('data-sound');
  expect(sound).toMatch(/^\/api\/2\/public\/widget-media\/[0-9a-f]{64}$/);
  // Served to the session-less page with the type found in its bytes, cached for good.
  const served = await obs.evaluate(async (u) => {
    const r = await fetch(u);
    return { status: r.status, type: r.headers.get('content-type'), cache: r.headers.get('cache-control') };
  }, sound!);
  expect(served).toEqual({ status: 200, type: 'audio/wav', cache: 'public, max-age=31536000, immutable' });
  await obs.screenshot({ path: 'test-results/widgets-alert-media.png', omitBackground: true });
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

test('giveaway, viewer queue and emote wall widgets follow the channel live, in the page and the editor preview', async ({
  page,
  browser,
  baseURL,
}) => {
  // A giveaway: how to enter, the entries as viewers type the keyword, the winner once drawn.
  const giveawayUrl = await createFromMenu(page, 'Giveaway');
  const obs = await obsPage(browser, baseURL, giveawayUrl);
  await expect(obs.locator('main[data-state="live"]')).toBeAttached();
  const g = await api<{ id: string }>(page, 'POST', `/api/2/channels/${channelId}/giveaways`, {
    title: 'Signed poster',
    keyword: '!poster',
  });
  await api(page, 'POST', `/api/2/channels/${channelId}/giveaways/${g.id}/open`);
  const giveaway = obs.getByRole('region', { name: 'Giveaway' });
  await expect(giveaway).toContainText('Signed poster');
  await expect(giveaway).toContainText('Type !poster in chat to enter');
  await expect(giveaway).toContainText('0 entries');
  await expect(page.getByRole('region', { name: 'Widget preview' })).toContainText('Type !poster in chat to enter');
  await emulator('POST', '/_emulator/chat', { platform: 'twitch', channel: STREAMERS.twitch, text: '!poster' });
  await expect(giveaway).toContainText('1 entry', { timeout: 20_000 });
  await api(page, 'POST', `/api/2/channels/${channelId}/giveaways/${g.id}/close`);
  await api(page, 'POST', `/api/2/channels/${channelId}/giveaways/${g.id}/draw`);
  await expect(giveaway.getByRole('list', { name: 'Winners' }).getByRole('listitem')).toHaveCount(1);
  await obs.screenshot({ path: 'test-results/widgets-giveaway.png', omitBackground: true });
  await obs.context().close();

  // A viewer queue: viewers join from chat on two platforms, the streamer picks the first.
  const queueUrl = await createFromMenu(page, 'Viewer queue');
  const q = await api<{ id: string }>(page, 'POST', `/api/2/channels/${channelId}/queues`, { name: 'Viewer games' });
  await api(page, 'POST', `/api/2/channels/${channelId}/queues/${q.id}/status`, { status: 'open' });
  const queuePage = await obsPage(browser, baseURL, queueUrl);
  const queue = queuePage.getByRole('region', { name: 'Viewer queue' });
  await expect(queue).toContainText('Viewer games');
  await emulator('POST', '/_emulator/chat', { platform: 'twitch', channel: STREAMERS.twitch, text: '!join' });
  await emulator('POST', '/_emulator/chat', { platform: 'kick', channel: STREAMERS.kick, text: '!join' });
  const line = queue.getByRole('list', { name: 'Next up' }).getByRole('listitem');
  await expect(line).toHaveCount(2, { timeout: 20_000 });
  await expect(queue).toContainText('2 waiting');
  await expect(page.getByRole('region', { name: 'Widget preview' }).getByRole('listitem')).toHaveCount(2);
  await queuePage.screenshot({ path: 'test-results/widgets-queue.png', omitBackground: true });
  await api(page, 'POST', `/api/2/channels/${channelId}/queues/${q.id}/pick`, { mode: 'next' });
  await expect(line).toHaveCount(1);
  await expect(line.first()).toContainText('1');
  await queuePage.context().close();

  // An emote wall: Twitch emotes from chat fly (at most the per-message number), plain text does not. The crowd stops
  // chatting in this channel first: its emotes would fly too.
  await emulator('PUT', '/_emulator/crowd/rate', { platform: 'twitch', channel: STREAMERS.twitch, rate: 0 });
  const emotesUrl = await createFromMenu(page, 'Emote wall');
  const wall = await obsPage(browser, baseURL, emotesUrl);
  await expect(wall.locator('main[data-state="live"]')).toBeAttached();
  await emulator('POST', '/_emulator/chat', { platform: 'twitch', channel: STREAMERS.twitch, text: 'Kappa hello PogChamp' });
  await expect(wall.locator('img[data-emote="Kappa"]')).toBeAttached();
  await expect(wall.locator('img[data-emote="PogChamp"]')).toBeAttached();
  await expect(wall.locator('img[data-emote]')).toHaveCount(2);
  await wall.screenshot({ path: 'test-results/widgets-emotes.png', omitBackground: true });
  // They leave after their duration.
  await expect(wall.locator('img[data-emote]')).toHaveCount(0, { timeout: 15_000 });
  await wall.context().close();
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
