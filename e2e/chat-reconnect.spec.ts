/**
 * No silent gaps: when a live socket drops and comes back, the chat, the activity feed and the public
 * popout fetch what was stored meanwhile (by position), each message once. The test cuts the
 * browser's socket (Playwright routes it) and withholds what the server sends while it is "down".
 */
import { expect, test, type Page, type Request, type WebSocketRoute } from '@playwright/test';
import { emulatorControl, signIn, uniqueName } from './support';

/** A streamer account of its own, live on Twitch, connected to the test's channel. */
async function liveStreamer(): Promise<string> {
  const login = uniqueName('gap').toLowerCase().slice(0, 24);
  await emulatorControl('POST', '/_emulator/accounts', { platform: 'twitch', displayName: login, login, kind: 'streamer' });
  await emulatorControl('POST', `/_emulator/channels/twitch/${login}/live`, { live: true });
  return login;
}

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

/**
 * Routes the page's sockets matching `pattern` through the test: `down()` withholds everything the
 * server sends and then drops the browser's side of the socket; the browser reconnects by itself, and
 * the new socket flows normally.
 */
async function cuttableSockets(page: Page, pattern: RegExp) {
  let open: WebSocketRoute | null = null;
  let withholding = false;
  let connections = 0;
  let spoken = false;
  await page.routeWebSocket(pattern, (ws) => {
    connections++;
    open = ws;
    withholding = false;
    spoken = false;
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (!withholding) ws.send(message);
    });
    ws.onMessage((message) => {
      if (open === ws) spoken = true;
      server.send(message);
    });
  });
  return {
    connections: () => connections,
    /** Until the page's newest socket has sent something (its heartbeat, every 2 s): only an open socket sends. */
    opened: () => expect.poll(() => spoken).toBe(true),
    /** From now on nothing reaches the browser until it reconnects. */
    withhold: () => void (withholding = true),
    /** Drops the browser's socket (as a network failure would); it reconnects within a second. */
    drop: async () => {
      await open?.close({ code: 1011, reason: 'cut by the test' });
    },
  };
}

/** A signed-in user's new channel with a live Twitch streamer's chat connected; returns both, and chat helpers. */
async function connectedChannel(page: Page) {
  const streamer = await liveStreamer();
  await signIn(page);
  const channelId = (await api<{ id: string }>(page, 'POST', '/api/2/channels', { display_name: uniqueName('Gaps') })).id;
  const { url } = await api<{ url: string }>(
    page,
    'GET',
    `/api/2/twitch/connect-chat-url?channel_id=${channelId}&redirect_to=${encodeURIComponent(`/channels/${channelId}`)}`,
  );
  const authorize = new URL(url);
  authorize.searchParams.set('emulator_account', streamer);
  await page.goto(authorize.toString());
  await page.waitForURL((u) => u.pathname === `/channels/${channelId}`);
  /** The streamer's chat says `text`. */
  const say = (text: string) => emulatorControl('POST', '/_emulator/chat', { platform: 'twitch', channel: streamer, text });
  /** Until `text` is in the channel's chat log. */
  const stored = async (text: string) =>
    expect
      .poll(async () => {
        const page1 = await api<{ records: { text: string }[] }>(page, 'GET', `/api/2/channels/${channelId}/chat/messages?limit=50`);
        return page1.records.some((r) => r.text === text);
      })
      .toBe(true);
  return { channelId, streamer, say, stored };
}

/**
 * Holds the page's first socket matching `pattern` in "connecting" until `open()`: the page reads its list first,
 * and what is stored before the socket opens reaches no socket. Later sockets connect at once. The page is left
 * first, so that a socket of the page it was on (the dashboard's activity feed) cannot be the one held. The newest
 * route of a page takes its sockets (Playwright tries them newest first).
 */
async function heldSocket(page: Page, pattern: RegExp) {
  await page.goto('about:blank');
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let first = true;
  await page.routeWebSocket(pattern, async (ws) => {
    if (first) {
      first = false;
      await gate;
    }
    ws.connectToServer();
  });
  return { open: () => open() };
}

