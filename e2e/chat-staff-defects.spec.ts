/**
 * What a streamer, a moderator and an editor ran into in the chat and staff pages: who messages go out as, the
 * chat menu and toasts, times, the audit log, status pages and connect flows, popouts, account settings, and
 * the activity feed. Every test uses new emulator accounts so it stands alone.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { emulatorControl, signIn, topLeftAlpha, uniqueName, popupClosed } from './support';

interface EmulatorAccount {
  id: string;
  login: string;
  displayName: string;
}

/** An API call from inside the signed-in page, with the app's bearer token and anti-forgery header. */
async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = localStorage.getItem('greenroom.access_token');
      const xsrf = /(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1];
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (xsrf) headers['X-XSRF-TOKEN'] = decodeURIComponent(xsrf);
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
    { method, url, body },
  );
}

/** A new live streamer account on a platform of the emulator. */
async function newStreamer(platform: 'twitch' | 'kick'): Promise<EmulatorAccount> {
  const account = await emulatorControl<EmulatorAccount>('POST', '/_emulator/accounts', {
    platform,
    kind: 'streamer',
    displayName: uniqueName('Live'),
  });
  await emulatorControl('POST', `/_emulator/channels/${platform}/${account.id}/live`, { live: true });
  return account;
}

/** Connects `account` to the channel through connect-chat-url and the emulator's non-interactive consent. */
async function connectPlatform(page: Page, channelId: string, platform: 'twitch' | 'kick', account: EmulatorAccount): Promise<void> {
  const back = `/channels/${channelId}`;
  const { url } = await api<{ url: string }>(
    page,
    'GET',
    `/api/2/${platform}/connect-chat-url?channel_id=${channelId}&redirect_to=${encodeURIComponent(back)}`,
  );
  const authorize = new URL(url);
  authorize.searchParams.set('emulator_account', account.login);
  await page.goto(authorize.toString());
  await page.waitForURL((u) => u.pathname === back);
}

/** Signs in as a new streamer with a channel; returns the channel id. */
async function streamerWithChannel(page: Page): Promise<string> {
  await signIn(page);
  return (await api<{ id: string }>(page, 'POST', '/api/2/channels', { display_name: uniqueName('Defects ') })).id;
}

/** A new signed-in user who joined the channel at `level` through an invitation. */
async function member(browser: Browser, owner: Page, channelId: string, level: 7 | 100 | 200): Promise<{ page: Page; name: string }> {
  const invite = await api<{ id: string }>(owner, 'POST', `/api/2/channels/${channelId}/user-invites`, { level });
  const page = await (await browser.newContext()).newPage();
  const name = await signIn(page);
  await api(page, 'POST', `/api/2/channel-invites/${encodeURIComponent(invite.id)}/accept`);
  return { page, name };
}

async function say(platform: 'twitch' | 'kick', channel: EmulatorAccount, text: string): Promise<void> {
  await emulatorControl('POST', '/_emulator/chat', { platform, channel: channel.id, text });
}

const row = (page: Page, text: string) => page.locator('[data-message-id]').filter({ hasText: text });

interface Action {
  type: string;
  actorId: string | null;
  data: Record<string, unknown>;
}
async function sentBy(platform: string, text: string): Promise<string | null> {
  const { data } = await emulatorControl<{ data: Action[] }>('GET', `/_emulator/actions?platform=${platform}`);
  return data.find((a) => a.type === 'chat.send' && a.data.text === text)?.actorId ?? null;
}

/** Boxes of two locators do not overlap (by more than `slack` px: borders may touch). */
async function apart(a: ReturnType<Page['locator']>, b: ReturnType<Page['locator']>, slack = 0): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return true;
  return x.x + x.width <= y.x + slack || y.x + y.width <= x.x + slack || x.y + x.height <= y.y + slack || y.y + y.height <= x.y + slack;
}

