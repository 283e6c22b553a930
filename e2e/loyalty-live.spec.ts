/**
 * Loyalty with viewers in the emulator's chats: a viewer joins their Twitch and Kick accounts with `!link`, the
 * streamer sees both accounts on the viewer card and unlinks one (in the audit log); a giveaway from open to a winner
 * who claims by writing in chat; the queue page filling from `!join` in chat. The bot answers as Greenroom's system
 * bots, connected here by an operator when they are not.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { emulatorControl, signIn, uniqueName, popupClosed } from './support';

type Platform = 'twitch' | 'kick';
interface EmulatorAccount {
  id: string;
  login: string;
  displayName: string;
}
const platformNames: Record<Platform, string> = { twitch: 'Twitch', kick: 'Kick' };

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

const account = (platform: Platform, kind: 'streamer' | 'viewer', prefix: string) =>
  emulatorControl<EmulatorAccount>('POST', '/_emulator/accounts', { platform, kind, displayName: uniqueName(prefix) });

/** Greenroom's system bots on Twitch and Kick, connected by the operator (`nightowlgg`) where they are not. */
async function systemBots(browser: Browser): Promise<void> {
  const operator = await (await browser.newContext()).newPage();
  await operator.goto('/sign-in?next=%2Fadmin%2Fsystem-provider-bots');
  await operator.getByRole('link', { name: 'Sign in with Twitch' }).click();
  await operator.locator('label', { hasText: '@nightowlgg' }).locator('input').check();
  await operator.getByRole('button', { name: 'Authorize' }).click();
  await operator.waitForURL('**/admin/system-provider-bots');
  for (const platform of ['twitch', 'kick'] as const) {
    const name = platformNames[platform];
    const item = operator.getByRole('listitem', { name: `${name} system bot` });
    const connect = item.getByRole('button', { name: `Connect ${name} system bot`, exact: true });
    await expect(connect.or(item.getByRole('button', { name: `Disconnect ${name} system bot` }))).toBeVisible();
    if (!(await connect.isVisible())) continue;
    const [popup] = await Promise.all([operator.waitForEvent('popup'), connect.click()]);
    const bots = (await emulatorControl<{ data: EmulatorAccount[] }>('GET', `/_emulator/accounts?platform=${platform}&kind=bot`)).data;
    await popup
      .locator('label', { hasText: `@${bots[0]!.login}` })
      .locator('input')
      .check();
    await popup.getByRole('button', { name: 'Authorize' }).click();
    await popupClosed(popup);
    await expect(item.getByText(/ · connected/u)).toBeVisible();
  }
  await operator.context().close();
}

/** A new streamer with a channel, live on Twitch and Kick with new emulator accounts. */
async function liveChannel(page: Page): Promise<{ channelId: string; streamers: Record<Platform, EmulatorAccount> }> {
  await signIn(page);
  const channelId = (await api<{ id: string }>(page, 'POST', '/api/2/channels', { display_name: uniqueName('Loyalty ') })).id;
  const streamers = { twitch: await account('twitch', 'streamer', 'Host'), kick: await account('kick', 'streamer', 'Host') };
  for (const platform of ['twitch', 'kick'] as const) {
    await emulatorControl('POST', `/_emulator/channels/${platform}/${streamers[platform].id}/live`, { live: true });
    const back = `/channels/${channelId}`;
    const { url } = await api<{ url: string }>(
      page,
      'GET',
      `/api/2/${platform}/connect-chat-url?channel_id=${channelId}&redirect_to=${encodeURIComponent(back)}`,
    );
    const authorize = new URL(url);
    authorize.searchParams.set('emulator_account', streamers[platform].login);
    await page.goto(authorize.toString());
    await page.waitForURL((u) => u.pathname === back);
  }
  // Both chats reach Greenroom (Twitch's EventSub subscription is made after the connection) before the test talks.
  for (const platform of ['twitch', 'kick'] as const) {
    const hello = uniqueName('hello ');
    await expect
      .poll(
        async () => {
          await emulatorControl('POST', '/_emulator/chat', { platform, channel: streamers[platform].id, text: hello });
          const { records } = await api<{ records: { text: string }[] }>(
            page,
            'GET',
            `/api/2/channels/${channelId}/chat/messages?limit=50`,
          );
          return records.some((r) => r.text === hello);
        },
        { timeout: 30_000, intervals: [1_000] },
      )
      .toBe(true);
  }
  return { channelId, streamers };
}

