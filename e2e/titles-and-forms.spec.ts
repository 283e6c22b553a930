import { expect, test } from '@playwright/test';
import { consentAsNewAccount, signInWithChannel, uniqueName, popupClosed } from './support';

/** The emulator account configured as operator in playwright.config.ts (GREENROOM_ADMINS). */
const OPERATOR_LOGIN = 'nightowlgg';

test('every page names itself and its channel in the tab title', async ({ page }) => {
  await page.goto('/sign-in');
  await expect(page).toHaveTitle('Sign in · Greenroom');

  const channelName = uniqueName('Titled ');
  const channelId = await signInWithChannel(page, channelName);
  await expect(page).toHaveTitle(`Dashboard · ${channelName} · Greenroom`);

  const nav = page.getByRole('navigation');
  for (const [link, title] of [
    ['Platforms', 'Platforms'],
    ['Chat', 'Chat'],
    ['Activity Feed', 'Activity Feed'],
    ['User Access', 'User Access'],
    ['Channel Settings', 'Channel Settings'],
  ] as const) {
    await nav.getByRole('link', { name: link }).click();
    await expect(page).toHaveTitle(`${title} · ${channelName} · Greenroom`);
  }

  // A connection page adds its platform to the list's name.
  await page.goto(`/channels/${channelId}/providers`);
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Connect Kick', exact: true }).click()]);
  await consentAsNewAccount(popup, uniqueName('KickTitled'));
  await popupClosed(popup);
  await page.getByRole('link', { name: 'Manage Kick' }).click();
  await expect(page).toHaveTitle(`Kick · Platforms · ${channelName} · Greenroom`);

  // Popouts, pages outside a channel, and error views.
  await page.goto(`/popout/channels/${channelId}/activity-feed`);
  await expect(page).toHaveTitle(`Activity Feed · ${channelName} · Greenroom`);
  await page.goto(`/popout/channels/${channelId}/chat`);
  await expect(page).toHaveTitle('Chat · Greenroom');
  await page.goto('/channels');
  await expect(page).toHaveTitle('Channels · Greenroom');
  await page.goto('/create-channel');
  await expect(page).toHaveTitle('Create a channel · Greenroom');
  await page.goto('/channels/00000000-0000-7000-8000-000000000000');
  await expect(page).toHaveTitle('Channel not found · Greenroom');
  await page.goto('/no/such/page');
  await expect(page).toHaveTitle('404 Not Found · Greenroom');
});

test('the admin pages are titled "… · Admin · Greenroom"', async ({ page }) => {
  await page.goto('/sign-in?next=%2Fadmin');
  await page.getByRole('link', { name: 'Sign in with Twitch' }).click();
  await page
    .locator('label', { hasText: `@${OPERATOR_LOGIN}` })
    .locator('input')
    .check();
  await page.getByRole('button', { name: 'Authorize' }).click();
  await page.waitForURL('**/admin');
  await expect(page).toHaveTitle('Channels · Admin · Greenroom');
  await page
    .getByRole('navigation')
    .getByRole('link', { name: /System Provider Bots/ })
    .click();
  await expect(page).toHaveTitle('System Provider Bots · Admin · Greenroom');
  await page.goto('/admin/system-provider-bots/twitch');
  await expect(page).toHaveTitle('Twitch · System Provider Bots · Admin · Greenroom');
});

test("the server's refusal of a typed name shows on the field it is about", async ({ page, context }) => {
  const channelName = uniqueName('Field ');
  const channelId = await signInWithChannel(page, channelName);
  await page.goto(`/channels/${channelId}/settings`);

  // A second tab renames the channel meanwhile; this tab still knows the old name.
  const other = await context.newPage();
  await other.goto(`/channels/${channelId}/settings`);
  const renamed = uniqueName('Renamed ');
  const renameForm = other.getByRole('form', { name: 'Channel name' });
  await renameForm.getByRole('textbox', { name: 'Channel name' }).fill(renamed);
  await renameForm.getByRole('button', { name: 'Save' }).click();
  await expect(other.getByText('Channel renamed')).toBeVisible();
  await other.close();

  await page.getByRole('button', { name: 'Delete channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete channel' });
  const typed = dialog.getByRole('textbox', { name: 'Channel name' });
  await typed.fill(channelName);
  await dialog.getByRole('button', { name: 'Delete channel' }).click();
  const message = `Type the channel name "${renamed}" exactly to confirm.`;
  await expect(dialog.getByText(message)).toBeVisible();
  await expect(typed).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
});

test('leaving a page with unsaved changes asks first; saving or discarding lets go', async ({ page }) => {
  const channelName = uniqueName('Guarded ');
  const channelId = await signInWithChannel(page, channelName);
  await page.goto(`/channels/${channelId}/settings`);
  const form = page.getByRole('form', { name: 'Channel name' });
  const name = form.getByRole('textbox', { name: 'Channel name' });
  await name.click();
  await name.fill(`${channelName} (edited)`);

  const nav = page.getByRole('navigation');
  await nav.getByRole('link', { name: 'Chat' }).click();
  const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(ask).toBeHidden();
  expect(new URL(page.url()).pathname).toBe(`/channels/${channelId}/settings`);
  await expect(name).toHaveValue(`${channelName} (edited)`);

  // Reloading or closing the tab gets the browser's own prompt.
  const prompt = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const beforeUnload = await prompt;
  expect(beforeUnload.type()).toBe('beforeunload');
  await beforeUnload.dismiss();
  expect(page.isClosed()).toBe(false);

  await nav.getByRole('link', { name: 'Chat' }).click();
  await ask.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveTitle(`Chat · ${channelName} · Greenroom`);

  // Saved changes leave without asking.
  await nav.getByRole('link', { name: 'Channel Settings' }).click();
  await name.fill(`${channelName} saved`);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Channel renamed')).toBeVisible();
  await nav.getByRole('link', { name: 'Chat' }).click();
  await expect(page).toHaveTitle(`Chat · ${channelName} saved · Greenroom`);
  await expect(ask).toHaveCount(0);
});