test.beforeAll(async () => {
  // Only what the tests inject: no simulated crowd while this file runs.
  await emulatorControl('PUT', '/_emulator/crowd/rate', { rate: 0, eventRate: 0 });
});
test.afterAll(async () => {
  await emulatorControl('PUT', '/_emulator/crowd/rate', { rate: 2, eventRate: 0.05 });
});

test('"As bot" on Twitch goes out as the system bot, follows it when replaced and stops when it is disconnected', async ({
  page,
  browser,
}) => {
  // Two sign-ins, three consents and three sends through the live connection: longer than most tests.
  test.slow();
  // The channel is connected before any system bot exists.
  const channelId = await streamerWithChannel(page);
  const streamer = await newStreamer('twitch');
  await connectPlatform(page, channelId, 'twitch', streamer);

  const operator = await (await browser.newContext()).newPage();
  await operator.goto('/sign-in?next=%2Fadmin%2Fsystem-provider-bots');
  await operator.getByRole('link', { name: 'Sign in with Twitch' }).click();
  await operator.locator('label', { hasText: '@nightowlgg' }).locator('input').check();
  await operator.getByRole('button', { name: 'Authorize' }).click();
  await operator.waitForURL('**/admin/system-provider-bots');
  const twitchBot = operator.getByRole('listitem', { name: 'Twitch system bot' });
  const connectBot = async (name: string) => {
    const [popup] = await Promise.all([
      operator.waitForEvent('popup'),
      twitchBot.getByRole('button', { name: /^(Connect|Reconnect) Twitch system bot$/ }).click(),
    ]);
    await popup.locator('label', { hasText: '@' }).filter({ hasText: name }).locator('input').check();
    await popup.getByRole('button', { name: 'Authorize' }).click();
    await popupClosed(popup);
    await expect(twitchBot.getByText(new RegExp(`^${name} · connected`))).toBeVisible();
  };
  // The list item shows before the bots load: wait for its buttons, then read which one it has.
  await expect(twitchBot.getByRole('button', { name: /^(Connect|Disconnect) Twitch system bot$/ }).first()).toBeVisible();
  if (await twitchBot.getByRole('button', { name: 'Disconnect Twitch system bot' }).isVisible()) {
    await twitchBot.getByRole('button', { name: 'Disconnect Twitch system bot' }).click();
    await operator.getByRole('dialog', { name: 'Disconnect Twitch?' }).getByRole('button', { name: 'Disconnect' }).click();
  }
  await connectBot('GreenroomBot');
  // Relative times read "Now", not "just now".
  await expect(twitchBot.getByText('GreenroomBot · connected Now')).toBeVisible();

  const bots = (await emulatorControl<{ data: EmulatorAccount[] }>('GET', '/_emulator/accounts?platform=twitch&kind=bot')).data;
  const botId = (name: string) => bots.find((b) => b.displayName === name)!.id;

  await page.goto(`/channels/${channelId}/chat`);
  const composer = page.getByRole('form', { name: 'Send a chat message' });
  await expect(composer.getByText('As bot')).toBeEnabled();
  const send = async (text: string) => {
    await composer.getByText('As bot').click();
    await composer.getByRole('textbox', { name: 'Message' }).fill(text);
    await composer.getByRole('button', { name: 'Send' }).click();
    await expect(composer.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  };
  const first = uniqueName('as bot ');
  await send(first);
  await expect.poll(() => sentBy('twitch', first)).toBe(botId('GreenroomBot'));
  await expect(row(page, first)).toBeVisible();

  await connectBot('HelperBot');
  const second = uniqueName('as the new bot ');
  await send(second);
  await expect.poll(() => sentBy('twitch', second)).toBe(botId('HelperBot'));

  await twitchBot.getByRole('button', { name: 'Disconnect Twitch system bot' }).click();
  await operator.getByRole('dialog', { name: 'Disconnect Twitch?' }).getByRole('button', { name: 'Disconnect' }).click();
  // The composer learns at once (live platform list): no bot to send as any more.
  await expect(composer.getByRole('radio', { name: 'As bot' })).toBeDisabled();
  await operator.context().close();
});

test('a Mod sends as the bot, the Kick card says which account that is, and the audit log says who sent what as whom', async ({
  page,
  browser,
}) => {
  const channelId = await streamerWithChannel(page);
  const kick = await newStreamer('kick');
  await connectPlatform(page, channelId, 'kick', kick);
  await page.goto(`/channels/${channelId}/providers`);
  const card = page.getByRole('listitem', { name: `Kick: ${kick.login}` });
  await expect(card.getByText("Bot messages are sent by the bot of Greenroom's Kick app")).toBeVisible();
  await expect(card.getByText(`Bot messages are sent as ${kick.login}`)).toHaveCount(0);

  const mod = await member(browser, page, channelId, 7);
  await mod.page.goto(`/channels/${channelId}/chat`);
  const composer = mod.page.getByRole('form', { name: 'Send a chat message' });
  await expect(composer.getByRole('status', { name: 'Send as' })).toHaveText('Sending as the bot');
  await expect(composer.getByText('As streamer')).toHaveCount(0);
  const text = uniqueName('mod line ');
  await composer.getByRole('textbox', { name: 'Message' }).fill(text);
  await composer.getByRole('button', { name: 'Send' }).click();
  await expect(composer.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  await expect.poll(() => sentBy('kick', text)).not.toBeNull();
  expect(await sentBy('kick', text)).not.toBe(kick.id);

  await page.goto(`/channels/${channelId}/user-access`);
  const log = page.getByRole('list', { name: 'Audit log entries' });
  const entry = log.getByRole('listitem').filter({ hasText: `sent “${text}” on Kick as the bot` });
  await expect(entry).toContainText(mod.name);
  // Filters: by person and by action.
  const select = (name: string) => page.getByRole('textbox', { name }).or(page.getByRole('combobox', { name }));
  await select('Person').click();
  await page.getByRole('option', { name: mod.name }).click();
  await expect(log.getByRole('listitem').filter({ hasNotText: mod.name })).toHaveCount(0);
  await select('Action').click();
  await page.getByRole('option', { name: 'Bans', exact: true }).click();
  await expect(page.getByText('Nothing matches these filters.')).toBeVisible();
  await select('Action').click();
  await page.getByRole('option', { name: 'Messages sent from Greenroom' }).click();
  await expect(log.getByRole('listitem')).toHaveCount(1);
  await mod.page.context().close();
});

test.describe('the chat page', () => {
  let channelId = '';
  let streamer: EmulatorAccount;

  test.beforeEach(async ({ page }) => {
    channelId = await streamerWithChannel(page);
    streamer = await newStreamer('twitch');
    await connectPlatform(page, channelId, 'twitch', streamer);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`/channels/${channelId}/chat`);
    await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  });

  test('menus are menus, the Timeout submenu stays beside its parent at the right edge, times read HH:mm:ss', async ({ page }) => {
    const text = uniqueName('menu ');
    await say('twitch', streamer, text);
    const line = row(page, text);
    await expect(line).toBeVisible();
    await expect(line.locator('time')).toHaveText(/^\d{2}:\d{2}:\d{2}$/);

    const box = (await line.boundingBox())!;
    await line.click({ button: 'right', position: { x: box.width - 12, y: box.height / 2 } });
    const menu = page.getByRole('menu', { name: /^Actions for/ });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Ban', exact: true })).toBeVisible();
    await menu.getByRole('menuitem', { name: 'Timeout' }).hover();
    const submenu = page.getByRole('menu', { name: 'Timeout' });
    await expect(submenu.getByRole('menuitem', { name: '10 min' })).toBeVisible();
    expect(await apart(submenu, menu, 8)).toBe(true);
    const sub = (await submenu.boundingBox())!;
    expect(sub.x).toBeGreaterThanOrEqual(0);
    expect(sub.x + sub.width).toBeLessThanOrEqual(1280);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    // From the keyboard: the "⋯" button opens the same menu with focus inside it.
    await line.hover();
    await line.getByRole('button', { name: /Actions for/ }).focus();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await page.keyboard.press('Escape');
  });

  test('an open menu holds its line still while chat keeps coming, and closes with it gone', async ({ page }) => {
    const text = uniqueName('hold ');
    await say('twitch', streamer, text);
    const line = row(page, text);
    await line.click({ button: 'right' });
    const menu = page.getByRole('menu', { name: /^Actions for/ });
    await expect(menu).toBeVisible();
    const before = (await line.boundingBox())!;
    await emulatorControl('POST', '/_emulator/crowd/burst', { count: 60, platform: 'twitch', channel: streamer.id });
    await expect(page.getByRole('button', { name: /New messages \(\d+\)/ })).toBeVisible();
    expect((await line.boundingBox())!.y).toBeCloseTo(before.y, 0);
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    // Closed, the live view resumes by itself.
    await expect(page.getByRole('button', { name: /New messages|back to live/ })).toBeHidden();
  });

  test('a failed action shows one toast, above the composer and off the newest lines', async ({ page }) => {
    const text = uniqueName('fails ');
    await say('twitch', streamer, text);
    const line = row(page, text);
    await expect(line).toBeVisible();
    await emulatorControl('POST', '/_emulator/faults', {
      platform: 'twitch',
      match: '/moderation/bans',
      kind: 'status',
      status: 400,
      count: 1,
    });
    await line.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Timeout' }).hover();
    await page.getByRole('menuitem', { name: '10 min' }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Twitch refused' });
    await expect(toast).toHaveCount(1);
    const composer = page.getByRole('form', { name: 'Send a chat message' });
    expect(await apart(toast, composer)).toBe(true);
    expect(await apart(toast, page.getByRole('button', { name: 'Send' }))).toBe(true);
    // The newest line is above the toast, clickable.
    const newest = page.locator('[data-message-id]').last();
    expect(await apart(toast, newest)).toBe(true);
    await emulatorControl('DELETE', '/_emulator/faults');
  });

  test('the viewer card lists our own timeout once, and the audit log says it in words', async ({ page, context }) => {
    const viewer = await emulatorControl<EmulatorAccount>('POST', '/_emulator/accounts', {
      platform: 'twitch',
      displayName: uniqueName('Chatty'),
    });
    const text = uniqueName('time me out ');
    await emulatorControl('POST', '/_emulator/chat', { platform: 'twitch', channel: streamer.id, text, user: viewer.id });
    // Pinned by id: once timed out, the line's text is hidden.
    await expect(row(page, text)).toBeVisible();
    const line = page.locator(`[data-message-id="${await row(page, text).getAttribute('data-message-id')}"]`);
    await line.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Timeout' }).hover();
    await page.getByRole('menuitem', { name: '10 min' }).click();
    await expect(page.getByText('User timed out for 0:10:00')).toBeVisible();
    await expect(line).toHaveAttribute('data-removed', 'timeout');

    await line.click({ button: 'right' });
    const [card] = await Promise.all([context.waitForEvent('page'), page.getByRole('menuitem', { name: 'Open viewer card' }).click()]);
    await expect(card.getByText(/^Timed out for 0:10:00 by /)).toHaveCount(1);
    await expect(card.getByText(/^Chat cleared/)).toHaveCount(0);

    await page.goto(`/channels/${channelId}/user-access`);
    await expect(
      page.getByRole('list', { name: 'Audit log entries' }).getByText(`timed out ${viewer.displayName} on Twitch for 0:10:00`),
    ).toBeVisible();
  });

  test('the composer picks its platforms with a toggle each', async ({ page }) => {
    const composer = page.getByRole('form', { name: 'Send a chat message' });
    const sendTo = composer.getByRole('group', { name: 'Send to' });
    const twitch = sendTo.getByRole('checkbox', { name: `Twitch · ${streamer.login}` });
    await expect(twitch).toBeChecked();
    await composer.getByRole('textbox', { name: 'Message' }).fill('hello');
    await expect(composer.getByRole('button', { name: 'Send' })).toBeEnabled();
    await sendTo.getByText(`Twitch · ${streamer.login}`).click();
    await expect(twitch).not.toBeChecked();
    await expect(sendTo.getByRole('alert')).toHaveText('Pick at least one platform');
    await expect(composer.getByRole('button', { name: 'Send' })).toBeDisabled();
    await sendTo.getByText(`Twitch · ${streamer.login}`).click();
    await expect(composer.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  test('pop-out buttons open the chat, the public chat and the activity feed in their own windows', async ({ page, context }) => {
    const [chat] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Pop out chat' }).click()]);
    await chat.waitForURL(`**/popout/channels/${channelId}/staff-chat`);
    await expect(chat.getByRole('heading', { name: 'Chat', level: 1 })).toBeVisible();
    await expect(chat.getByRole('form', { name: 'Send a chat message' })).toBeVisible();

    const [publicChat] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Open the public chat popout' }).click(),
    ]);
    await publicChat.waitForURL(`**/popout/channels/${channelId}/chat`);
    await expect(publicChat.getByRole('main', { name: 'Chat' })).toBeVisible();

    await page.goto(`/channels/${channelId}/activity-feed`);
    const [feed] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Pop out activity feed' }).click()]);
    await feed.waitForURL(`**/popout/channels/${channelId}/activity-feed`);
    await expect(feed.getByRole('heading', { name: 'Activity Feed' })).toBeVisible();
  });

  test('the activity feed says "1 gift" and explains its chips', async ({ page }) => {
    await page.goto(`/channels/${channelId}/activity-feed`);
    await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
    await emulatorControl('POST', '/_emulator/events', { platform: 'twitch', channel: streamer.id, type: 'gift', data: { count: 1 } });
    await emulatorControl('POST', '/_emulator/events', { platform: 'twitch', channel: streamer.id, type: 'cheer', data: { bits: 500 } });
    const feed = page.getByRole('list', { name: 'Activity' });
    const gift = feed.getByRole('listitem').filter({ hasText: 'gifted subs' });
    await expect(gift.getByLabel('Subscriptions gifted: 1 gift')).toBeVisible();
    await expect(gift.getByText('1 gifts')).toHaveCount(0);
    const cheer = feed.getByRole('listitem').filter({ hasText: 'cheered' });
    await expect(cheer.getByLabel('Bits cheered: 500 bits')).toBeVisible();
    await expect(cheer.getByText('×500')).toHaveCount(0);
    // Newest first.
    await expect(feed.getByRole('listitem').first()).toContainText('cheered');
  });
});

test('an unknown page inside a channel keeps its shell; the dashboard shows ages as "Now"', async ({ page }) => {
  const channelId = await streamerWithChannel(page);
  await page.goto(`/channels/${channelId}`);
  await expect(page.getByText('(Now)')).toBeVisible();
  await page.goto(`/channels/${channelId}/no-such-page`);
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Dashboard' })).toBeVisible();
});

test('the public chat popout is see-through for OBS with transparent=1 and dark without it', async ({ page }) => {
  const channelId = await streamerWithChannel(page);
  await page.goto(`/popout/channels/${channelId}/chat?transparent=1`);
  await expect(page.getByRole('main', { name: 'Chat' })).toBeVisible();
  expect(topLeftAlpha(await page.screenshot({ omitBackground: true }))).toBe(0);
  await page.goto(`/popout/channels/${channelId}/chat`);
  await expect(page.getByRole('main', { name: 'Chat' })).toBeVisible();
  expect(topLeftAlpha(await page.screenshot({ omitBackground: true }))).toBe(255);
});

test('the public chat popout of an unknown channel says so and stops trying to connect', async ({ page }) => {
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.clock.install();
  await page.goto('/popout/channels/01900000-0000-7000-8000-000000000000/chat');
  await expect(page.getByRole('alert')).toHaveText('Channel not found');
  // A minute of reconnect timers later, no new attempt was made.
  const attempts = sockets.length;
  await page.clock.runFor(60_000);
  expect(sockets.length).toBe(attempts);
  expect(attempts).toBeLessThanOrEqual(1);
});

test('status pages opened directly claim nothing; a cancelled connect tells the page that opened it', async ({ page }) => {
  await signIn(page);
  await page.goto('/user-provider-connected');
  await expect(page.getByRole('heading', { name: 'Nothing to connect here' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Connected' })).toHaveCount(0);
  await page.goto('/channel-provider-connected');
  await expect(page.getByRole('heading', { name: 'Nothing to connect here' })).toBeVisible();

  await page.goto('/oauth/nope?code=x&state=y');
  await expect(page.getByRole('heading', { name: 'Unknown platform' })).toBeVisible();
  await expect(page.getByText('“nope” is not a platform Greenroom connects to. Start again from Greenroom.')).toBeVisible();

  // Signed in, the sign-in page forwards to where it was asked to go.
  await page.goto(`/sign-in?next=${encodeURIComponent('/create-channel')}`);
  await page.waitForURL('**/create-channel');

  // Cancelling the consent of a connect popup: the popup closes, the main window says why, no sign-in link anywhere.
  await page.goto('/channels');
  await page.getByRole('button', { name: /^User menu:/ }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  const kick = page.getByRole('dialog').getByRole('listitem', { name: 'Kick' });
  const [popup] = await Promise.all([page.waitForEvent('popup'), kick.getByRole('button', { name: 'Connect' }).click()]);
  await expect(popup.getByRole('heading', { name: /Sign in to/ })).toBeVisible();
  await popup.getByRole('button', { name: 'Cancel' }).click();
  await popupClosed(popup);
  await expect(page.getByText('Kick did not connect: you cancelled it.')).toBeVisible();
  await expect(kick.getByText('Not connected')).toBeVisible();
});

test("deleting the account shows the server's answer; the only sign-in connection explains why it stays", async ({ page }) => {
  const name = await signIn(page);
  await page.getByRole('button', { name: `User menu: ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog');
  await expect(settings.getByText('Your only way to sign in: connect another platform before disconnecting this one.')).toBeVisible();
  await expect(settings.getByRole('listitem', { name: 'Twitch' }).getByRole('button', { name: 'Disconnect' })).toBeDisabled();

  await settings.getByRole('button', { name: 'Delete user profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete user profile' });
  await dialog.getByRole('textbox', { name: 'Display name' }).fill(`${name}x`);
  await dialog.getByRole('button', { name: 'Delete user profile' }).click();
  // The server's refusal, on the field it is about.
  await expect(dialog.getByText(`Type your display name "${name}" exactly to confirm.`)).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Display name' })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toBeVisible();
});

test('Editors are told who can fix "Reconnect needed"', async ({ page, browser }) => {
  const channelId = await streamerWithChannel(page);
  const streamer = await newStreamer('twitch');
  await connectPlatform(page, channelId, 'twitch', streamer);
  const editor = await member(browser, page, channelId, 100);
  // The platform revokes the streamer's grant: the next call finds out and flags the connection.
  await emulatorControl('POST', '/_emulator/tokens/revoke', { platform: 'twitch', userId: streamer.id });
  const [connection] = await api<{ id: string }[]>(page, 'GET', `/api/2/channels/${channelId}/providers`);
  await api(page, 'GET', `/api/2/channels/${channelId}/providers/${connection!.id}/stream-info`).catch(() => null);

  await editor.page.goto(`/channels/${channelId}/providers`);
  const card = editor.page.getByRole('listitem', { name: `Twitch: ${streamer.login}` });
  await expect(card.getByText('Reconnect needed').first()).toBeVisible();
  await expect(card.getByText('Only an Admin or the Owner of this channel can reconnect it: ask one of them.')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Reconnect Twitch' })).toHaveCount(0);
  await editor.page.context().close();
});
