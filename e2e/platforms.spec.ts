import { expect, test, type Page } from '@playwright/test';
import { consentAsNewAccount, emulatorControl, signInWithChannel, uniqueName, popupClosed } from './support';

interface EmulatorAccount {
  id: string;
  login: string;
  displayName: string;
}

/** Clicks "Connect {platform}" and creates a new platform account in the popup; returns its display name. */
async function connectInPopup(page: Page, platform: 'Twitch' | 'Kick' | 'YouTube'): Promise<string> {
  const name = uniqueName(`${platform}Chan`);
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: `Connect ${platform}`, exact: true }).click(),
  ]);
  await consentAsNewAccount(popup, name);
  await popupClosed(popup);
  await expect(page.getByText(`${platform} connected successfully`)).toBeVisible();
  return name;
}

async function account(platform: 'twitch' | 'kick', displayName: string): Promise<EmulatorAccount> {
  const { data } = await emulatorControl<{ data: EmulatorAccount[] }>('GET', `/_emulator/accounts?platform=${platform}`);
  const found = data.find((a) => a.displayName === displayName);
  if (!found) throw new Error(`no ${platform} account ${displayName}`);
  return found;
}

test('connect Twitch and Kick through the popup, see them live, edit the title, and disconnect Kick', async ({ page }) => {
  const channelId = await signInWithChannel(page);
  const nav = page.getByRole('navigation');
  await expect(nav.getByLabel('No platform connected')).toBeVisible();
  await nav.getByRole('link', { name: /Platforms/ }).click();
  await page.waitForURL(`**/channels/${channelId}/providers`);
  await expect(page.getByText('No platform connected', { exact: true }).first()).toBeVisible();

  const twitchName = await connectInPopup(page, 'Twitch');
  const list = page.getByRole('list', { name: 'Connected platforms' });
  const twitch = await account('twitch', twitchName);
  const twitchCard = list.getByRole('listitem', { name: `Twitch: ${twitch.login}` });
  await expect(twitchCard).toBeVisible();
  await expect(nav.getByLabel('No platform connected')).toHaveCount(0);

  const kickName = await connectInPopup(page, 'Kick');
  const kick = await account('kick', kickName);
  const kickCard = list.getByRole('listitem', { name: `Kick: ${kick.login}` });
  await expect(kickCard.getByText('Make sure you mod the bot, Kick requires it to be able to post links in the chat.')).toBeVisible();
  await expect(twitchCard.getByText('Connected', { exact: true })).toBeVisible();

  // Live list: the stream going live on Twitch shows without a reload.
  await emulatorControl('POST', `/_emulator/channels/twitch/${twitch.id}/live`, { live: true, viewerCount: 42 });
  await expect(twitchCard.getByText('Live · 42 viewers')).toBeVisible();

  // The connection page: embedded player and the title form with the 140-character limit.
  await twitchCard.getByRole('link', { name: 'Manage Twitch' }).click();
  await page.waitForURL(`**/channels/${channelId}/providers/*`);
  await expect(page.frameLocator(`iframe[title="Twitch player: ${twitch.login}"]`).getByText(/LIVE · 42 viewers/)).toBeVisible();
  const form = page.getByRole('form', { name: 'Twitch stream info' });
  const title = form.getByRole('textbox', { name: 'Title' });
  await expect(title).not.toHaveValue('');
  await title.fill('x'.repeat(141));
  await expect(form.getByText('Twitch titles are limited to 140 characters.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Save' })).toBeDisabled();
  const newTitle = `Speedrun night ${Date.now()}`;
  await title.fill(newTitle);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Twitch stream info updated')).toBeVisible();
  const channel = await emulatorControl<{ title: string }>('GET', `/_emulator/channels/twitch/${twitch.id}`);
  expect(channel.title).toBe(newTitle);

  // Revoked at the platform: the connection turns "Reconnect needed" live and the nav badge counts it.
  await emulatorControl('POST', '/_emulator/tokens/revoke', { platform: 'twitch', userId: twitch.id });
  await expect(page.getByRole('alert').filter({ hasText: 'Reconnect needed' })).toBeVisible({ timeout: 20_000 });
  await expect(nav.getByLabel('1 platform need reconnecting')).toBeVisible();

  // Disconnect Kick with the confirmation.
  await page.getByRole('link', { name: 'Platforms', exact: true }).click();
  await page.waitForURL(`**/channels/${channelId}/providers`);
  await kickCard.getByRole('button', { name: 'Disconnect Kick' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disconnect Kick?' });
  await expect(confirm.getByText('Are you sure you want to disconnect Kick?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(kickCard).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Connect Kick', exact: true })).toBeVisible();
  await expect(twitchCard).toBeVisible();
});

test('a YouTube connection without a broadcast offers "Configure in Studio" in an 800×800 popup, and shows the API quota', async ({
  page,
}) => {
  const channelId = await signInWithChannel(page);
  await page.goto(`/channels/${channelId}/providers`);
  await connectInPopup(page, 'YouTube');
  await page.getByRole('link', { name: 'Manage YouTube' }).click();
  const quota = page.getByRole('region', { name: 'YouTube API quota' });
  await expect(quota).toContainText(/of 10,000 units used today/);
  await expect(quota).toContainText('midnight Pacific time');
  await expect(page.getByRole('progressbar', { name: 'YouTube API quota used today' })).toBeVisible();
  const [studio] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Configure in Studio' }).click()]);
  await studio.waitForLoadState();
  expect(await studio.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([800, 800]);
  await studio.close();
});

test('the register page connects a platform in the whole window and lands on its page', async ({ page }) => {
  const channelId = await signInWithChannel(page);
  await page.goto(`/channels/${channelId}/register/kick`);
  await expect(page.getByText('Make sure you mod the bot, Kick requires it to be able to post links in the chat.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue to Kick' }).click();
  await consentAsNewAccount(page, uniqueName('KickReg'));
  await page.waitForURL(new RegExp(`/channels/${channelId}/providers/[0-9a-f-]{36}$`));
  await expect(page.getByText('Kick connected successfully')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/kickreg/i);
});
