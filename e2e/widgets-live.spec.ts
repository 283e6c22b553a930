import { expect, test, type Browser, type Page } from '@playwright/test';
import { connectNewStreamer, emulatorControl as emulator, pageApi, signInWithChannel, topLeftAlpha, uniqueName } from './support';

/**
 * Widgets fed by something other than alerts: the Spotify now-playing widget following the streamer's Spotify (the
 * emulator's player, driven as its user would: next track, pause, close the app), and a points goal filling up as
 * viewers earn points. Each page is an OBS browser source (no session) beside the editor.
 */

interface PlayerState {
  device: boolean;
  playing: boolean;
  track: { id: string; name: string; artist: string; album: string };
}

/** The emulator's Spotify player of `login`: what it plays, after an optional action. */
const player = (login: string, action: { device?: boolean; playing?: boolean; skip?: boolean } = {}) =>
  emulator<PlayerState>('POST', `/_emulator/spotify/${login}/player`, action);

/** A browser with no session at all, like OBS. */
async function obsPage(browser: Browser, baseURL: string | undefined, url: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.locator('main[data-state="live"]')).toBeAttached();
  // Transparent for OBS: nothing but the widget is painted, and no scrollbars.
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
  expect(topLeftAlpha(await page.screenshot({ omitBackground: true }))).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
  return page;
}

