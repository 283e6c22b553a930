import { expect, test, type Page } from '@playwright/test';
import { connectNewStreamer, consentAsNewAccount, emulatorControl, signInWithChannel, uniqueName, popupClosed } from './support';

/**
 * The Song Requests page in the browser: the not-connected state, Spotify connected through the Platforms page's
 * popup (authorization code with PKCE), the rules form, requests typed in Twitch chat showing live, remove (with the
 * keyboard) and skip. `SHOTS_DIR` saves screenshots at 1280 and 390 px.
 */

const shotsDir = process.env.SHOTS_DIR;
async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  await page.screenshot({ path: `${shotsDir}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shotsDir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.use({ viewport: { width: 1280, height: 800 } });

async function openSongRequests(page: Page): Promise<void> {
  const nav = page.getByRole('navigation');
  const link = nav.getByRole('link', { name: 'Song Requests', exact: true });
  // The navigation renders after the session loads: wait for the group before reading whether it is open.
  await expect(nav.getByText('Chatbot', { exact: true })).toBeVisible();
  if (!(await link.isVisible())) await nav.getByText('Chatbot', { exact: true }).click();
  await link.click();
  await expect(page.getByRole('heading', { name: 'Song Requests', exact: true })).toBeVisible();
}

/** A new Twitch viewer types `text` in the streamer's chat. */
async function chat(streamerId: string, text: string): Promise<void> {
  const viewer = await emulatorControl<{ id: string }>('POST', '/_emulator/accounts', {
    platform: 'twitch',
    kind: 'viewer',
    displayName: uniqueName('Fan'),
  });
  await emulatorControl('POST', '/_emulator/chat', { platform: 'twitch', channel: streamerId, text, user: viewer.id });
}

test('connect Spotify, take requests from chat live, remove one with the keyboard and skip', async ({ page }) => {
  test.setTimeout(180_000);
  const channelId = await signInWithChannel(page);
  await openSongRequests(page);
  await expect(page.getByRole('heading', { name: 'Spotify is not connected' })).toBeVisible({ timeout: 30_000 });
  await shot(page, 'song-requests-not-connected');

  // Connect Spotify from the Platforms page (popup, consent as a new Spotify account).
  await page.getByRole('link', { name: 'Go to Platforms' }).click();
  await page.waitForURL(`**/channels/${channelId}/providers`);
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Connect Spotify', exact: true }).click(),
  ]);
  await consentAsNewAccount(popup, uniqueName('Listener'));
  await popupClosed(popup);
  await expect(page.getByText('Spotify connected successfully')).toBeVisible({ timeout: 30_000 });

  // Twitch chat is where the requests come from.
  const streamer = await connectNewStreamer(page, channelId, 'twitch');
  await openSongRequests(page);
  await expect(page.getByRole('region', { name: 'Now playing' }).getByText('From the streamer’s Spotify')).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('heading', { name: 'No requests waiting' })).toBeVisible();

  // Turn requests on (free, so no points are involved here).
  const rules = page.getByRole('form', { name: 'Song request rules' });
  await rules.getByRole('switch', { name: 'Take song requests (!sr)' }).check({ force: true });
  await rules.getByRole('textbox', { name: 'Cost in points' }).fill('0');
  await rules.getByRole('button', { name: 'Save rules' }).click();
  await expect(page.getByText('Song request rules saved')).toBeVisible();

  // Requests typed in chat appear without a reload (three songs other than the one playing).
  const playingText = await page.getByRole('region', { name: 'Now playing' }).innerText();
  const [first, second, third] = ['Lo-Fi Sunrise', 'Midnight Queue', 'Snowfall Study', 'Cozy Rain'].filter((n) => !playingText.includes(n));
  for (const name of [first, second, third]) await chat(streamer.id, `!sr ${name}`);
  const waiting = page.getByRole('table', { name: 'Song requests waiting' });
  for (const name of [first!, second!, third!])
    await expect(waiting.getByRole('link', { name, exact: true })).toBeVisible({ timeout: 45_000 });
  await expect(waiting.getByRole('row')).toHaveCount(4);
  await shot(page, 'song-requests');

  // Remove the second with the keyboard: it leaves the list and shows under Recent as removed.
  const remove = waiting.getByRole('button', { name: new RegExp(`^Remove ${second!} requested by `) });
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(`${second!} removed`)).toBeVisible();
  await expect(waiting.getByRole('link', { name: second!, exact: true })).toHaveCount(0);
  const recent = page.getByRole('table', { name: 'Recent song requests' });
  await expect(recent.getByRole('row').filter({ hasText: second! }).getByText('Removed', { exact: true })).toBeVisible();

  // Skip: Spotify moves on to the requests (the first one, or the last if the first had already started), which the
  // page shows playing; the removed one is never played.
  const nowPlaying = page.getByRole('region', { name: 'Now playing' });
  await nowPlaying.getByRole('button', { name: 'Skip' }).click();
  await expect(page.getByText('Skipped', { exact: true })).toBeVisible();
  await expect(nowPlaying.getByText(/^Requested by /)).toBeVisible({ timeout: 30_000 });
  await expect(nowPlaying.getByText(second!)).toHaveCount(0);
  // The product learns what Spotify plays by polling it: on a loaded machine that takes a while.
  await expect(waiting.getByRole('link', { name: first!, exact: true })).toHaveCount(0, { timeout: 30_000 });
  await shot(page, 'song-requests-after-skip');
});
