import { expect, test, type Page } from '@playwright/test';
import { signInWithChannel, uniqueName } from './support';

/**
 * The chatbot's editors in the browser: commands (with a field error from the server, the template gallery and the
 * import with preview), timers, filters (an invalid regular expression on its field, the log), quotes and the
 * operators' command templates. `SHOTS_DIR` saves screenshots at 1280 and 390 px.
 */

const shotsDir = process.env.SHOTS_DIR;
async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  await page.screenshot({ path: `${shotsDir}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shotsDir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.use({ viewport: { width: 1280, height: 800 } });

/** Opens a page of the side navigation's Chatbot group (opening the group first). */
async function openChatbotPage(page: Page, name: string): Promise<void> {
  const nav = page.getByRole('navigation');
  const link = nav.getByRole('link', { name });
  if (!(await link.isVisible())) await nav.getByText('Chatbot', { exact: true }).click();
  await link.click();
}

test('chat commands: defaults, create, field errors, toggle, import with preview', async ({ page }) => {
  const channelId = await signInWithChannel(page);
  await openChatbotPage(page, 'Chat Commands');
  await expect(page.getByRole('heading', { name: 'Chat Commands' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Commands' });
  await expect(table.getByRole('link', { name: '!settitle' })).toBeVisible();
  await expect(table.getByRole('link', { name: '!uptime' })).toBeVisible();
  await shot(page, 'commands');

  await page.getByRole('link', { name: 'New command' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('!quote');
  await page.getByRole('textbox', { name: 'Response 1' }).fill('Hello $(user)');
  await page.getByRole('button', { name: 'Create command' }).click();
  await expect(page.getByText('There is already a command named !quote.')).toBeVisible();

  await page.getByRole('textbox', { name: 'Name' }).fill('!hello');
  await page.getByRole('button', { name: 'Add response' }).click();
  await page.getByRole('textbox', { name: 'Response 2' }).fill('Hi ${touser}!');
  await page.getByText('In turn', { exact: true }).click();
  await page.locator('label', { hasText: /^Kick$/ }).click();
  await shot(page, 'command-editor');
  await page.getByRole('button', { name: 'Create command' }).click();
  await expect(page.getByText('!hello saved')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/channels/${channelId}/chat-commands/[0-9a-f-]{36}$`));
  await expect(page.getByRole('heading', { name: '!hello' })).toBeVisible();

  await page.getByRole('link', { name: 'Chat Commands' }).first().click();
  await expect(table.getByRole('link', { name: '!hello' })).toBeVisible();
  const hello = page.getByRole('switch', { name: '!hello enabled' });
  await expect(hello).toBeChecked();
  await hello.click({ force: true });
  await expect(hello).not.toBeChecked();

  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import commands' });
  await dialog.getByRole('textbox', { name: 'Export' }).fill('{nope');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByText('This is not JSON: paste the export exactly as the bot gave it.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Export' }).fill(
    JSON.stringify({
      commands: [
        { name: '!discord', message: 'Join discord.gg/x', userLevel: 'everyone', coolDown: 30 },
        { name: '!8ball', message: '$(eval 1)', userLevel: 'moderator', coolDown: 5 },
      ],
    }),
  );
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const preview = dialog.getByRole('table', { name: 'Import preview' });
  await expect(preview.getByText('$(eval) JavaScript is not run')).toBeVisible();
  await shot(page, 'commands-import');
  await dialog.getByRole('button', { name: 'Import 2 commands' }).click();
  await expect(page.getByText('2 commands imported')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(table.getByRole('link', { name: '!discord' })).toBeVisible();
});

