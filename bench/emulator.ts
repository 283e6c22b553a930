/**
 * Emulator benchmark: the crowd's maximum chat generation rate and the delivery rate of
 * channel.chat.message notifications over one EventSub WebSocket to a plain `ws` client.
 * Run: npx tsx bench/emulator.ts
 */
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../packages/platform-emulator/src/index';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

async function userToken(e: Emulator, login: string): Promise<{ accessToken: string; userId: string }> {
  const c = e.config.twitch;
  const authorize = await fetch(`${e.origin}/_emulator/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform: 'twitch', account_login: login, scope: 'user:read:chat' }),
  });
  const { code, account } = (await authorize.json()) as { code: string; account: { id: string } };
  const token = await fetch(c.tokenUrl, { method: 'POST', body: new URLSearchParams({ client_id: c.clientId, client_secret: c.clientSecret, code, grant_type: 'authorization_code', redirect_uri: c.redirectUris[0]! }) });
  return { accessToken: ((await token.json()) as { access_token: string }).access_token, userId: account.id };
}

function rate(count: number, startNs: bigint): number {
  const seconds = Number(process.hrtime.bigint() - startNs) / 1e9;
  return Math.round(count / seconds);
}

async function generationRates(e: Emulator): Promise<BenchResult[]> {
  const channel = e.world.channelsOf('twitch').find((c) => c.live)!;
  const n = 200_000;
  e.crowd.generateOnly(10_000, channel); // warm-up
  let start = process.hrtime.bigint();
  e.crowd.generateOnly(n, channel);
  const generateOnly = rate(n, start);
  start = process.hrtime.bigint();
  e.crowd.burst(n, channel);
  const generateAndPost = rate(n, start);
  return [
    { name: 'emulator crowd: chat messages generated', value: generateOnly, unit: 'msgs/s' },
    { name: 'emulator crowd: chat messages generated and posted to the world', value: generateAndPost, unit: 'msgs/s' },
  ];
}

async function deliveryRate(e: Emulator): Promise<BenchResult[]> {
  const { accessToken, userId } = await userToken(e, 'greenroomdemo');
  const channel = e.world.channel('twitch', userId)!;
  const ws = new WebSocket(e.config.twitch.eventSubWsUrl);
  let received = 0;
  let sessionId = '';
  let onCount: (() => void) | null = null;
  let target = 0;
  ws.on('message', (data: Buffer) => {
    if (!sessionId) {
      sessionId = (JSON.parse(data.toString('utf8')) as { payload: { session: { id: string } } }).payload.session.id;
      return;
    }
    // Count notifications without a full parse, like a client that routes on metadata first.
    if (data.includes('"message_type":"notification"')) received++;
    if (onCount && received >= target) onCount();
  });
  await new Promise<void>((resolve) => ws.once('open', () => resolve()));
  while (!sessionId) await new Promise((r) => setTimeout(r, 5));
  const sub = await fetch(e.config.twitch.eventSubSubscriptionsUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'client-id': e.config.twitch.clientId, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'channel.chat.message', version: '1', condition: { broadcaster_user_id: userId, user_id: userId }, transport: { method: 'websocket', session_id: sessionId } }),
  });
  if (sub.status !== 202) throw new Error(`subscription failed: ${sub.status} ${await sub.text()}`);

  const total = 100_000;
  const batch = 2_000;
  target = total;
  const done = new Promise<void>((resolve) => (onCount = resolve));
  const start = process.hrtime.bigint();
  for (let sent = 0; sent < total; sent += batch) {
    e.crowd.burst(batch, channel);
    // Yield so the socket drains, as the crowd's timer-driven batches do.
    await new Promise((r) => setImmediate(r));
  }
  await done;
  const delivered = rate(total, start);
  ws.close();
  return [{ name: 'emulator EventSub: channel.chat.message generated and delivered over one websocket', value: delivered, unit: 'msgs/s' }];
}

export async function benchEmulator(): Promise<BenchResult[]> {
  const e = await startEmulator({ seed: 1, crowd: false });
  try {
    return [...(await generationRates(e)), ...(await deliveryRate(e))];
  } finally {
    await e.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await benchEmulator();
  for (const r of results) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
}
