import { expect, test, type Page } from '@playwright/test';
import { consentAsNewAccount, emulatorControl, signInWithChannel, uniqueName, popupClosed } from './support';

interface EmulatorAccount {
  id: string;
  login: string;
  displayName: string;
}

/** Clicks "Connect {platform}" on the Platforms page and authorizes in the popup (a new account, or an existing one). */
async function connect(page: Page, platform: 'Twitch' | 'Kick' | 'YouTube', existing?: RegExp): Promise<string> {
  const name = uniqueName(`${platform}Dash`);
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: `Connect ${platform}`, exact: true }).click(),
  ]);
  if (existing) {
    await popup.getByLabel(existing).check();
    await popup.getByRole('button', { name: 'Authorize' }).click();
  } else await consentAsNewAccount(popup, name);
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

test('the dashboard shows each platform live and updates the title and category everywhere at once, one platform refusing', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const channelId = await signInWithChannel(page);
  await page.goto(`/channels/${channelId}/providers`);
  const twitchName = await connect(page, 'Twitch');
  const kickName = await connect(page, 'Kick');
  await connect(page, 'YouTube', /@greenroomdemo/);
  const twitch = await account('twitch', twitchName);
  const kick = await account('kick', kickName);
  await emulatorControl('POST', `/_emulator/channels/twitch/${twitch.id}/live`, { live: true, viewerCount: 42 });

  await page.goto(`/channels/${channelId}`);
  await expect(page).toHaveTitle(/^Dashboard · /);
  const status = page.getByRole('list', { name: 'Platform status' });
  const twitchRow = status.getByRole('listitem', { name: `Twitch: ${twitch.login}` });
  await expect(twitchRow.getByText('Live · 42 viewers')).toBeVisible();
  await expect(twitchRow.getByText(/^Uptime \d+:\d\d:\d\d$/)).toBeVisible();
  await expect(status.getByRole('listitem', { name: `Kick: ${kick.login}` }).getByText('Offline')).toBeVisible();

  const editor = page.getByRole('form', { name: 'Stream info on every platform' });
  const rows = editor.getByRole('list', { name: 'Platforms to update' });
  // YouTube can take a title once its live broadcast is known.
  await expect(rows.getByRole('checkbox', { name: 'Update YouTube' })).toBeEnabled({ timeout: 30_000 });
  await expect(rows.getByRole('checkbox', { name: 'Update YouTube' })).toBeChecked();

  // Each platform's limit is checked before anything is sent.
  const title = editor.getByRole('textbox', { name: 'Title' });
  await title.fill('x'.repeat(120));
  await expect(
    rows.getByRole('listitem', { name: 'YouTube stream info' }).getByText(/YouTube titles are limited to 100 characters/),
  ).toBeVisible();
  await expect(rows.getByRole('listitem', { name: 'Twitch stream info' }).getByText('120/140')).toBeVisible();

  // One title and one category for the three platforms: each platform's own category is matched.
  const newTitle = `Speedrun marathon ${Date.now()}`;
  await title.fill(newTitle);
  await editor.getByLabel('Category', { exact: true }).fill('Just Chatting');
  await expect(rows.getByLabel('Twitch category', { exact: true })).toHaveValue('Just Chatting');
  await expect(rows.getByLabel('Kick category', { exact: true })).toHaveValue('Just Chatting');
  // YouTube's video categories have no such name: pick one by hand for YouTube alone.
  const youtubeRow = rows.getByRole('listitem', { name: 'YouTube stream info' });
  await expect(youtubeRow.getByText('No YouTube category matches this name: pick one.')).toBeVisible();
  await youtubeRow.getByLabel('YouTube category', { exact: true }).fill('Gaming');
  await page.getByRole('option', { name: 'Gaming', exact: true }).click();
  await expect(youtubeRow.getByLabel('YouTube category', { exact: true })).toHaveValue('Gaming');
  await editor.getByRole('button', { name: 'Update 3 platforms' }).click();
  await expect(page.getByText('Stream info updated on 3 platforms')).toBeVisible();
  for (const name of ['Twitch', 'Kick', 'YouTube']) {
    await expect(rows.getByRole('listitem', { name: `${name} stream info` }).getByText('Updated', { exact: true })).toBeVisible();
  }
  expect((await emulatorControl<{ title: string }>('GET', `/_emulator/channels/twitch/${twitch.id}`)).title).toBe(newTitle);
  expect((await emulatorControl<{ title: string }>('GET', `/_emulator/channels/kick/${kick.id}`)).title).toBe(newTitle);

  // Kick refuses the next change: the others are still updated and Kick's reason is shown on its row.
  await expect(title).toHaveValue(newTitle);
  await emulatorControl('POST', '/_emulator/faults', { platform: 'kick', match: '/channels', kind: 'status', status: 403, count: 1 });
  const second = `${newTitle} part 2`;
  await title.fill(second);
  await editor.getByRole('button', { name: 'Update 3 platforms' }).click();
  const kickEditorRow = rows.getByRole('listitem', { name: 'Kick stream info' });
  await expect(kickEditorRow.getByText('Not updated')).toBeVisible();
  await expect(kickEditorRow.getByRole('alert')).toContainText(/Kick/);
  await expect(editor.getByText('Updated on 2 of 3 platforms.', { exact: false })).toBeVisible();
  await expect(rows.getByRole('listitem', { name: 'Twitch stream info' }).getByText('Updated', { exact: true })).toBeVisible();
  expect((await emulatorControl<{ title: string }>('GET', `/_emulator/channels/twitch/${twitch.id}`)).title).toBe(second);
  expect((await emulatorControl<{ title: string }>('GET', `/_emulator/channels/kick/${kick.id}`)).title).toBe(newTitle);

  // An ad on Twitch (live): the served length in a toast, then the wait before the next one; Kick has no ads.
  const ads = page.getByRole('group', { name: 'Twitch ad break' });
  await ads.getByRole('combobox', { name: 'Length' }).click();
  await page.getByRole('option', { name: '1:30 (90 s)' }).click();
  await ads.getByRole('button', { name: 'Run ad' }).click();
  await expect(page.getByText('Twitch ad running for 1:30')).toBeVisible();
  await expect(ads.getByText(/^Next ad possible in [78]:\d\d\.$/)).toBeVisible();
  await expect(ads.getByRole('button', { name: 'Run ad' })).toBeDisabled();
  await expect(page.getByRole('group', { name: 'Kick ad break' })).toHaveCount(0);

  // Revoked at the platform: the dashboard says so and links the Owner to the fix.
  await emulatorControl('POST', '/_emulator/tokens/revoke', { platform: 'twitch', userId: twitch.id });
  await expect(twitchRow.getByRole('alert')).toContainText('Reconnect Twitch', { timeout: 30_000 });
  await expect(twitchRow.getByText('Reconnect needed')).toBeVisible();

  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `test-results/screens/dashboard-${width}.png`, fullPage: true });
  }
});