test('chat timers: create and edit', async ({ page }) => {
  await signInWithChannel(page);
  await openChatbotPage(page, 'Chat Timers');
  await expect(page.getByText('No timers yet')).toBeVisible();
  await shot(page, 'timers-empty');
  await page.getByRole('link', { name: 'New timer' }).first().click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Socials');
  await page.getByRole('textbox', { name: 'Message 1' }).fill('Follow $(channel) on $(platform)!');
  await page.getByRole('textbox', { name: 'Name' }).fill('');
  await page.getByRole('button', { name: 'Create timer' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill('Socials');
  await page.getByRole('textbox', { name: 'Every' }).fill('10');
  await shot(page, 'timer-editor');
  await page.getByRole('button', { name: 'Create timer' }).click();
  await expect(page.getByText('Socials saved')).toBeVisible();
  await page.getByRole('link', { name: 'Chat Timers' }).first().click();
  const row = page.getByRole('table', { name: 'Timers' }).getByRole('row', { name: /Socials/ });
  await expect(row.getByText('10 min')).toBeVisible();
  await shot(page, 'timers');
});

test('chat filters: field error for a bad regular expression, a links filter, the log', async ({ page }) => {
  await signInWithChannel(page);
  await openChatbotPage(page, 'Chat Filters');
  await page.getByRole('link', { name: 'New filter' }).first().click();
  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Regular expressions' }).click();
  await page.getByRole('button', { name: 'Add pattern' }).click();
  await page.getByRole('textbox', { name: 'Pattern 1' }).fill('(unclosed');
  await page.getByRole('button', { name: 'Create filter' }).click();
  await expect(page.getByText(/^Invalid regular expression/)).toBeVisible();
  await shot(page, 'filter-editor-regex');

  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Links' }).click();
  await page
    .getByRole('textbox', { name: 'Allowed sites' })
    .or(page.getByRole('combobox', { name: 'Allowed sites' }))
    .first()
    .fill('youtube.com');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Create filter' }).click();
  await expect(page.getByText('Links saved')).toBeVisible();
  await expect(page.getByText('What this filter did')).toBeVisible();
  await shot(page, 'filter-editor');
  await page.getByRole('link', { name: 'Chat Filters' }).first().click();
  await expect(page.getByRole('table', { name: 'Filters' }).getByText('Warn, then time out 600 s')).toBeVisible();
  await shot(page, 'filters');
  await page.getByRole('tab', { name: 'Log' }).click();
  await expect(page.getByText('Nothing filtered yet')).toBeVisible();
});

test('quotes: add, edit and delete', async ({ page }) => {
  await signInWithChannel(page);
  await openChatbotPage(page, 'Quotes');
  await expect(page.getByText('No quotes yet')).toBeVisible();
  await page.getByRole('link', { name: 'New quote' }).first().click();
  await page.getByRole('textbox', { name: 'Text' }).fill('I never miss');
  await page.getByRole('textbox', { name: 'Game' }).fill('Celeste');
  await page.getByRole('button', { name: 'Add quote' }).click();
  await expect(page.getByRole('heading', { name: 'Quote #1' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Text' }).fill('I never, ever miss');
  await shot(page, 'quote-editor');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Quote #1 saved').first()).toBeVisible();
  await page.getByRole('link', { name: 'Quotes' }).first().click();
  await expect(page.getByRole('table', { name: 'Quotes' }).getByText('I never, ever miss')).toBeVisible();
  await shot(page, 'quotes');
  await page.getByRole('link', { name: 'Quote 1' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No quotes yet')).toBeVisible();
});

test('command templates: operators create one; a channel adds it from the gallery', async ({ page, browser }) => {
  const operator = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await operator.goto('/sign-in?next=%2Fadmin%2Fcommand-templates');
  await operator.getByRole('link', { name: 'Sign in with Twitch' }).click();
  await operator.locator('label', { hasText: '@nightowlgg' }).locator('input').check();
  await operator.getByRole('button', { name: 'Authorize' }).click();
  await operator.waitForURL('**/admin/command-templates');
  await operator.getByRole('link', { name: 'New template' }).first().click();
  const name = `!${uniqueName('hug').toLowerCase()}`;
  await operator.getByRole('textbox', { name: 'Name' }).fill(name);
  await operator.getByRole('textbox', { name: 'Response 1' }).fill('$(user) hugs $(touser)');
  await operator.getByRole('textbox', { name: 'Description' }).fill('A hug for someone');
  await shot(operator, 'template-editor');
  await operator.getByRole('button', { name: 'Create template' }).click();
  await expect(operator.getByText(`${name} saved`)).toBeVisible();
  await operator.getByRole('link', { name: 'Command Templates' }).first().click();
  await expect(operator.getByRole('table', { name: 'Command templates' }).getByText(name)).toBeVisible();
  await shot(operator, 'templates');

  await signInWithChannel(page);
  await openChatbotPage(page, 'Chat Commands');
  await page.getByRole('button', { name: 'Templates' }).click();
  const gallery = page.getByRole('dialog', { name: 'Command templates' });
  const card = gallery.getByRole('article', { name });
  await card.getByRole('button', { name: 'Add' }).click();
  await expect(card.getByRole('button', { name: 'Added' })).toBeDisabled();
  await shot(page, 'template-gallery');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('table', { name: 'Commands' }).getByRole('link', { name })).toBeVisible();
});
