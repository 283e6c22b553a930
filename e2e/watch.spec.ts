import { expect, test, type Page } from '@playwright/test';
import { consentAsNewAccount, emulatorControl, signInWithChannel, uniqueName, popupClosed } from './support';

interface EmulatorAccount {
  id: string;
  login: string;
  displayName: string;
}

async function connect(page: Page, platform: 'Twitch' | 'Kick'): Promise<EmulatorAccount> {
  const name = uniqueName(`${platform}Watch`);
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: `Connect ${platform}`, exact: true }).click(),
  ]);
  await consentAsNewAccount(popup, name);
  await popupClosed(popup);
  await expect(page.getByText(`${platform} connected successfully`)).toBeVisible();
  const { data } = await emulatorControl<{ data: EmulatorAccount[] }>('GET', `/_emulator/accounts?platform=${platform.toLowerCase()}`);
  return data.find((a) => a.displayName === name)!;
}

test('the watch page plays the live platform beside the public chat, signed out; offline and unknown channels say so', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const channelName = uniqueName('Watch ');
  const channelId = await signInWithChannel(page, channelName);
  await page.goto(`/channels/${channelId}/providers`);
  const twitch = await connect(page, 'Twitch');
  const kick = await connect(page, 'Kick');
  await emulatorControl('POST', `/_emulator/channels/twitch/${twitch.id}/live`, { live: true, viewerCount: 1234 });

  // The side navigation's "Viewer Watch" gives the link per platform.
  await page.goto(`/channels/${channelId}`);
  await page.getByRole('link', { name: 'Viewer Watch' }).click();
  await expect(page).toHaveURL(new RegExp(`/channels/${channelId}/watch-guide$`));
  await expect(page.getByRole('heading', { name: 'Viewer Watch', level: 1 })).toBeVisible();
  const origin = new URL(page.url()).origin;
  const twitchLink = `${origin}/watch/twitch/${twitch.login}`;
  await expect(page.getByLabel('Twitch watch link', { exact: true })).toHaveText(twitchLink);
  await expect(page.getByLabel('Kick watch link', { exact: true })).toHaveText(`${origin}/watch/kick/${encodeURIComponent(kick.login)}`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: 'test-results/watch-guide.png', fullPage: true });

  // A viewer, signed out.
  const viewer = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const watch = await viewer.newPage();
  await watch.goto(`/watch/twitch/${twitch.login.toUpperCase()}`);
  await expect(watch.getByRole('heading', { name: channelName, level: 1 })).toBeVisible();
  await expect(watch.getByText('Live on Twitch')).toBeVisible({ timeout: 30_000 });
  await expect(watch.getByText('1,234 viewers')).toBeVisible();
  // Twitch's embed script inserted its player, told the page's host as `parent`, autoplaying muted.
  const player = watch.frameLocator(`iframe[title="Twitch player: ${twitch.login}"]`);
  await expect(player.getByText(/LIVE · 1,234 viewers/)).toBeVisible();
  const src = new URL((await watch.locator('iframe[title^="Twitch player"]').getAttribute('src'))!);
  expect(src.searchParams.get('parent')).toBe('localhost');
  expect(src.searchParams.get('muted')).toBe('true');
  expect(src.searchParams.get('autoplay')).toBe('true');
  // The public chat of every platform beside it.
  const chat = watch.getByRole('complementary', { name: 'Chat' });
  const line = `hello from the watch page ${Date.now()}`;
  await emulatorControl('POST', '/_emulator/chat', { platform: 'twitch', channel: twitch.login, text: line });
  await expect(chat.getByText(line)).toBeVisible({ timeout: 20_000 });
  // The other platforms.
  const platforms = watch.getByRole('region', { name: 'Also streaming on' });
  await expect(platforms.getByRole('link', { name: `Kick · ${kick.login}` })).toBeVisible();
  await watch.screenshot({ path: 'test-results/watch-live.png' });

  // Kick is offline: the last stream's info and where the channel is live instead.
  await platforms.getByRole('link', { name: `Kick · ${kick.login}` }).click();
  await expect(watch).toHaveURL(new RegExp(`/watch/kick/`));
  await expect(watch.getByRole('heading', { name: `${channelName} is offline` })).toBeVisible();
  await expect(watch.getByTestId('last-stream')).toContainText('Last stream on Twitch');
  await watch.screenshot({ path: 'test-results/watch-offline.png' });
  await watch.getByRole('link', { name: 'Live now on Twitch' }).click();
  await expect(watch.getByText('Live on Twitch')).toBeVisible();

  // Phones: the player above the chat.
  await watch.setViewportSize({ width: 390, height: 844 });
  await expect(player.getByText(/LIVE · 1,234 viewers/)).toBeVisible();
  const frameBox = (await watch.locator('iframe[title^="Twitch player"]').boundingBox())!;
  const chatBox = (await chat.boundingBox())!;
  expect(frameBox.width).toBeLessThanOrEqual(390);
  expect(chatBox.y).toBeGreaterThanOrEqual(frameBox.y + frameBox.height);
  await watch.screenshot({ path: 'test-results/watch-mobile.png', fullPage: true });

  // An unknown channel, and a platform without streams.
  await watch.goto('/watch/twitch/nobody-streams-here-123');
  await expect(watch.getByRole('heading', { name: 'Channel not found' })).toBeVisible();
  await expect(watch.getByText('No Greenroom channel streams as "nobody-streams-here-123" on Twitch.', { exact: false })).toBeVisible();
  await watch.goto('/watch/spotify/someone');
  await expect(watch.getByRole('heading', { name: 'Channel not found' })).toBeVisible();
  // Nothing here asked the viewer to sign in.
  expect(new URL(watch.url()).pathname).toBe('/watch/spotify/someone');
  await viewer.close();
});
