import { expect, test } from '@playwright/test';
import { emulatorControl, signInWithChannel } from './support';

test('Discord announcements: not set up, a bad URL refused, saved with a stored webhook, and a test post sent', async ({ page }) => {
  test.setTimeout(180_000);
  const channelId = await signInWithChannel(page);
  await page.goto(`/channels/${channelId}/settings`);
  const section = page.getByRole('region', { name: 'Discord go-live announcements' });
  await expect(section.getByText('Not set up')).toBeVisible({ timeout: 30_000 });

  const url = section.getByRole('textbox', { name: 'Webhook URL' });
  await url.fill('https://example.com/hooks/1');
  await expect(section.getByText('Paste the webhook URL from Discord: https://discord.com/api/webhooks/…')).toBeVisible();

  const hook = await emulatorControl<{ id: string; url: string; token: string }>('POST', '/_emulator/discord/webhooks', { name: 'Live' });
  await url.fill(hook.url);
  await section.getByRole('textbox', { name: 'Role to mention' }).fill('345678901234567890');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Discord announcements saved')).toBeVisible();
  await expect(section.getByText(`Stored: https://discord.com/api/webhooks/${hook.id}/••••`, { exact: false })).toBeVisible();
  await expect(section.getByText('Nothing announced yet', { exact: false })).toBeVisible();
  await expect(url).toHaveValue('');
  await expect(page.locator('body')).not.toContainText(hook.token);

  await section.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByText('Test announcement sent to Discord')).toBeVisible();

  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/discord-${width}.png`, fullPage: true });
  }
});
