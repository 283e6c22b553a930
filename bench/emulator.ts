/**
 * Emulator benchmark: the crowd's maximum chat generation rate and the delivery rate of
 * channel.chat.message notifications over one EventSub WebSocket to a plain `ws` client.
 * Run: npx tsx bench/emulator.ts
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
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
  const token = await fetch(c.tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      code,
      grant_type: 'authorization_code',
      redirect_uri: c.redirectUris[0]!,
    }),
  });
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

/** The plain `ws` client runs in its own process (like the product would), counting notifications. */
const clientSource = `
import WebSocket from 'ws';
const [url, target] = [process.argv[1], Number(process.argv[2])];
const ws = new WebSocket(url);
let session = '', received = 0;
ws.on('message', (data) => {
  if (!session) { session = JSON.parse(data.toString('utf8')).payload.session.id; process.stdout.write('session ' + session + '\\n'); return; }
  if (data.includes('"message_type":"notification"') && ++received === target) { process.stdout.write('done\\n'); ws.close(); }
});
`;

async function deliveryRate(e: Emulator): Promise<BenchResult[]> {
  const { accessToken, userId } = await userToken(e, 'greenroomdemo');
  const channel = e.world.channel('twitch', userId)!;
  const total = 100_000;
  const child = spawn(process.execPath, ['--input-type=module', '-e', clientSource, e.config.twitch.eventSubWsUrl, String(total)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let notify: (() => void) | null = null;
  child.stdout.on('data', (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    notify?.();
  });
  const waitFor = (prefix: string) =>
    new Promise<string>((resolve) => {
      const check = () => {
        const line = lines.find((l) => l.startsWith(prefix));
        if (line) resolve(line);
      };
      notify = check;
      check();
    });
  const sessionId = (await waitFor('session ')).slice('session '.length);
  const sub = await fetch(e.config.twitch.eventSubSubscriptionsUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'client-id': e.config.twitch.clientId, 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'channel.chat.message',
      version: '1',
      condition: { broadcaster_user_id: userId, user_id: userId },
      transport: { method: 'websocket', session_id: sessionId },
    }),
  });
  if (sub.status !== 202) throw new Error(`subscription failed: ${sub.status} ${await sub.text()}`);
  const done = waitFor('done');
  const batch = 1_000;
  const start = process.hrtime.bigint();
  for (let sent = 0; sent < total; sent += batch) {
    e.crowd.burst(batch, channel);
    // Yield between batches (as the crowd's timer does) so the socket drains.
    await new Promise((r) => setImmediate(r));
  }
  const generatedAt = rate(total, start);
  await done;
  const delivered = rate(total, start);
  child.kill();
  return [
    { name: 'emulator EventSub: channel.chat.message generated and sent (server side)', value: generatedAt, unit: 'msgs/s' },
    { name: 'emulator EventSub: channel.chat.message delivered to one ws client (other process)', value: delivered, unit: 'msgs/s' },
  ];
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
