import { expect, test, type Browser, type Page } from '@playwright/test';
import { consentAsNewAccount, signIn, uniqueName, popupClosed } from './support';

/** The emulator account configured as operator in playwright.config.ts (GREENROOM_ADMINS). */
const OPERATOR_LOGIN = 'nightowlgg';
const OPERATOR_TWITCH_ID = '326571747';

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** Status of an API call made by the page with its own session (as a hand-crafted request would be). */
async function apiStatus(page: Page, path: string): Promise<number> {
  return page.evaluate(async (url) => {
    const token = localStorage.getItem('greenroom.access_token');
    const response = await fetch(url, { headers: { authorization: `Bearer ${token ?? ''}` } });
    return response.status;
  }, path);
}

async function createChannel(page: Page, name: string): Promise<string> {
  await page.goto('/create-channel');
  await page.getByRole('textbox', { name: /name/i }).fill(name);
  await page.getByRole('button', { name: /create/i }).click();
  await page.waitForURL(/\/channels\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname.split('/')[2]!;
}

async function createInvitation(page: Page, channelId: string, level: 'Mod' | 'Editor' | 'Admin'): Promise<string> {
  await page.goto(`/channels/${channelId}/user-access`);
  const form = page.getByRole('form', { name: 'Create invitation' });
  await form
    .getByRole('textbox', { name: 'Level' })
    .or(form.getByRole('combobox', { name: 'Level' }))
    .click();
  await page.getByRole('option', { name: level, exact: true }).click();
  await form.getByRole('button', { name: 'Create invitation' }).click();
  const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  expect(link).toMatch(/\/channel-invite\/[A-Za-z0-9_-]{43}$/);
  return link;
}

const nav = (page: Page) => page.getByRole('navigation');

test('an Owner invites a Mod, who gets moderation only until promoted', async ({ page: owner, browser }) => {
  const ownerName = await signIn(owner);
  const channelName = uniqueName('Staff Room ');
  const channelId = await createChannel(owner, channelName);
  await expect(nav(owner).getByRole('link', { name: 'User Access' })).toBeVisible();
  const link = await createInvitation(owner, channelId, 'Mod');
  await expect(owner.getByRole('list', { name: 'Pending invitations' }).getByRole('listitem')).toHaveCount(1);

  // Signed out, the link goes through /sign-in?next=… and back.
  const guest = await newPage(browser);
  await guest.goto(link);
  await guest.waitForURL('**/sign-in?next=*');
  expect(new URL(guest.url()).searchParams.get('next')).toBe(new URL(link).pathname);
  await guest.getByRole('link', { name: 'Sign in with Twitch' }).click();
  const guestName = uniqueName('Moderator');
  await consentAsNewAccount(guest, guestName);
  await guest.waitForURL('**/channel-invite/**');
  await expect(guest.getByRole('heading', { name: `Join ${channelName}` })).toBeVisible();
  await expect(guest.getByText(ownerName)).toBeVisible();
  await expect(guest.getByText('Mod', { exact: true })).toBeVisible();
  await guest.getByRole('button', { name: 'Accept invitation' }).click();
  await guest.waitForURL(`**/channels/${channelId}`);

  // A Mod sees chat moderation, the activity feed and the Chatbot group for its one Mod page (Song Requests), not the
  // Editor or Admin pages.
  await expect(nav(guest).getByRole('link', { name: 'Chat', exact: true })).toBeVisible();
  await expect(nav(guest).getByRole('link', { name: 'Activity Feed' })).toBeVisible();
  await expect(nav(guest).getByText('Chatbot', { exact: true })).toBeVisible();
  for (const hidden of ['User Access', 'Platforms', 'Chat Commands', 'Stream Widgets', 'Stats', 'Channel Settings']) {
    await expect(nav(guest).getByText(hidden, { exact: true })).toHaveCount(0);
  }
  await guest.goto(`/channels/${channelId}/user-access`);
  await expect(guest.getByRole('heading', { name: 'You do not have access' })).toBeVisible();
  // The server is the authority: calling a route above the Mod level directly is refused.
  expect(await apiStatus(guest, `/api/2/channels/${channelId}/users`)).toBe(403);
  expect(await apiStatus(guest, `/api/2/channels/${channelId}/audit-log`)).toBe(403);
  expect(await apiStatus(guest, `/api/2/channels/${channelId}/providers/any/stream-info`)).toBe(403); // an Editor route

  // The used link tells anyone else so.
  const late = await newPage(browser);
  await signIn(late);
  await late.goto(new URL(link).pathname);
  await expect(late.getByRole('heading', { name: 'This invitation has already been used.' })).toBeVisible();
  await expect(late.getByRole('link', { name: 'Go to your channels' })).toBeVisible();

  // The Owner sees the new Mod, promotes them to Editor, and the audit log records both.
  await owner.reload();
  const level = owner.getByRole('combobox', { name: `Level of ${guestName}` });
  await expect(level).toHaveValue('Mod');
  await level.click();
  await expect(owner.getByRole('option', { name: 'Owner' })).toHaveCount(0);
  await owner.getByRole('option', { name: 'Editor', exact: true }).click();
  await expect(owner.getByText(`${guestName} is now Editor`)).toBeVisible();
  const log = owner.getByRole('list', { name: 'Audit log entries' });
  await expect(log.getByText(`changed ${guestName} from Mod to Editor`)).toBeVisible();
  await expect(log.getByText('joined as Mod through an invitation')).toBeVisible();

  await guest.goto(`/channels/${channelId}`);
  await expect(guest.getByText('You are Editor in this channel.')).toBeVisible();
  // Editors see the Platforms pages (stream title and category) but cannot connect platforms.
  await nav(guest)
    .getByRole('link', { name: /Platforms/ })
    .click();
  await expect(guest.getByText('An admin of this channel can connect its platforms.')).toBeVisible();
  await expect(guest.getByRole('heading', { name: 'Connect a platform' })).toHaveCount(0);
  expect(await apiStatus(guest, `/api/2/channels/${channelId}/users`)).toBe(403);

  // Promoted to Admin, the User Access page appears in their navigation.
  await level.click();
  await owner.getByRole('option', { name: 'Admin', exact: true }).click();
  await expect(owner.getByText(`${guestName} is now Admin`)).toBeVisible();
  await guest.reload();
  await nav(guest).getByRole('link', { name: 'User Access' }).click();
  await expect(guest.getByRole('heading', { name: 'User Access' })).toBeVisible();
  // An Admin cannot change the Owner or give ownership away.
  await expect(guest.getByRole('combobox', { name: `Level of ${ownerName}` })).toHaveCount(0);
  await expect(guest.getByRole('button', { name: 'Transfer ownership' })).toHaveCount(0);
  expect(await apiStatus(guest, `/api/2/channels/${channelId}/users`)).toBe(200);

  // Anyone but the Owner can leave from the dashboard.
  await nav(guest).getByRole('link', { name: 'Dashboard' }).click();
  await guest.getByRole('button', { name: 'Leave channel' }).click();
  await guest.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
  await guest.waitForURL('**/channels');
  expect(await apiStatus(guest, `/api/2/channels/${channelId}`)).toBe(404);
});

test('a revoked invitation shows a clear message', async ({ page: owner, browser }) => {
  await signIn(owner);
  const channelId = await createChannel(owner, uniqueName('Revoked '));
  const link = await createInvitation(owner, channelId, 'Editor');
  await owner.getByRole('button', { name: 'Revoke Editor invitation' }).click();
  await owner.getByRole('dialog', { name: 'Revoke invitation?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(owner.getByText('No pending invitations.')).toBeVisible();

  const guest = await newPage(browser);
  await signIn(guest);
  await guest.goto(new URL(link).pathname);
  await expect(guest.getByRole('heading', { name: 'This invitation has been revoked.' })).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Accept invitation' })).toHaveCount(0);
});

test('the Owner transfers ownership with the typed channel name and becomes Admin', async ({ page: owner, browser }) => {
  await signIn(owner);
  const channelName = uniqueName('Handover ');
  const channelId = await createChannel(owner, channelName);
  const link = await createInvitation(owner, channelId, 'Editor');
  const heir = await newPage(browser);
  const heirName = await signIn(heir);
  await heir.goto(new URL(link).pathname);
  await heir.getByRole('button', { name: 'Accept invitation' }).click();
  await heir.waitForURL(`**/channels/${channelId}`);

  await owner.reload();
  await owner.getByRole('button', { name: 'Transfer ownership' }).click();
  const dialog = owner.getByRole('dialog', { name: 'Transfer ownership' });
  await dialog
    .getByRole('textbox', { name: 'New owner' })
    .or(dialog.getByRole('combobox', { name: 'New owner' }))
    .click();
  await owner.getByRole('option', { name: new RegExp(heirName) }).click();
  const submit = dialog.getByRole('button', { name: 'Transfer ownership' });
  await dialog.getByRole('textbox', { name: 'Channel name' }).fill(`${channelName}x`);
  await expect(submit).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Channel name' }).fill(channelName);
  await submit.click();
  await expect(owner.getByText(`${heirName} is now the Owner of ${channelName}`)).toBeVisible();
  await expect(owner.getByRole('heading', { name: 'User Access' }).locator('..').getByText('Admin', { exact: true })).toBeVisible();
  await expect(owner.getByRole('button', { name: 'Transfer ownership' })).toHaveCount(0);
});

test('a non-operator is refused the admin area; an operator sees every channel and manages system bots', async ({
  page: user,
  browser,
}) => {
  await signIn(user);
  const channelName = uniqueName('Someone Else ');
  await createChannel(user, channelName);
  await user.goto('/admin');
  await expect(user.getByRole('heading', { name: 'You do not have access' })).toBeVisible();
  await expect(user.getByRole('link', { name: 'System Provider Bots' })).toHaveCount(0);
  expect(await apiStatus(user, '/api/2/admin/channels')).toBe(403);
  expect(await apiStatus(user, '/api/2/system-bot-providers')).toBe(403);

  // The operator is the emulator's seeded account configured in GREENROOM_ADMINS.
  const operator = await newPage(browser);
  const accounts = (await (
    await operator.request.get(`http://localhost:${Number(process.env.E2E_PORT ?? 3200) + 1}/_emulator/accounts?platform=twitch`)
  ).json()) as { data: { id: string; login: string }[] };
  expect(
    accounts.data.find((a) => a.login === OPERATOR_LOGIN)?.id,
    'the seeded operator account id changed: update GREENROOM_ADMINS in playwright.config.ts',
  ).toBe(OPERATOR_TWITCH_ID);
  await operator.goto('/sign-in?next=%2Fadmin');
  await operator.getByRole('link', { name: 'Sign in with Twitch' }).click();
  await operator
    .locator('label', { hasText: `@${OPERATOR_LOGIN}` })
    .locator('input')
    .check();
  await operator.getByRole('button', { name: 'Authorize' }).click();
  await operator.waitForURL('**/admin');
  await operator.getByRole('searchbox', { name: 'Search by name' }).fill(channelName);
  await operator.getByRole('link', { name: channelName }).click();
  await expect(operator.getByRole('heading', { name: channelName })).toBeVisible();

  // System bots: the nav badge is "!" while none exists; connect through the popup, then disconnect.
  await operator.goto('/admin/system-provider-bots');
  const navLink = operator.getByRole('navigation').getByRole('link', { name: /System Provider Bots/ });
  const twitch = operator.getByRole('listitem', { name: 'Twitch system bot' });
  // Other tests connect system bots on this server too: start from none.
  await expect(twitch).toBeVisible();
  for (const name of ['Twitch', 'Kick', 'YouTube']) {
    const disconnect = operator.getByRole('button', { name: `Disconnect ${name} system bot` });
    const connect = operator.getByRole('button', { name: `Connect ${name} system bot`, exact: true });
    // The list item shows before the bots load: wait for its buttons, then read which one it has.
    await expect(connect.or(disconnect)).toBeVisible();
    if (!(await disconnect.isVisible())) continue;
    await disconnect.click();
    await operator
      .getByRole('dialog', { name: `Disconnect ${name}?` })
      .getByRole('button', { name: 'Disconnect' })
      .click();
    await expect(operator.getByRole('button', { name: `Connect ${name} system bot`, exact: true })).toBeVisible();
  }
  await expect(navLink.getByLabel('No system bot connected')).toHaveText('!');
  const [popup] = await Promise.all([
    operator.waitForEvent('popup'),
    twitch.getByRole('button', { name: 'Connect Twitch system bot', exact: true }).click(),
  ]);
  await popup.locator('label', { hasText: '@' }).filter({ hasText: 'GreenroomBot' }).locator('input').check();
  await popup.getByRole('button', { name: 'Authorize' }).click();
  await popupClosed(popup);
  await expect(operator.getByText('Twitch connected successfully')).toBeVisible();
  await expect(twitch.getByText('Connected', { exact: true })).toBeVisible();
  await expect(navLink.getByLabel('No system bot connected')).toHaveCount(0);

  await twitch.getByRole('link', { name: 'Twitch' }).click();
  await expect(operator.getByRole('heading', { name: 'Twitch system bot' })).toBeVisible();
  await expect(operator.getByRole('cell', { name: 'GreenroomBot' })).toBeVisible();
  await operator.getByRole('button', { name: 'Disconnect Twitch system bot' }).click();
  const confirm = operator.getByRole('dialog', { name: 'Disconnect Twitch?' });
  await expect(confirm.getByText('Are you sure you want to disconnect Twitch?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(operator.getByRole('button', { name: 'Connect Twitch system bot', exact: true })).toBeVisible();
  await expect(navLink.getByLabel('No system bot connected')).toHaveText('!');
});