/** Resolves when the page has read `path` (a GET answered). */
function readOf(page: Page, path: RegExp) {
  return page.waitForResponse((r) => r.request().method() === 'GET' && path.test(new URL(r.url()).pathname) && r.ok());
}

/**
 * The page's GETs of paths matching `pattern` still waiting for an answer. `settled()` waits until none is at two
 * looks 250 ms apart: a catch-up the page started (on opening its socket, or on reading its list after that) has been
 * answered, so what is stored from now on can only reach the page through its socket.
 */
function pageReads(page: Page, pattern: RegExp) {
  const pending = new Set<Request>();
  page.on('request', (r) => {
    if (r.method() === 'GET' && pattern.test(new URL(r.url()).pathname)) pending.add(r);
  });
  page.on('requestfinished', (r) => void pending.delete(r));
  page.on('requestfailed', (r) => void pending.delete(r));
  return {
    settled: async () => {
      for (let quiet = 0; quiet < 2;) {
        quiet = pending.size === 0 ? quiet + 1 : 0;
        if (quiet < 2) await page.waitForTimeout(250);
      }
    },
  };
}

test('chat, activity feed and public popout refetch what they missed on reconnect, each message once', async ({ page, context }) => {
  const { channelId, streamer, say, stored } = await connectedChannel(page);

  // ── staff chat ──
  const sockets = await cuttableSockets(page, /\/chat-ws$/);
  const reads = pageReads(page, /\/(chat\/messages|activity)$/);
  await page.goto(`/channels/${channelId}/chat`);
  const list = page.getByRole('log', { name: 'Chat messages' });
  await expect(page.getByRole('listitem', { name: 'Twitch: Connected' })).toBeVisible({ timeout: 20_000 });
  const tag = uniqueName('gap');
  await say(`${tag} before`);
  await expect(list.getByText(`${tag} before`)).toBeVisible();

  await sockets.opened();
  await reads.settled();
  sockets.withhold();
  for (const n of [1, 2, 3]) await say(`${tag} missed ${n}`);
  await stored(`${tag} missed 3`);
  await expect(list.getByText(`${tag} missed 1`)).toHaveCount(0);
  const before = sockets.connections();
  await sockets.drop();
  await expect.poll(() => sockets.connections()).toBeGreaterThan(before);
  for (const n of [1, 2, 3]) await expect(list.getByText(`${tag} missed ${n}`)).toHaveCount(1);
  await say(`${tag} after`);
  await expect(list.getByText(`${tag} after`)).toHaveCount(1);
  await expect(list.getByText(`${tag} before`)).toHaveCount(1);
  // In order: what was missed sits between what came before and after.
  const texts = await list.locator('[data-message-id]').allInnerTexts();
  const order = [`${tag} before`, `${tag} missed 1`, `${tag} missed 2`, `${tag} missed 3`, `${tag} after`].map((t) =>
    texts.findIndex((line) => line.includes(t)),
  );
  expect(order).toEqual([...order].sort((a, b) => a - b));

  // ── activity feed ──
  await page.goto(`/channels/${channelId}/activity-feed`);
  const feed = page.getByRole('list', { name: 'Activity' });
  await emulatorControl('POST', '/_emulator/events', {
    platform: 'twitch',
    channel: streamer,
    type: 'raid',
    user: 'pixelpioneer',
    data: { viewers: 7 },
  });
  // Generous for a loaded machine. (This first event used to be lost when the list was read before the socket opened.)
  await expect(feed.getByRole('listitem').filter({ hasText: 'PixelPioneer raided' })).toHaveCount(1, { timeout: 30_000 });
  await sockets.opened();
  await reads.settled();
  sockets.withhold();
  await emulatorControl('POST', '/_emulator/events', {
    platform: 'twitch',
    channel: streamer,
    type: 'raid',
    user: 'greenroomdemo',
    data: { viewers: 3 },
  });
  await expect
    .poll(async () => (await api<{ records: unknown[] }>(page, 'GET', `/api/2/channels/${channelId}/activity`)).records.length)
    .toBeGreaterThanOrEqual(2);
  await expect(feed.getByRole('listitem').filter({ hasText: 'GreenroomDemo raided' })).toHaveCount(0);
  const beforeFeed = sockets.connections();
  await sockets.drop();
  await expect.poll(() => sockets.connections()).toBeGreaterThan(beforeFeed);
  await expect(feed.getByRole('listitem').filter({ hasText: 'GreenroomDemo raided' })).toHaveCount(1);
  await expect(feed.getByRole('listitem').filter({ hasText: 'PixelPioneer raided' })).toHaveCount(1);

  // ── public popout ──
  const popout = await context.newPage();
  const publicSockets = await cuttableSockets(popout, /\/public\/channels\/.+\/chat-ws/);
  const publicReads = pageReads(popout, /\/chat\/messages$/);
  await popout.goto(`/popout/channels/${channelId}/chat`);
  const log = popout.getByRole('log');
  await say(`${tag} public before`);
  await expect(log.getByText(`${tag} public before`)).toHaveCount(1);
  await publicSockets.opened();
  await publicReads.settled();
  publicSockets.withhold();
  await say(`${tag} public missed`);
  await stored(`${tag} public missed`);
  const beforePublic = publicSockets.connections();
  await publicSockets.drop();
  await expect.poll(() => publicSockets.connections()).toBeGreaterThan(beforePublic);
  await expect(log.getByText(`${tag} public missed`)).toHaveCount(1);
  await expect(log.getByText(`${tag} public before`)).toHaveCount(1);
});