/** Creates a widget from the list page's menu and lands in its editor; returns its OBS URL. */
async function createFromMenu(page: Page, channelId: string, label: string): Promise<string> {
  await page.goto(`/channels/${channelId}/widgets`);
  await expect(page.getByRole('heading', { name: 'Stream Widgets', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New widget' }).first().click();
  await page.getByRole('menuitem', { name: new RegExp(label) }).click();
  await page.waitForURL(/\/widgets\/[0-9a-f-]{36}$/);
  return page.getByRole('textbox', { name: 'Widget URL' }).inputValue();
}

/** The server asks Spotify again every 15 s while a platform is live (and keeps an answer 5 s): changes show within that. */
const SPOTIFY_CHANGE_MS = 45_000;

test('the Spotify now-playing widget follows the streamer’s Spotify live: next track, pause, nothing playing', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const channelId = await signInWithChannel(page, uniqueName('Spotify widget'));
  await connectNewStreamer(page, channelId, 'twitch');

  const url = await createFromMenu(page, channelId, 'Spotify now playing');
  // Not connected yet: the editor says why the widget is empty; the stream shows nothing.
  await expect(page.getByText('Spotify is not connected')).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Spotify is not connected' }).getByRole('link', { name: 'Platforms' }),
  ).toHaveAttribute('href', `/channels/${channelId}/providers`);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.screenshot({ path: `test-results/widgets-spotify-editor-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The streamer connects Spotify (a new account of the emulator, playing from its catalogue).
  const spotify = await emulator<{ login: string }>('POST', '/_emulator/accounts', {
    platform: 'spotify',
    kind: 'streamer',
    displayName: uniqueName('Listener'),
  });
  const back = `/channels/${channelId}`;
  const { url: authorizeUrl } = await pageApi<{ url: string }>(
    page,
    'GET',
    `/api/2/spotify/connect-chat-url?channel_id=${channelId}&redirect_to=${encodeURIComponent(back)}`,
  );
  const authorize = new URL(authorizeUrl);
  authorize.searchParams.set('emulator_account', spotify.login);
  await page.goto(authorize.toString());
  await page.waitForURL((u) => u.pathname === back);

  const first = await player(spotify.login);
  const obs = await obsPage(browser, baseURL, url);
  const widget = obs.locator('[aria-label="Now playing"]');
  await expect(widget.getByTestId('now-playing-title')).toHaveText(first.track.name, { timeout: SPOTIFY_CHANGE_MS });
  await expect(widget.getByTestId('now-playing-artists')).toHaveText(first.track.artist);
  await expect(widget).toHaveAttribute('data-playing', 'true');
  // The progress moves on in the page between the server's answers.
  const progress = widget.getByRole('progressbar', { name: 'Track progress' });
  const at = Number(await progress.getAttribute('aria-valuenow'));
  await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThan(at);
  await obs.locator('[data-widget-type="spotify"]').screenshot({ path: 'test-results/widgets-spotify-widget.png', omitBackground: true });

  // Next track in the Spotify app: the widget changes without a reload.
  const next = await player(spotify.login, { skip: true });
  expect(next.track.id).not.toBe(first.track.id);
  await expect(widget.getByTestId('now-playing-title')).toHaveText(next.track.name, { timeout: SPOTIFY_CHANGE_MS });

  // Paused: shown with a pause sign (the default), the progress standing still.
  await player(spotify.login, { playing: false });
  await expect(widget).toHaveAttribute('data-playing', 'false', { timeout: SPOTIFY_CHANGE_MS });
  await expect(widget.getByLabel('Paused')).toBeVisible();

  // The editor's preview is the same widget on the same live connection.
  await page.goto(`${back}/widgets`);
  await page.getByRole('link', { name: 'Spotify now playing' }).first().click();
  const preview = page.getByRole('region', { name: 'Widget preview' });
  await expect(preview.getByTestId('now-playing-title')).toHaveText(next.track.name);
  await expect(page.getByText('Spotify is not connected')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/widgets-spotify-editor-playing-1280.png', fullPage: true });

  // An idle text, saved in the editor, reaches the open page; closing the Spotify app shows it.
  await page.getByRole('textbox', { name: 'When nothing plays' }).fill('Music is off');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Spotify now playing saved')).toBeVisible();
  await player(spotify.login, { device: false });
  await expect(widget).toHaveText('Music is off', { timeout: SPOTIFY_CHANGE_MS });
  await expect(obs.getByTestId('now-playing-title')).toHaveCount(0);
  await obs.locator('[data-widget-type="spotify"]').screenshot({ path: 'test-results/widgets-spotify-idle.png', omitBackground: true });

  // Playing again (the same account, the same track it stopped on).
  await player(spotify.login, { device: true, playing: true });
  await expect(widget.getByTestId('now-playing-title')).toHaveText(next.track.name, { timeout: SPOTIFY_CHANGE_MS });
  await obs.context().close();
});

test('a points goal fills up live as viewers earn points and shows it reached at the target', async ({ page, browser, baseURL }) => {
  test.setTimeout(240_000);
  const channelId = await signInWithChannel(page, uniqueName('Points goal'));
  const streamer = await connectNewStreamer(page, channelId, 'twitch');
  const fans = await Promise.all(
    [1, 2].map((n) =>
      emulator<{ login: string }>('POST', '/_emulator/accounts', {
        platform: 'twitch',
        kind: 'viewer',
        displayName: uniqueName(`Fan${n}`),
      }),
    ),
  );

  // Only the follows below earn points: the emulator's crowd chats in every channel and sends random subs, gifts,
  // raids and cheers (a resub of 250 once made the count 300), and chat and watch time earn too.
  const settings = await pageApi<Record<string, unknown>>(page, 'GET', `/api/2/channels/${channelId}/points/settings`);
  await pageApi(page, 'PUT', `/api/2/channels/${channelId}/points/settings`, {
    ...settings,
    message_points: 0,
    watch_points_per_minute: 0,
    active_chatter_bonus: 0,
    sub_points: 0,
    resub_points: 0,
    gift_points: 0,
    raid_points: 0,
    cheer_points: 0,
    superchat_points: 0,
    kicks_points: 0,
    tiktok_gift_points: 0,
  });

  const url = await createFromMenu(page, channelId, 'Goal bar');
  await page.getByRole('textbox', { name: 'Title' }).fill('Points for a giveaway');
  await page
    .getByRole('textbox', { name: 'Counts' })
    .or(page.getByRole('combobox', { name: 'Counts' }))
    .click();
  await page.getByRole('option', { name: /^Points earned by viewers/ }).click();
  await page.getByRole('textbox', { name: 'Target' }).fill('100');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('saved')).toBeVisible();

  const obs = await obsPage(browser, baseURL, url);
  const count = obs.getByTestId('goal-count');
  const bar = obs.getByRole('progressbar', { name: 'Points for a giveaway' });
  // Points earned before the settings changed may land after the goal started: count from now.
  await page.getByRole('button', { name: 'Reset count' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('Goal reset')).toBeVisible();
  await expect(count).toHaveText('0 / 100');
  await expect(obs.locator('[data-complete="true"]')).toHaveCount(0);

  // A follow earns the follower 50 points (the channel's default): the open page shows it without a reload.
  await emulator('POST', '/_emulator/events', { platform: 'twitch', channel: streamer.login, type: 'follow', user: fans[0]!.login });
  await expect(count).toHaveText('50 / 100', { timeout: 45_000 });
  await expect(bar).toHaveAttribute('aria-valuenow', '50');
  await obs.locator('[data-widget-type="goal"]').screenshot({ path: 'test-results/widgets-points-goal-half.png', omitBackground: true });

  // The second follow reaches the target: full bar, marked reached.
  await emulator('POST', '/_emulator/events', { platform: 'twitch', channel: streamer.login, type: 'follow', user: fans[1]!.login });
  await expect(count).toHaveText('100 / 100', { timeout: 45_000 });
  await expect(obs.locator('[data-complete="true"]')).toBeVisible();
  await expect(obs.getByLabel('Goal reached')).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuenow', '100');
  await obs.locator('[data-widget-type="goal"]').screenshot({ path: 'test-results/widgets-points-goal-reached.png', omitBackground: true });
  await obs.context().close();
});
