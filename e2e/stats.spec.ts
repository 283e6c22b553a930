import { expect, test } from '@playwright/test';
import { consentAsNewAccount, emulatorControl, signInWithChannel, uniqueName, popupClosed } from './support';

interface EmulatorAccount {
  id: string;
  login: string;
  displayName: string;
}

test('the stats page shows an empty range, then viewers, chat, events, commands and points as they arrive, and exports CSV', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const channelId = await signInWithChannel(page);

  // Nothing collected yet: the empty state.
  await page.goto(`/channels/${channelId}/stats`);
  await expect(page).toHaveTitle(/^Stats · /);
  await expect(page.getByRole('heading', { name: 'No stats for this range yet' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();

  // Connect Twitch, go live with 57 viewers, chat and a follow.
  await page.goto(`/channels/${channelId}/providers`);
  const name = uniqueName('TwitchStats');
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Connect Twitch', exact: true }).click(),
  ]);
  await consentAsNewAccount(popup, name);
  await popupClosed(popup);
  await expect(page.getByText('Twitch connected successfully')).toBeVisible();
  const { data } = await emulatorControl<{ data: EmulatorAccount[] }>('GET', '/_emulator/accounts?platform=twitch');
  const twitch = data.find((a) => a.displayName === name)!;
  await expect(page.getByText('Connected', { exact: true })).toBeVisible({ timeout: 20_000 });
  await emulatorControl('POST', `/_emulator/channels/twitch/${twitch.id}/live`, { live: true, viewerCount: 57 });
  await expect(page.getByText('Live · 57 viewers')).toBeVisible();
  const viewer = (displayName: string) =>
    emulatorControl<EmulatorAccount>('POST', '/_emulator/accounts', { platform: 'twitch', displayName, kind: 'viewer' });
  const alice = await viewer(uniqueName('Alice'));
  const bob = await viewer(uniqueName('Bob'));
  for (const [user, text] of [
    [alice.id, 'hello'],
    [alice.id, 'gg'],
    [bob.id, 'hi all'],
    [bob.id, '!commands'],
  ] as const) {
    await emulatorControl('POST', '/_emulator/chat', { platform: 'twitch', channel: twitch.id, user, text });
  }
  await emulatorControl('POST', '/_emulator/events', { platform: 'twitch', channel: twitch.id, type: 'follow' });

  // The rollups catch up within seconds; the page shows them (the emulator's crowd chats there too: at least ours).
  const figure = async (label: string) =>
    Number(((await page.getByRole('group', { name: label }).locator('[data-value]').getAttribute('data-value')) ?? '').replace(/,/g, ''));
  await page.goto(`/channels/${channelId}/stats`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('group', { name: 'Chat messages' })).toBeVisible({ timeout: 30_000 });
    expect(await figure('Chat messages')).toBeGreaterThanOrEqual(3);
    expect(await figure('New followers')).toBeGreaterThanOrEqual(1);
    expect(await figure('Commands used')).toBeGreaterThanOrEqual(1);
    expect(await figure('Points earned')).toBeGreaterThanOrEqual(1);
  }).toPass({ timeout: 120_000 });
  await expect(page.getByRole('table', { name: 'Top commands' }).getByText('!commands')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Commands used' }).locator('.recharts-surface').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Points economy' }).locator('.recharts-surface').first()).toBeVisible();
  expect(await figure('Peak viewers')).toBe(57);
  expect(await figure('Unique chatters')).toBeGreaterThanOrEqual(2);
  await expect(page.getByRole('table', { name: 'Top chatters' }).getByRole('row').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Streams' }).getByText('Live')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Viewers' }).locator('.recharts-surface').first()).toBeVisible();

  // CSV export of the series.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const csv = await (await download.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString('utf8');
  expect(text.split('\r\n')[0]).toBe(
    'time,platform,viewers,chat_messages,chat_messages_per_minute,new_followers,new_subscribers,moderation_actions,commands_used,points_earned,points_spent,points_won,points_lost,points_given,points_adjusted',
  );
  expect(text).toContain(',Twitch,57,');
  expect(text).toMatch(/,All platforms,,,,,,,,[1-9]/);

  // One stream as the range.
  await page.getByRole('combobox', { name: 'One stream' }).click();
  await page.getByRole('option', { name: /Twitch · .*\(live\)/ }).click();
  await expect(page.getByRole('combobox', { name: 'One stream' })).toHaveValue(/Twitch · .*\(live\)/);
  expect(await figure('Peak viewers')).toBe(57);

  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `test-results/screens/stats-${width}.png`, fullPage: true });
  }
});
