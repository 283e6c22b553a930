import { expect, test, type Page } from '@playwright/test';
import { signInWithChannel, formSaved } from './support';

/**
 * The loyalty pages in the browser: points settings (a field error, saving, the empty leaderboard), giveaways and the
 * viewer queue. `SHOTS_DIR` saves screenshots at 1280 and 390 px.
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

/** Opens a page of the side navigation's Chatbot group, opening the groups on the way (each shows the next). */
async function openNav(page: Page, groups: string[], name: string): Promise<void> {
  const nav = page.getByRole('navigation');
  await expect(nav.getByText(groups[0]!, { exact: true })).toBeVisible();
  for (const [i, group] of groups.entries()) {
    const next = i + 1 < groups.length ? nav.getByText(groups[i + 1]!, { exact: true }) : nav.getByRole('link', { name, exact: true });
    if (!(await next.isVisible())) await nav.getByText(group, { exact: true }).click();
    await expect(next).toBeVisible();
  }
  await nav.getByRole('link', { name, exact: true }).click();
}

test('points settings: a field error, save, the empty leaderboard', async ({ page }) => {
  await signInWithChannel(page);
  await openNav(page, ['Chatbot', 'Gambling Settings'], 'Points');
  await expect(page.getByRole('heading', { name: 'Points', exact: true })).toBeVisible();
  await expect(page).toHaveTitle(/^Points · /);
  await expect(page.getByText('No viewers have points yet')).toBeVisible();

  const form = page.getByRole('form', { name: 'Points settings' });
  await form.getByRole('textbox', { name: 'Payout every (minutes)' }).fill('0');
  await expect(form.getByText('At least 1 minute')).toBeVisible();
  await form.getByRole('textbox', { name: 'Payout every (minutes)' }).fill('10');
  await form.getByRole('textbox', { name: 'Points name' }).fill('coins');
  await form.getByRole('textbox', { name: 'Sub', exact: true }).fill('750');
  await form.getByRole('combobox', { name: 'Bot accounts that earn nothing' }).fill('@StreamHelperBot');
  await form.getByRole('combobox', { name: 'Bot accounts that earn nothing' }).press('Enter');
  await shot(page, 'points');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Points settings saved')).toBeVisible();
  await formSaved(form.getByRole('button', { name: 'Save' }));

  await page.reload();
  await expect(form.getByRole('textbox', { name: 'Points name' })).toHaveValue('coins');
  await expect(form.getByRole('textbox', { name: 'Payout every (minutes)' })).toHaveValue('10');
  await expect(form.getByRole('textbox', { name: 'Sub', exact: true })).toHaveValue('750');
  await expect(form.getByText('streamhelperbot')).toBeVisible();
  await expect(page.getByText('Viewers earn coins by watching, chatting and supporting the stream.')).toBeVisible();
});

test('giveaways: create with a field error, open, the popout, cancel, the history', async ({ page, context }) => {
  const channelId = await signInWithChannel(page);
  await openNav(page, ['Chatbot'], 'Giveaways');
  await expect(page.getByRole('heading', { name: 'Giveaways', exact: true })).toBeVisible();
  await expect(page.getByText('No giveaways yet')).toBeVisible();
  await page.getByRole('link', { name: 'New giveaway' }).first().click();

  const form = page.getByRole('form', { name: 'Giveaway' });
  await form.getByRole('textbox', { name: 'Title' }).fill('');
  await form.getByRole('button', { name: 'Create giveaway' }).click();
  await expect(form.getByText('Give it a title')).toBeVisible();
  await form.getByRole('textbox', { name: 'Title' }).fill('Game key');
  await form.getByText('Tickets bought with points').click();
  await form.getByRole('textbox', { name: 'Ticket cost' }).fill('250');
  await form.getByRole('textbox', { name: 'Winners', exact: true }).fill('2');
  await shot(page, 'giveaway-new');
  await form.getByRole('button', { name: 'Create giveaway' }).click();
  await expect(page.getByText('Game key saved')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/channels/${channelId}/giveaways/[0-9a-f-]{36}$`));
  const giveawayUrl = page.url();

  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByText('Game key is open')).toBeVisible();
  await expect(page.getByText('No entries yet. Viewers type !enter in chat.')).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Title' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Draw 2 winners' })).toBeDisabled();
  await shot(page, 'giveaway-open');

  const popout = await context.newPage();
  await popout.goto(`/popout/channels/${channelId}/giveaways/${giveawayUrl.split('/').pop()}`);
  await expect(popout.getByRole('heading', { name: 'Game key' })).toBeVisible();
  await expect(popout.getByText('Type !enter in chat to enter')).toBeVisible();
  await expect(popout.getByText('0 entries')).toBeVisible();
  await shot(popout, 'giveaway-popout');

  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel giveaway' }).click();
  await expect(page.getByText('Game key cancelled')).toBeVisible();
  // The popout follows live.
  await expect(popout.getByText('Cancelled')).toBeVisible();
  await popout.close();

  await page.getByRole('link', { name: 'Giveaways' }).first().click();
  const row = page.getByRole('table', { name: 'Giveaways' }).getByRole('row', { name: /Game key/ });
  await expect(row.getByText('Cancelled')).toBeVisible();
  await shot(page, 'giveaways');
});

test('viewer queue: create with a field error, open, a refused pick by name, pause, delete', async ({ page }) => {
  const channelId = await signInWithChannel(page);
  await openNav(page, ['Chatbot'], 'Viewer Queue');
  await expect(page.getByRole('heading', { name: 'Viewer Queue', exact: true })).toBeVisible();
  await expect(page.getByText('No queues yet')).toBeVisible();
  await shot(page, 'queues-empty');
  await page.getByRole('link', { name: 'New queue' }).first().click();

  const form = page.getByRole('form', { name: 'Queue' });
  await form.getByRole('textbox', { name: 'Name' }).fill('');
  await form.getByRole('button', { name: 'Create queue' }).click();
  await expect(form.getByText('Name the queue')).toBeVisible();
  await form.getByRole('textbox', { name: 'Name' }).fill('Viewer games');
  await form.getByRole('textbox', { name: 'Maximum size' }).fill('20');
  await form.getByRole('switch', { name: 'Subs and members go ahead' }).click({ force: true });
  await form.getByRole('button', { name: 'Create queue' }).click();
  await expect(page.getByText('Viewer games saved')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/channels/${channelId}/queues/[0-9a-f-]{36}$`));
  await expect(page.getByText('0 waiting of at most 20')).toBeVisible();

  const status = page.getByRole('radiogroup', { name: 'Queue status' });
  await status.getByText('Open', { exact: true }).click();
  await expect(page.getByText('Nobody is waiting. Viewers type !join in chat.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pick next' })).toBeDisabled();
  const byName = page.getByRole('form', { name: 'Pick by name' });
  await byName.getByRole('textbox', { name: 'Viewer name' }).fill('somebody');
  await byName.getByRole('button', { name: 'Pick this viewer' }).click();
  await expect(byName.getByText('Nobody named “somebody” is waiting.')).toBeVisible();
  await shot(page, 'queue');

  await status.getByText('Paused', { exact: true }).click();
  await page.getByRole('link', { name: 'Viewer Queue' }).first().click();
  const row = page.getByRole('table', { name: 'Queues' }).getByRole('row', { name: /Viewer games/ });
  await expect(row.getByText('Paused')).toBeVisible();
  await expect(row.getByText('0 / 20')).toBeVisible();

  await row.getByRole('link', { name: 'Viewer games' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Viewer games deleted')).toBeVisible();
  await expect(page.getByText('No queues yet')).toBeVisible();
});

