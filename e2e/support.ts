import { expect, type Page } from '@playwright/test';

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

/** Signs in through the sign-in page and the emulator's authorize page, as a new platform account. */
export async function signIn(page: Page, options: { provider?: 'Twitch' | 'YouTube' | 'Kick'; displayName?: string; next?: string } = {}): Promise<string> {
  const displayName = options.displayName ?? uniqueName('Streamer');
  await page.goto(options.next ? `/sign-in?next=${encodeURIComponent(options.next)}` : '/sign-in');
  await page.getByRole('link', { name: `Sign in with ${options.provider ?? 'Twitch'}` }).click();
  await consentAsNewAccount(page, displayName);
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in') && !url.pathname.startsWith('/oauth'));
  return displayName;
}
