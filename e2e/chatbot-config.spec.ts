import { expect, test, type Page } from '@playwright/test';
import { pageApi, signInWithChannel, uniqueName } from './support';

/**
 * The chatbot's whole configuration in the browser (Chat Commands → Backup and versions): the versions a change
 * leaves, restoring one, the export downloaded as a file and imported into another channel with a preview (added,
 * replaced, invalid), and a file that is not an export. `SHOTS_DIR` saves screenshots at 1280 and 390 px.
 */

const shotsDir = process.env.SHOTS_DIR;
async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  await page.screenshot({ path: `${shotsDir}/${name}-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shotsDir}/${name}-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.use({ viewport: { width: 1280, height: 800 } });
test.describe.configure({ timeout: 240_000 });

async function openCommands(page: Page, channelId: string) {
  await page.goto(`/channels/${channelId}/chat-commands`);
  await expect(page.getByRole('heading', { name: 'Chat Commands' })).toBeVisible({ timeout: 30_000 });
}

test('versions after changes, restore, export to a file and import it into another channel with a preview', async ({ page }) => {
  const first = await signInWithChannel(page);
  await openCommands(page, first);
  await page.getByRole('button', { name: 'Backup and versions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Backup and versions' });
  await expect(dialog.getByText('No versions yet')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  const base = `/api/2/channels/${first}`;
  const hello = await pageApi<{ id: string }>(page, 'POST', `${base}/chat-commands`, { name: '!hello', responses: ['hi'] });
  await pageApi(page, 'PUT', `${base}/chat-commands/${hello.id}`, { name: '!hello', responses: ['hello there'] });
  await pageApi(page, 'POST', `${base}/chat-timers`, { name: 'Socials', messages: ['Follow!'], interval_minutes: 15 });
  await pageApi(page, 'POST', `${base}/quotes`, { text: 'A quote to keep', game: null, added_by: 'Me' });

  await page.getByRole('button', { name: 'Backup and versions' }).click();
  const versions = dialog.getByRole('table', { name: 'Versions' });
  await expect(versions.getByText('Quote #1 added')).toBeVisible();
  await expect(versions.getByText('Command !hello saved')).toBeVisible();
  await expect(versions.getByRole('row')).toHaveCount(5);
  await shot(page, 'chatbot-versions');

  // Restore the first version: !hello says "hi" again, the timer and the quote made later are gone.
  await versions
    .getByRole('row', { name: /Command !hello added/ })
    .getByRole('button', { name: 'Restore' })
    .click();
  await page
    .getByRole('dialog', { name: /Restore version/ })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(page.getByText(/Version \d+ restored: 1 replaced, 2 removed, \d+ unchanged/)).toBeVisible();
  await expect(versions.getByText(/^Restored version \d+$/)).toBeVisible();
  const restored = await pageApi<{ commands: { name: string; responses: string[] }[]; timers: unknown[]; quotes: unknown[] }>(
    page,
    'GET',
    `${base}/chatbot-config`,
  );
  expect(restored.commands.find((c) => c.name === '!hello')!.responses).toEqual(['hi']);
  expect(restored.timers).toEqual([]);
  expect(restored.quotes).toEqual([]);

  // Export to a file.
  await pageApi(page, 'POST', `${base}/chat-timers`, { name: 'Socials', messages: ['Follow!'], interval_minutes: 15 });
  await dialog.getByRole('tab', { name: 'Export' }).click();
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download export' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/ chatbot \d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();
  await expect(page.getByText(/^Exported \d+ commands, 1 timer, 0 filters and 0 quotes$/)).toBeVisible();

  // Import that file into a second channel: preview first, then import.
  const second = await pageApi<{ id: string }>(page, 'POST', '/api/2/channels', { display_name: uniqueName('Second ') });
  await pageApi(page, 'POST', `/api/2/channels/${second.id}/chat-commands`, { name: '!hello', responses: ['old words'] });
  await openCommands(page, second.id);
  await page.getByRole('button', { name: 'Backup and versions' }).click();
  await dialog.getByRole('tab', { name: 'Import' }).click();
  await dialog.getByRole('textbox', { name: 'Export' }).fill('{nope');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByText('This is not JSON: choose the file Greenroom exported, unchanged.')).toBeVisible();

  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Choose file' }).click();
  await (await chooser).setFiles(file);
  await expect(dialog.getByRole('textbox', { name: 'Export' })).toHaveValue(/greenroom\.chatbot-config/);
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const preview = dialog.getByRole('table', { name: 'Import preview' });
  await expect(preview.getByRole('row', { name: /Commands !hello Replaced/ })).toBeVisible();
  await expect(preview.getByRole('row', { name: /Timers Socials Added/ })).toBeVisible();
  await shot(page, 'chatbot-import-preview');
  const importButton = dialog.getByRole('button', { name: /^Import \d+ changes$/ });
  await importButton.click();
  await expect(page.getByText(/^Imported: /)).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'Versions' }).getByText('Imported an export')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('table', { name: 'Commands' }).getByText('hi', { exact: true })).toBeVisible();

  // TikTok's chat is read only: the platform picker shows it switched off, with the reason.
  await page.getByRole('link', { name: 'New command' }).click();
  await expect(page.getByRole('checkbox', { name: 'TikTok' })).toBeDisabled();
  await expect(
    page.getByText(/TikTok: read only\. Greenroom shows that chat but the platform gives bots no way to post in it/),
  ).toBeVisible();
  await shot(page, 'command-platforms-tiktok');
});
