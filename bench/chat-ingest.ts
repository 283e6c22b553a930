/**
 * Chat ingest benchmark: sustained chat messages/s from the emulator's crowd through the Twitch
 * adapter (@twurple EventSub WebSocket, one socket per broadcaster as Twitch does) and the ingest
 * pipeline to the bus, at 1, 10 and 100 channels, with p50/p99 latency (emulator message time →
 * bus), beside the emulator's raw delivery rate to plain `ws` clients measured in the same run.
 * Run: npx tsx bench/chat-ingest.ts [offeredRate] [seconds]
 */
import { pathToFileURL } from 'node:url';
import { oauthProviderIds } from '@greenroom/contracts/providers';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../packages/platform-emulator/src/index';
import type { ChannelStreamEvent } from '../packages/contracts/src/api/events';
import { emulatorEndpoints, type OAuthProvider } from '../apps/server/src/platforms/endpoints';
import { IngestPipeline } from '../apps/server/src/platforms/ingest';
import { LocalEventBus } from '../apps/server/src/lib/event-bus';
import type { ChannelConnectionContext, ConnectionState, LiveConnection, TokenSource } from '../apps/server/src/platforms/port';
import { scopesFor } from '../apps/server/src/platforms/scopes';
import { createTwitchAdapter } from '../apps/server/src/platforms/twitch/twitch-adapter';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const apps = Object.fromEntries(
  oauthProviderIds.map((p) => [
    p,
    { clientId: `bench-${p}`, clientSecret: `bench-${p}-secret`, redirectUris: [`http://localhost:3000/oauth/${p}`] },
  ]),
) as Record<OAuthProvider, { clientId: string; clientSecret: string; redirectUris: string[] }>;

class StaticTokenSource implements TokenSource {
  readonly provider = 'twitch' as const;
  constructor(
    readonly providerUserId: string,
    readonly scopes: string[],
    private readonly token: string,
  ) {}
  async accessToken(): Promise<string> {
    return this.token;
  }
  async refreshAfterUnauthorized(): Promise<string> {
    return this.token;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Streamer {
  id: string;
  token: string;
}

async function streamers(e: Emulator, n: number): Promise<Streamer[]> {
  const out: Streamer[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${e.origin}/_emulator/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'twitch', kind: 'streamer', displayName: `BenchStreamer${i}`, login: `benchstreamer${i}` }),
    });
    const account = (await res.json()) as { id: string };
    const token = e.world.issueToken({
      platform: 'twitch',
      clientId: apps.twitch.clientId,
      userId: account.id,
      scopes: scopesFor.twitch.channel,
      ttlSeconds: 36_000,
      refreshable: true,
    });
    out.push({ id: account.id, token: token.accessToken });
  }
  return out;
}

/** Only the first `n` bench channels are live (the crowd spreads its rate over live channels). */
function setLive(e: Emulator, all: Streamer[], n: number): void {
  for (const c of e.world.channelsOf('twitch')) e.world.setLive(c, false);
  for (const s of all.slice(0, n)) e.world.setLive(e.world.channel('twitch', s.id)!, true, { viewerCount: 100 });
}

/**
 * The crowd offers `rate` msgs/s for `seconds` (after a 1 s warm-up that is drained and not counted);
 * the sustained rate is the messages offered divided by the time until the consumer had them all
 * (equal to the offered rate when it keeps up, its capacity when it does not).
 */
async function measure(
  e: Emulator,
  rate: number,
  seconds: number,
  count: () => number,
  onWindow?: (open: boolean) => void,
): Promise<{ delivered: number; generated: number }> {
  const drain = async (target: number) => {
    const start = performance.now();
    while (count() < target && performance.now() - start < 30_000) await sleep(2);
    return performance.now();
  };
  e.crowd.setRate(rate);
  e.crowd.start();
  await sleep(1000);
  e.crowd.stop();
  await drain(count() + 1);
  await sleep(300);
  const c0 = count();
  const g0 = e.crowd.generated.messages;
  onWindow?.(true);
  const t0 = performance.now();
  e.crowd.start();
  await sleep(seconds * 1000);
  e.crowd.stop();
  const offered = e.crowd.generated.messages - g0;
  const done = await drain(c0 + offered);
  onWindow?.(false);
  const got = count() - c0;
  const elapsed = (done - t0) / 1000;
  await sleep(300);
  return { delivered: Math.round(got / elapsed), generated: Math.round(offered / seconds) };
}

