import { expect, test, type Page } from '@playwright/test';
import { connectNewStreamer, emulatorControl, signInWithChannel, uniqueName, type EmulatorAccount, formSaved } from './support';

/**
 * The chatbot's editors in the browser, as a streamer uses them: create, edit, a field error, the on/off switch and
 * delete on every page — commands (with the template gallery and the import with preview), timers, filters, quotes
 * and the operators' command templates — and the effect in chat on the emulator's Kick: a command made in the editor
 * answers `!name`, its edit and switch take effect, and a filter removes a link and logs why. `SHOTS_DIR` saves
 * screenshots at 1280 and 390 px.
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
// Each test drives several pages and, for some, chat on the emulator: generous on a loaded machine.
test.describe.configure({ timeout: 240_000 });

/** Opens a page of the side navigation's Chatbot group (opening the group first). */
async function openChatbotPage(page: Page, name: string): Promise<void> {
  const nav = page.getByRole('navigation');
  const link = nav.getByRole('link', { name });
  // The navigation renders after the session loads: wait for the group before reading whether it is open.
  await expect(nav.getByText('Chatbot', { exact: true })).toBeVisible();
  if (!(await link.isVisible())) await nav.getByText('Chatbot', { exact: true }).click();
  await link.click();
}

/** A new viewer of the emulator's Kick and what they and the bot say in `streamer`'s chat. */
async function kickChat(streamer: EmulatorAccount) {
  const viewer = await emulatorControl<EmulatorAccount>('POST', '/_emulator/accounts', {
    platform: 'kick',
    kind: 'viewer',
    displayName: uniqueName('Fan'),
  });
  const messages = (origin: 'product' | 'control') =>
    emulatorControl<{ data: { id: string; text: string; deleted: boolean }[] }>(
      'GET',
      `/_emulator/messages?platform=kick&channel=${streamer.id}&origin=${origin}`,
    ).then((r) => r.data);
  return {
    viewer,
    type: (text: string) =>
      emulatorControl<{ id: string }>('POST', '/_emulator/chat', { platform: 'kick', channel: streamer.id, user: viewer.id, text }),
    /** What Greenroom said in that chat (through Kick's API). */
    botSaid: async () => (await messages('product')).map((m) => m.text),
    isDeleted: async (id: string) => (await messages('control')).find((m) => m.id === id)?.deleted ?? false,
  };
}