async function chat(platform: Platform, channel: EmulatorAccount, user: EmulatorAccount, text: string): Promise<void> {
  await emulatorControl('POST', '/_emulator/chat', { platform, channel: channel.id, user: user.id, text });
}

/** What Greenroom said in a channel's chat (the emulator's record of messages sent through its API). */
async function said(platform: Platform, channel: EmulatorAccount): Promise<string[]> {
  const body = await emulatorControl<{ data: { text: string }[] }>(
    'GET',
    `/_emulator/messages?platform=${platform}&channel=${channel.id}&origin=product`,
  );
  return body.data.map((m) => m.text);
}

/**
 * Types `text` and waits for the bot's answer matching `answer` (typed once more if none came: a system bot connected
 * moments ago may still be joining the chat).
 */
async function ask(platform: Platform, channel: EmulatorAccount, user: EmulatorAccount, text: string, answer: RegExp): Promise<string> {
  const before = (await said(platform, channel)).length;
  const answered = async () => (await said(platform, channel)).slice(before).find((l) => answer.test(l));
  for (let attempt = 1; ; attempt++) {
    await chat(platform, channel, user, text);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const line = await answered();
      if (line) return line;
      await new Promise((r) => setTimeout(r, 250));
    }
    if (attempt === 2)
      throw new Error(`no answer to ${text} on ${platform}; said: ${JSON.stringify((await said(platform, channel)).slice(before))}`);
  }
}

test.use({ viewport: { width: 1280, height: 800 } });

test.beforeAll(async ({ browser }) => {
  // Signing the operator in and connecting two system bots through their consent popups.
  test.setTimeout(180_000);
  await emulatorControl('PUT', '/_emulator/crowd/rate', { rate: 0, eventRate: 0 });
  await systemBots(browser);
});
test.afterAll(async () => {
  await emulatorControl('PUT', '/_emulator/crowd/rate', { rate: 2, eventRate: 0.05 });
});