/** Plain `ws` clients, one EventSub socket per channel, counting notifications without parsing them. */
async function rawDelivery(e: Emulator, chans: Streamer[], rate: number, seconds: number): Promise<number> {
  let received = 0;
  const sockets: WebSocket[] = [];
  for (const s of chans) {
    const ws = new WebSocket(`${e.origin.replace(/^http/, 'ws')}/ws`);
    const session = await new Promise<string>((resolve) =>
      ws.once('message', (d: Buffer) =>
        resolve((JSON.parse(d.toString('utf8')) as { payload: { session: { id: string } } }).payload.session.id),
      ),
    );
    ws.on('message', (d: Buffer) => {
      if (d.includes('"notification"')) received++;
    });
    await fetch(`http://localhost:${e.port}/eventsub/subscriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'client-id': apps.twitch.clientId, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'channel.chat.message',
        version: '1',
        condition: { broadcaster_user_id: s.id, user_id: s.id },
        transport: { method: 'websocket', session_id: session },
      }),
    });
    sockets.push(ws);
  }
  const { delivered } = await measure(e, rate, seconds, () => received);
  for (const ws of sockets) ws.terminate();
  await sleep(300);
  return delivered;
}

interface ProductFigures {
  rate: number;
  generated: number;
  p50: number;
  p99: number;
  max: number;
}

async function productDelivery(e: Emulator, chans: Streamer[], rate: number, seconds: number): Promise<ProductFigures> {
  const endpoints = emulatorEndpoints(e.origin, apps);
  const adapter = createTwitchAdapter({ endpoints });
  const bus = new LocalEventBus<{ type: string }>();
  const ingest = new IngestPipeline({ bus, log: quiet });
  let published = 0;
  let recording = false;
  const latencies: number[] = [];
  const connected = new Set<string>();
  const connections: LiveConnection[] = [];
  const abort = new AbortController();
  for (const s of chans) {
    bus.subscribe(`channel:${s.id}`, (event) => {
      const ev = event as ChannelStreamEvent;
      if (ev.type !== 'chat.message') return;
      published++;
      if (recording) {
        const sent = e.world.messages.get(ev.data.provider_message_id)?.createdAt.getTime();
        if (sent !== undefined) latencies.push(Date.now() - sent);
      }
    });
    const broadcaster = new StaticTokenSource(s.id, scopesFor.twitch.channel, s.token);
    const ctx: ChannelConnectionContext = {
      channelId: s.id,
      channelProviderId: `cp-${s.id}`,
      provider: 'twitch',
      providerChannelId: s.id,
      providerChannelName: `bench${s.id}`,
      broadcaster,
      bot: null,
      state: {},
      saveState: async () => undefined,
      bans: { get: async () => null, set: async () => undefined, delete: async () => undefined },
      emit: (event) =>
        ingest.ingest({ channelId: s.id, channelProviderId: `cp-${s.id}`, provider: 'twitch', providerChannelId: s.id }, event),
      setHealth: (state: ConnectionState) => {
        if (state === 'connected') connected.add(s.id);
      },
      signal: abort.signal,
      log: quiet,
    };
    const connection = adapter.connect(ctx);
    if (connection) connections.push(connection);
  }
  const start = Date.now();
  while (connected.size < chans.length) {
    if (Date.now() - start > 60_000) throw new Error(`only ${connected.size}/${chans.length} connections came up`);
    await sleep(50);
  }
  const { delivered, generated } = await measure(
    e,
    rate,
    seconds,
    () => published,
    (open) => (recording = open),
  );
  abort.abort();
  await Promise.all(connections.map((c) => c.close()));
  await sleep(300);
  latencies.sort((a, b) => a - b);
  return { rate: delivered, generated, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? NaN };
}

export async function benchChatIngest(options: { rate?: number; seconds?: number; channelCounts?: number[] } = {}): Promise<BenchResult[]> {
  const rate = options.rate ?? 12_000;
  const seconds = options.seconds ?? 4;
  const counts = options.channelCounts ?? [1, 10, 100];
  const previousPort = process.env.TWURPLE_MOCK_API_PORT;
  const e = await startEmulator({ port: 0, apps, crowd: { autoStart: false, rate: 0, eventRate: 0, platforms: ['twitch'], tickMs: 10 } });
  process.env.TWURPLE_MOCK_API_PORT = String(e.port);
  const results: BenchResult[] = [];
  try {
    // The bench account is a moderator of nobody and sends nothing: only chat notifications flow.
    const all = await streamers(e, Math.max(...counts));
    for (const n of counts) {
      const chans = all.slice(0, n);
      setLive(e, all, n);
      const raw = await rawDelivery(e, chans, rate, seconds);
      const product = await productDelivery(e, chans, rate, seconds);
      const label = `${n} channel${n === 1 ? '' : 's'}`;
      results.push(
        { name: `chat ingest, ${label}: offered by the crowd`, value: product.generated, unit: 'msgs/s' },
        { name: `chat ingest, ${label}: emulator raw delivery (plain ws)`, value: raw, unit: 'msgs/s' },
        { name: `chat ingest, ${label}: Twitch adapter → bus`, value: product.rate, unit: 'msgs/s' },
        { name: `chat ingest, ${label}: ratio to raw delivery`, value: Math.round((product.rate / raw) * 100) / 100, unit: '' },
        { name: `chat ingest, ${label}: latency p50 (emulator → bus)`, value: product.p50, unit: 'ms' },
        { name: `chat ingest, ${label}: latency p99 (emulator → bus)`, value: product.p99, unit: 'ms' },
      );
    }
  } finally {
    await e.close();
    if (previousPort === undefined) delete process.env.TWURPLE_MOCK_API_PORT;
    else process.env.TWURPLE_MOCK_API_PORT = previousPort;
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [rateArg, secondsArg] = process.argv.slice(2);
  const results = await benchChatIngest({
    ...(rateArg ? { rate: Number(rateArg) } : {}),
    ...(secondsArg ? { seconds: Number(secondsArg) } : {}),
  });
  for (const r of results) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
  process.exit(0);
}
