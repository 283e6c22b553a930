import { inflateSync } from 'node:zlib';
import { expect, type Locator, type Page } from '@playwright/test';

let counter = 0;

/** A display name no other test uses (the e2e server keeps its database for the whole run). */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

/** On the emulator's consent page: create a new simulated account and authorize. */
export async function consentAsNewAccount(page: Page, displayName: string): Promise<void> {
  await expect(page.getByRole('heading', { name: /Sign in to/ })).toBeVisible();
  await page.getByLabel('New account display name').fill(displayName);
  await page.getByRole('button', { name: 'Authorize' }).click();
}

/**
 * Until a connect popup has closed. The product closes it as soon as it lands, which on a loaded machine can be before
 * the click that led there has returned: a wait for its 'close' event started then would never end.
 */
export async function popupClosed(popup: Page): Promise<void> {
  // No await between the look and the listener: the event cannot come in between.
  if (popup.isClosed()) return;
  await popup.waitForEvent('close');
}

/**
 * Until the form of this Save button is saved: the button is disabled and not loading (it is disabled while the save
 * runs too, and leaving the page then is leaving unsaved changes). Disabled first: right after the click the button
 * may not be loading yet, and "not loading" alone would pass before the save started.
 */
export async function formSaved(save: Locator): Promise<void> {
  await expect(save).toBeDisabled();
  await expect(save).not.toHaveAttribute('data-loading');
  await expect(save).toBeDisabled();
}

/** Signs in through the sign-in page and the emulator's authorize page, as a new platform account. */
export async function signIn(
  page: Page,
  options: { provider?: 'Twitch' | 'YouTube' | 'Kick'; displayName?: string; next?: string } = {},
): Promise<string> {
  const displayName = options.displayName ?? uniqueName('Streamer');
  await page.goto(options.next ? `/sign-in?next=${encodeURIComponent(options.next)}` : '/sign-in');
  await page.getByRole('link', { name: `Sign in with ${options.provider ?? 'Twitch'}` }).click();
  await consentAsNewAccount(page, displayName);
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in') && !url.pathname.startsWith('/oauth'));
  return displayName;
}

/** The emulator next to the e2e server (playwright.config.ts: port + 1). */
export const EMULATOR_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3200) + 1}`;

/** A call to the emulator's control API (`/_emulator/*`). */
export async function emulatorControl<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${EMULATOR_ORIGIN}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** Signs in and creates a channel; returns its id. */
export async function signInWithChannel(page: Page, channelName: string = uniqueName('Channel ')): Promise<string> {
  await signIn(page, { next: '/create-channel' });
  await page.getByRole('textbox', { name: /name/i }).fill(channelName);
  await page.getByRole('button', { name: /create/i }).click();
  await page.waitForURL(/\/channels\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname.split('/')[2]!;
}

/** An API call from inside the signed-in page, with the app's bearer token and anti-forgery header. */
export async function pageApi<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
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

export interface EmulatorAccount {
  id: string;
  login: string;
  displayName: string;
}

/**
 * Connects a NEW live streamer account of the emulator to the channel (connect-chat-url and the emulator's
 * non-interactive consent), so the test stands alone; returns the account once its chat reaches Greenroom.
 */
export async function connectNewStreamer(page: Page, channelId: string, platform: 'twitch' | 'kick'): Promise<EmulatorAccount> {
  const account = await emulatorControl<EmulatorAccount>('POST', '/_emulator/accounts', {
    platform,
    kind: 'streamer',
    displayName: uniqueName('Live'),
  });
  await emulatorControl('POST', `/_emulator/channels/${platform}/${account.id}/live`, { live: true });
  const back = `/channels/${channelId}`;
  const { url } = await pageApi<{ url: string }>(
    page,
    'GET',
    `/api/2/${platform}/connect-chat-url?channel_id=${channelId}&redirect_to=${encodeURIComponent(back)}`,
  );
  const authorize = new URL(url);
  authorize.searchParams.set('emulator_account', account.login);
  await page.goto(authorize.toString());
  await page.waitForURL((u) => u.pathname === back);
  // Chat reaches Greenroom once the connection has subscribed (Twitch delivers nothing to a subscription not yet made):
  // on a loaded machine that is after the page has landed.
  await expect
    .poll(
      async () => {
        const list = await pageApi<{ provider: string; health: { state: string } | null }[]>(
          page,
          'GET',
          `/api/2/channels/${channelId}/providers`,
        );
        return list.find((p) => p.provider === platform)?.health?.state ?? null;
      },
      { timeout: 30_000 },
    )
    .toBe('connected');
  return account;
}

/**
 * The alpha of the top-left pixel of a PNG screenshot taken with `omitBackground: true`: 0 is see-through. Chromium
 * writes an opaque page as RGB (colour type 2, alpha 255) and a see-through one as RGBA (colour type 6).
 */
export function topLeftAlpha(png: Buffer): number {
  expect(png.readUInt32BE(16) > 0 && png[24] === 8 && (png[25] === 2 || png[25] === 6)).toBe(true);
  if (png[25] === 2) return 255;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return inflateSync(Buffer.concat(idat))[4]!;
}