/** Confirms the editor's "Delete" dialog. */
async function deleteInEditor(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
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
  // The "!hello saved" notification sits at the bottom right, where the row's switch is: bring the row up first.
  await hello.evaluate((el) => el.scrollIntoView({ block: 'center' }));
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

test('a command made in the editor answers !name typed on Kick; editing, switching off and deleting it take effect', async ({ page }) => {
  const channelId = await signInWithChannel(page);
  const streamer = await connectNewStreamer(page, channelId, 'kick');
  const chat = await kickChat(streamer);
  const name = `!${uniqueName('hi').toLowerCase()}`;

  await openChatbotPage(page, 'Chat Commands');
  await page.getByRole('link', { name: 'New command' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Response 1' }).fill('Hi $(user), from the editor');
  await page.getByRole('textbox', { name: 'Global cooldown' }).fill('0');
  await page.getByRole('textbox', { name: 'Cooldown per viewer' }).fill('0');
  await page.getByRole('button', { name: 'Create command' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await chat.type(name);
  await expect.poll(chat.botSaid, { timeout: 30_000 }).toContain(`Hi ${chat.viewer.displayName}, from the editor`);

  await page.getByRole('textbox', { name: 'Response 1' }).fill('Edited: hello $(user)');
  await page.getByRole('button', { name: 'Save' }).click();
  await formSaved(page.getByRole('button', { name: 'Save' }));
  await chat.type(name);
  await expect.poll(chat.botSaid, { timeout: 30_000 }).toContain(`Edited: hello ${chat.viewer.displayName}`);

  await page.getByRole('link', { name: 'Chat Commands' }).first().click();
  const enabled = page.getByRole('switch', { name: `${name} enabled` });
  // The "saved" notification sits at the bottom right, where this row's switch can be: bring the row up first.
  await enabled.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await enabled.click({ force: true });
  await expect(enabled).not.toBeChecked();
  await page.reload();
  await expect(enabled).not.toBeChecked();
  // Switched off, it says nothing: a command still on (!uptime) answers, the one switched off does not.
  const before = (await chat.botSaid()).length;
  await chat.type(name);
  await chat.type('!uptime');
  await expect.poll(async () => (await chat.botSaid()).length, { timeout: 30_000 }).toBeGreaterThan(before);
  expect((await chat.botSaid()).slice(before).filter((t) => t.startsWith('Edited: hello'))).toEqual([]);

  await page.getByRole('table', { name: 'Commands' }).getByRole('link', { name }).click();
  await deleteInEditor(page);
  await expect(page.getByText(`${name} deleted`)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Commands' }).getByRole('link', { name: '!uptime' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Commands' }).getByRole('link', { name })).toHaveCount(0);
});

test('chat timers: create, a field error, edit, switch off and delete', async ({ page }) => {
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

  await row.getByRole('link', { name: 'Socials' }).click();
  await page.getByRole('textbox', { name: 'Every' }).fill('15');
  await page.getByRole('button', { name: 'Add message' }).click();
  await page.getByRole('textbox', { name: 'Message 2' }).fill('Rules: be kind');
  await page.getByRole('button', { name: 'Save' }).click();
  await formSaved(page.getByRole('button', { name: 'Save' }));
  await page.getByRole('link', { name: 'Chat Timers' }).first().click();
  await expect(row.getByText('15 min')).toBeVisible();
  await expect(row.getByText('(+1)')).toBeVisible();
  const enabled = page.getByRole('switch', { name: 'Socials enabled' });
  await expect(enabled).toBeChecked();
  await enabled.click({ force: true });
  await expect(enabled).not.toBeChecked();
  await page.reload();
  await expect(enabled).not.toBeChecked();
  await expect(row.getByText('—')).toBeVisible();

  await row.getByRole('link', { name: 'Socials' }).click();
  await deleteInEditor(page);
  await expect(page.getByText('Socials deleted')).toBeVisible();
  await expect(page.getByText('No timers yet')).toBeVisible();
});

test('chat timers: import a StreamElements export — preview of what maps and why not, then the chosen timers', async ({ page }) => {
  await signInWithChannel(page);
  await openChatbotPage(page, 'Chat Timers');
  await expect(page.getByText('No timers yet')).toBeVisible();
  await page.getByRole('button', { name: 'Import' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Import timers' });
  // As StreamElements' GET /kappa/v2/bot/timers/{channel} answers, uploaded as a file.
  const exported = [
    {
      _id: '60f1a2b3c4d5e6f708192a3b',
      channel: '5b2c3d4e5f60718293a4b5c6',
      name: 'Discord',
      enabled: true,
      chatLines: 8,
      offline: { enabled: false, interval: 30 },
      online: { enabled: true, interval: 20 },
      messages: ['Join the Discord: https://discord.gg/abc', 'Say hi in Discord, ${user}'],
      createdAt: '2021-07-16T12:00:00.000Z',
      updatedAt: '2021-07-16T12:00:00.000Z',
    },
    {
      _id: '60f1a2b3c4d5e6f708192a3c',
      channel: '5b2c3d4e5f60718293a4b5c6',
      name: 'Spam',
      enabled: true,
      chatLines: 0,
      offline: { enabled: false, interval: 0 },
      online: { enabled: true, interval: 0 },
      messages: ['Too often'],
    },
  ];
  await dialog.locator('input[type="file"]').setInputFiles({
    name: 'timers.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(exported, null, 2)),
  });
  await expect(dialog.getByRole('textbox', { name: 'Export' })).toHaveValue(/"Discord"/);
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const preview = dialog.getByRole('table', { name: 'Import preview' });
  await expect(dialog.getByText('StreamElements: 1 of 2 can be imported.')).toBeVisible();
  const discord = preview.getByRole('row', { name: /Discord/ });
  await expect(discord.getByText('Maps', { exact: true })).toBeVisible();
  await expect(discord.getByText('20 min')).toBeVisible();
  await expect(discord.getByText('While live')).toBeVisible();
  await expect(discord.getByRole('checkbox', { name: 'Import Discord' })).toBeChecked();
  const spam = preview.getByRole('row', { name: /Spam/ });
  await expect(spam.getByText('Not imported')).toBeVisible();
  await expect(spam.getByText('The interval 0 is below the minimum of 1 minute')).toBeVisible();
  await expect(spam.getByRole('checkbox', { name: 'Import Spam' })).toBeDisabled();
  await shot(page, 'timers-import');
  await dialog.getByRole('button', { name: 'Import 1 timer' }).click();
  await expect(page.getByText('1 timer imported')).toBeVisible();
  await expect(discord.getByText('Imported')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  const row = page.getByRole('table', { name: 'Timers' }).getByRole('row', { name: /Discord/ });
  await expect(row.getByText('20 min')).toBeVisible();
  await expect(row.getByText('(+1)')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Timers' }).getByRole('row', { name: /Spam/ })).toHaveCount(0);
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

test('a filter made in the editor removes a link typed on Kick and logs why; edit, switch off and delete', async ({ page }) => {
  const channelId = await signInWithChannel(page);
  const streamer = await connectNewStreamer(page, channelId, 'kick');
  const chat = await kickChat(streamer);
  await openChatbotPage(page, 'Chat Filters');
  await page.getByRole('link', { name: 'New filter' }).first().click();
  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Links' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('No links');
  await page.getByRole('button', { name: 'Create filter' }).click();
  await expect(page.getByRole('heading', { name: 'No links' })).toBeVisible();

  const spam = await chat.type('cheap followers at spamfollows.xyz/buy');
  await expect.poll(() => chat.isDeleted(spam.id), { timeout: 30_000 }).toBe(true);
  await expect.poll(chat.botSaid, { timeout: 30_000 }).toContain(`${chat.viewer.displayName}, please ask before posting links. (warning)`);
  // The filter's log on its page shows what it did and why (the newest page refreshes while open).
  const log = page.getByRole('table', { name: 'Filter log' });
  await expect(log.getByText(chat.viewer.displayName)).toBeVisible({ timeout: 30_000 });
  await expect(log.getByText('link to spamfollows.xyz')).toBeVisible();
  await expect(log.getByText('Warning')).toBeVisible();
  await shot(page, 'filter-editor-log');

  await page.getByRole('textbox', { name: 'Name' }).fill('No link spam');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'No link spam' })).toBeVisible();
  await page.getByRole('link', { name: 'Chat Filters' }).first().click();
  const enabled = page.getByRole('switch', { name: 'No link spam enabled' });
  await enabled.click({ force: true });
  await expect(enabled).not.toBeChecked();
  await page.reload();
  await expect(enabled).not.toBeChecked();

  await page.getByRole('table', { name: 'Filters' }).getByRole('link', { name: 'No link spam' }).click();
  await deleteInEditor(page);
  await expect(page.getByText('No link spam deleted')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Filters' }).getByRole('link', { name: 'No link spam' })).toHaveCount(0);
});

test('quotes: a field error, add, edit and delete', async ({ page }) => {
  await signInWithChannel(page);
  await openChatbotPage(page, 'Quotes');
  await expect(page.getByText('No quotes yet')).toBeVisible();
  await page.getByRole('link', { name: 'New quote' }).first().click();
  await page.getByRole('button', { name: 'Add quote' }).click();
  await expect(page.getByText('Text is required')).toBeVisible();
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

test('command templates: operators create (a field error), edit, switch on and delete one; a channel adds it from the gallery', async ({
  page,
  browser,
}) => {
  const operator = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await operator.goto('/sign-in?next=%2Fadmin%2Fcommand-templates');
  await operator.getByRole('link', { name: 'Sign in with Twitch' }).click();
  await operator.locator('label', { hasText: '@nightowlgg' }).locator('input').check();
  await operator.getByRole('button', { name: 'Authorize' }).click();
  await operator.waitForURL('**/admin/command-templates');
  await operator.getByRole('link', { name: 'New template' }).first().click();
  await operator.getByRole('button', { name: 'Create template' }).click();
  await expect(operator.getByText('Type the name after the !')).toBeVisible();
  await expect(operator.getByText('A response is required')).toBeVisible();
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

  // The operator edits it, switches on adding it to new channels, then deletes it: gone from the gallery.
  const templates = operator.getByRole('table', { name: 'Command templates' });
  await templates.getByRole('link', { name }).click();
  await operator.getByRole('textbox', { name: 'Description' }).fill('A warm hug');
  const forNew = operator.getByRole('switch', { name: 'Add to new channels' });
  await expect(forNew).not.toBeChecked();
  await forNew.click({ force: true });
  await expect(forNew).toBeChecked();
  await operator.getByRole('button', { name: 'Save' }).click();
  await formSaved(operator.getByRole('button', { name: 'Save' }));
  await operator.reload();
  await expect(operator.getByRole('textbox', { name: 'Description' })).toHaveValue('A warm hug');
  await expect(forNew).toBeChecked();
  await deleteInEditor(operator);
  await expect(operator.getByText(`${name} deleted`)).toBeVisible();
  await expect(templates.getByText(name)).toHaveCount(0);
  await page.reload();
  await page.getByRole('button', { name: 'Templates' }).click();
  await expect(page.getByRole('dialog', { name: 'Command templates' })).toBeVisible();
  await expect(gallery.getByRole('article', { name })).toHaveCount(0);
});
