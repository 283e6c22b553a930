import { expect, test } from '@playwright/test';
import { consentAsNewAccount, signInWithChannel, uniqueName, popupClosed } from './support';

test('the Owner renames the channel, then deletes it (platforms disconnected) with the typed name', async ({ page }) => {
  const channelId = await signInWithChannel(page);
  const nav = page.getByRole('navigation');

  // A connected platform, to be disconnected with the channel.
  await page.goto(`/channels/${channelId}/providers`);
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Connect Kick', exact: true }).click()]);
  await consentAsNewAccount(popup, uniqueName('KickDoomed'));
  await popupClosed(popup);
  await expect(page.getByText('Kick connected successfully')).toBeVisible();

  await nav.getByRole('link', { name: 'Channel Settings' }).click();
  const newName = uniqueName('Renamed ');
  const form = page.getByRole('form', { name: 'Channel name' });
  await form.getByRole('textbox', { name: 'Channel name' }).fill(newName);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Channel renamed')).toBeVisible();
  await expect(page.getByRole('button', { name: newName }).first()).toBeVisible(); // the header's channel picker

  await page.getByRole('button', { name: 'Delete channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete channel' });
  const confirm = dialog.getByRole('button', { name: 'Delete channel' });
  await dialog.getByRole('textbox', { name: 'Channel name' }).fill('not the name');
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Channel name' }).fill(newName);
  await confirm.click();
  await page.waitForURL('**/channels');
  await expect(page.getByText(`${newName} was deleted`)).toBeVisible();
  await page.goto(`/channels/${channelId}`);
  await expect(page.getByText('Channel not found')).toBeVisible();
});