test('slots and roulette: odds follow the settings as typed, a field error, save, the saved values after a reload', async ({ page }) => {
  await signInWithChannel(page);
  await openNav(page, ['Chatbot', 'Gambling Settings'], 'Slots');
  await expect(page.getByRole('heading', { name: 'Slots', exact: true })).toBeVisible();
  const odds = page.getByRole('region', { name: 'Odds' });
  const form = page.getByRole('form', { name: 'Slots settings' });
  // The default reels: weights 4, 3, 3, 2, 1.
  await expect(odds.getByLabel('Win chance')).toHaveText('13.43%');
  await form.getByRole('textbox', { name: 'Weight 1' }).fill('1');
  await expect(odds.getByLabel('Win chance')).not.toHaveText('13.43%');
  await form.getByRole('textbox', { name: 'Maximum bet' }).fill('5');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('The maximum bet must be at least the minimum')).toBeVisible();
  await form.getByRole('textbox', { name: 'Maximum bet' }).fill('5000');
  await form.getByRole('textbox', { name: 'Symbol 1' }).fill('PogChamp');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Each symbol once')).toBeVisible();
  await form.getByRole('textbox', { name: 'Symbol 1' }).fill('catJAM');
  await shot(page, 'slots');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Slots settings saved')).toBeVisible();
  await page.reload();
  await expect(form.getByRole('textbox', { name: 'Symbol 1' })).toHaveValue('catJAM');
  await expect(form.getByRole('textbox', { name: 'Maximum bet' })).toHaveValue('5,000');

  await openNav(page, ['Chatbot', 'Gambling Settings'], 'Roulette Settings');
  await expect(page.getByRole('heading', { name: 'Roulette Settings', exact: true })).toBeVisible();
  const roulette = page.getByRole('form', { name: 'Roulette settings' });
  await expect(odds.getByLabel('Expected return')).toHaveText('90%');
  await roulette.getByRole('textbox', { name: 'Win chance' }).fill('60');
  await expect(odds.getByLabel('Expected return')).toHaveText('120%');
  await expect(odds.getByText('Above 100%: viewers win points on average, and the channel hands them out.')).toBeVisible();
  await roulette.getByRole('textbox', { name: 'Win message', exact: true }).fill('');
  await roulette.getByRole('button', { name: 'Save' }).click();
  await expect(roulette.getByText('The win message is required')).toBeVisible();
  await roulette.getByRole('textbox', { name: 'Win message', exact: true }).fill('{user} won {payout} {pointsname}!');
  await shot(page, 'roulette');
  await roulette.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Roulette settings saved')).toBeVisible();
  await formSaved(roulette.getByRole('button', { name: 'Save' }));
  await page.reload();
  await expect(roulette.getByRole('textbox', { name: 'Win chance' })).toHaveValue('60%');
  await expect(roulette.getByRole('textbox', { name: 'Win message', exact: true })).toHaveValue('{user} won {payout} {pointsname}!');
  await expect(odds.getByLabel('Expected return')).toHaveText('120%');
});