test('what is stored between reading the list and the socket opening is shown: the first chat message, an activity, the popout', async ({
  page,
  context,
}) => {
  const { channelId, streamer, say, stored } = await connectedChannel(page);
  const tag = uniqueName('held');

  // ── staff chat, an empty log ──
  const chatSocket = await heldSocket(page, /\/chat-ws$/);
  const historyRead = readOf(page, /\/chat\/messages$/);
  await page.goto(`/channels/${channelId}/chat`);
  await historyRead;
  await expect(page.getByRole('listitem', { name: 'Twitch: Connected' })).toBeVisible({ timeout: 20_000 });
  await say(`${tag} first`);
  await stored(`${tag} first`);
  const list = page.getByRole('log', { name: 'Chat messages' });
  await expect(list.getByText(`${tag} first`)).toHaveCount(0);
  chatSocket.open();
  await expect(list.getByText(`${tag} first`)).toHaveCount(1);
  await say(`${tag} second`);
  await expect(list.getByText(`${tag} second`)).toHaveCount(1);
  await expect(list.getByText(`${tag} first`)).toHaveCount(1);

  // ── activity feed ──
  const feedSocket = await heldSocket(page, /\/chat-ws$/);
  const listRead = readOf(page, /\/activity$/);
  await page.goto(`/channels/${channelId}/activity-feed`);
  await listRead;
  const feed = page.getByRole('list', { name: 'Activity' });
  await emulatorControl('POST', '/_emulator/events', {
    platform: 'twitch',
    channel: streamer,
    type: 'raid',
    user: 'pixelpioneer',
    data: { viewers: 7 },
  });
  await expect
    .poll(async () => (await api<{ records: unknown[] }>(page, 'GET', `/api/2/channels/${channelId}/activity`)).records.length, {
      timeout: 30_000,
    })
    .toBeGreaterThanOrEqual(1);
  await expect(feed.getByRole('listitem').filter({ hasText: 'PixelPioneer raided' })).toHaveCount(0);
  feedSocket.open();
  await expect(feed.getByRole('listitem').filter({ hasText: 'PixelPioneer raided' })).toHaveCount(1);

  // ── public popout ──
  const popout = await context.newPage();
  const publicSocket = await heldSocket(popout, /\/public\/channels\/.+\/chat-ws/);
  const publicRead = readOf(popout, /\/public\/channels\/.+\/chat\/messages$/);
  await popout.goto(`/popout/channels/${channelId}/chat`);
  await publicRead;
  const log = popout.getByRole('log');
  await expect(log.getByText(`${tag} second`)).toHaveCount(1);
  await say(`${tag} public`);
  await stored(`${tag} public`);
  await expect(log.getByText(`${tag} public`)).toHaveCount(0);
  publicSocket.open();
  await expect(log.getByText(`${tag} public`)).toHaveCount(1);
  await expect(log.getByText(`${tag} second`)).toHaveCount(1);
});
