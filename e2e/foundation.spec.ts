import { expect, test } from '@playwright/test';
import { consentAsNewAccount, signIn, uniqueName, popupClosed } from './support';

test('signing in through the emulator lands on next', async ({ page }) => {
  await page.goto('/sign-in?next=%2Fcreate-channel');
  await expect(page.getByText('Local platforms')).toBeVisible();
  await page.getByRole('link', { name: 'Sign in with Kick' }).click();
  await consentAsNewAccount(page, uniqueName('KickStreamer'));
  await page.waitForURL('**/create-channel');
  await expect(page.getByRole('textbox', { name: /name/i })).toBeVisible();
});

test('a signed-out visit of a deep link goes to sign-in with next, and back after signing in', async ({ page }) => {
  await page.goto('/channels?from=deep');
  await page.waitForURL('**/sign-in?next=*');
  expect(new URL(page.url()).searchParams.get('next')).toBe('/channels?from=deep');
  await page.getByRole('link', { name: 'Sign in with Twitch' }).click();
  await consentAsNewAccount(page, uniqueName('Deep'));
  await page.waitForURL('**/channels?from=deep');
});

test('an unknown route shows the 404 view with Go back', async ({ page }) => {
  await signIn(page);
  await page.goto('/no/such/page');
  await expect(page.getByText('404')).toBeVisible();
  await expect(page.getByText('Not Found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go back' })).toBeVisible();
});

test('create a channel, create another, and pick between them', async ({ page }) => {
  await signIn(page, { next: '/create-channel' });
  const first = uniqueName('Alpha ');
  const second = uniqueName('Beta ');
  for (const name of [first, second]) {
    await page.goto('/create-channel');
    await page.getByRole('textbox', { name: /name/i }).fill(name);
    await page.getByRole('button', { name: /create/i }).click();
    await page.waitForURL(/\/channels\/[0-9a-f-]{36}$/);
  }
  const secondUrl = page.url();
  await page.getByRole('button', { name: second }).first().click();
  const picker = page.getByRole('dialog', { name: 'Pick a channel' });
  await expect(picker).toBeVisible();
  await picker.getByPlaceholder('Search...').fill(first.slice(0, 8));
  await picker.getByText(first).click();
  await page.waitForURL((url) => /\/channels\/[0-9a-f-]{36}$/.test(url.pathname) && url.href !== secondUrl);
  await expect(page.getByRole('button', { name: first }).first()).toBeVisible();
});

test('connect and disconnect a second sign-in platform in settings', async ({ page }) => {
  await signIn(page);
  await page.goto('/channels');
  await page.getByRole('button', { name: /user menu/i }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog');
  const kickRow = settings.getByRole('listitem', { name: 'Kick' });
  await expect(kickRow.getByRole('button', { name: 'Connect' })).toBeVisible();
  const kickName = uniqueName('KickSide');
  const [popup] = await Promise.all([page.waitForEvent('popup'), kickRow.getByRole('button', { name: 'Connect' }).click()]);
  await consentAsNewAccount(popup, kickName);
  await popupClosed(popup);
  await expect(page.getByText('Kick connected successfully')).toBeVisible();
  await expect(kickRow.getByText(kickName)).toBeVisible();
  await kickRow.getByRole('button', { name: 'Disconnect' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disconnect Kick?' });
  await expect(confirm.getByText('Are you sure you want to disconnect Kick?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(kickRow.getByRole('button', { name: 'Connect' })).toBeVisible();
});

test('delete the account with the typed confirmation', async ({ page }) => {
  const name = await signIn(page);
  await page.goto('/channels');
  await page.getByRole('button', { name: /user menu/i }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page.getByText('There is no going back after this.')).toBeVisible();
  await page.getByRole('button', { name: 'Delete user profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete user profile' });
  await expect(dialog.getByText('Are you sure you want to delete your user account?')).toBeVisible();
  await expect(dialog.getByText('This is an irreversible action, please be sure.')).toBeVisible();
  const submit = dialog.getByRole('button', { name: 'Delete user profile' });
  await expect(submit).toBeDisabled();
  await dialog.getByRole('textbox').fill(name);
  await submit.click();
  await expect(page.getByText('Your user account has been deleted successfully, bye!')).toBeVisible();
  await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/sign-in');
  expect(await page.evaluate(() => window.localStorage.getItem('greenroom.access_token'))).toBeNull();
});