test('viewer card: a viewer’s Twitch and Kick accounts joined with !link, unlinked by the streamer, in the audit log', async ({ page }) => {
  test.slow();
  const { channelId, streamers } = await liveChannel(page);
  const onTwitch = await account('twitch', 'viewer', 'Fan');
  const onKick = await account('kick', 'viewer', 'FanK');

  const asked = await ask('twitch', streamers.twitch, onTwitch, '!link', /your link code is [A-Z0-9]{6}\./u);
  const code = /link code is ([A-Z0-9]{6})/u.exec(asked)![1]!;
  await ask('kick', streamers.kick, onKick, `!link ${code}`, /almost done/u);
  await ask('twitch', streamers.twitch, onTwitch, '!link confirm', /now share one wallet/u);

  await page.goto(`/popout/channels/${channelId}/viewers/twitch/${onTwitch.id}`);
  await expect(page.getByRole('heading', { name: onTwitch.displayName })).toBeVisible();
  await expect(page.getByText('Points and linked accounts')).toBeVisible();
  const accounts = page.getByLabel('Linked accounts');
  await expect(accounts.getByText(new RegExp(`^${onTwitch.displayName} Twitch · linked`, 'u'))).toBeVisible();
  await expect(accounts.getByText(new RegExp(`^${onKick.displayName} Kick · linked`, 'u'))).toBeVisible();
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/viewer-card-linked.png`, fullPage: true });

  await accounts.getByRole('button', { name: `Unlink ${onKick.displayName} on Kick` }).click();
  const dialog = page.getByRole('dialog', { name: `Unlink ${onKick.displayName}?` });
  await dialog.getByRole('button', { name: 'Unlink' }).click();
  await expect(page.getByText(`${onKick.displayName} unlinked`)).toBeVisible();
  await expect(page.getByText('No linked accounts: this viewer can join another platform’s account with !link.')).toBeVisible();

  await page.goto(`/channels/${channelId}/user-access`);
  await expect(
    page
      .getByRole('list', { name: 'Audit log entries' })
      .getByText(`unlinked ${onKick.displayName}’s Kick account from their points wallet`),
  ).toBeVisible();
});

test('a giveaway from open to a winner who claims in chat', async ({ page }) => {
  test.slow();
  const { channelId, streamers } = await liveChannel(page);
  const entrant = await account('kick', 'viewer', 'Entrant');
  const title = uniqueName('Mousepad ');
  await page.goto(`/channels/${channelId}/giveaways/new`);
  const form = page.getByRole('form', { name: 'Giveaway' });
  await form.getByRole('textbox', { name: 'Title' }).fill(title);
  await form.getByRole('button', { name: 'Create giveaway' }).click();
  await expect(page.getByText(`${title} saved`)).toBeVisible();
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByText(`${title} is open`)).toBeVisible();
  await expect.poll(async () => (await said('kick', streamers.kick)).some((l) => l.startsWith(`Giveaway “${title}” is open!`))).toBe(true);

  await chat('kick', streamers.kick, entrant, '!enter');
  await expect(page.getByRole('table', { name: 'Entries' }).getByText(entrant.displayName)).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Draw the winner' }).click();
  const winner = page.getByLabel(`Winner ${entrant.displayName}`);
  await expect(winner.getByText('Waiting for claim')).toBeVisible();
  await expect(winner.getByText(`Waiting for ${entrant.displayName} to write in chat.`)).toBeVisible();
  await chat('kick', streamers.kick, entrant, 'That is me! Thank you!');
  await expect(winner.getByText('Claimed', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(winner.getByLabel(`Chat of ${entrant.displayName}`).getByText('That is me! Thank you!')).toBeVisible();
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/giveaway-claimed.png`, fullPage: true });
  await expect
    .poll(async () =>
      (await said('kick', streamers.kick)).includes(`${entrant.displayName} claimed their win in “${title}”! Congratulations!`),
    )
    .toBe(true);
});

test('the queue page fills from !join in chat; pick next', async ({ page }) => {
  test.slow();
  const { channelId, streamers } = await liveChannel(page);
  const first = await account('twitch', 'viewer', 'First');
  const second = await account('kick', 'viewer', 'Second');
  const created = await api<{ id: string }>(page, 'POST', `/api/2/channels/${channelId}/queues`, { name: 'Ranked games' });
  await api(page, 'POST', `/api/2/channels/${channelId}/queues/${created.id}/status`, { status: 'open' });
  await page.goto(`/channels/${channelId}/queues/${created.id}`);
  await expect(page.getByRole('heading', { name: 'Ranked games' })).toBeVisible();

  await ask('twitch', streamers.twitch, first, '!join', /joined “Ranked games” at position 1\./u);
  await ask('kick', streamers.kick, second, '!join', /joined “Ranked games” at position 2\./u);
  const waiting = page.getByRole('table', { name: 'Waiting viewers' });
  await expect(waiting.getByText(first.displayName)).toBeVisible();
  await expect(waiting.getByText(second.displayName)).toBeVisible();
  await page.getByRole('button', { name: 'Pick next' }).click();
  await expect(page.getByText(`${first.displayName} picked`)).toBeVisible();
  await expect(waiting.getByText(first.displayName)).toBeHidden();
  await ask('kick', streamers.kick, second, '!position', /you are #1 of 1 in “Ranked games”\./u);
});
