/**
 * Staff chat websocket fan-out: messages/s delivered to N = 1, 10, 50 sockets of one channel through
 * the real FanoutHub (bus → encode once → backpressure-checked send) and real `ws` clients, against a
 * baseline in the same run: raw `ws` broadcast (serialise once, `send` to every client, no checks).
 * Both sides are paced the same way (at most WINDOW messages in flight per client).
 * Run: npx tsx bench/ws-fanout.ts
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import type { ChannelStreamEvent } from '../packages/contracts/src/api/events';
import { LocalEventBus } from '../apps/server/src/lib/event-bus';
import { FanoutHub } from '../apps/server/src/modules/chat/fanout-hub';
import { staffEncoder } from '../apps/server/src/modules/chat/staff-encoder';
import { chatMessage } from '../apps/server/test/chat-fixtures';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const WINDOW = 256;

interface Rig {
  server: WebSocketServer;
  serverSockets: WebSocket[];
  clients: WebSocket[];
  received: number[];
  close(): Promise<void>;
}

async function rig(n: number): Promise<Rig> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((r) => server.once('listening', () => r()));
  const port = (server.address() as AddressInfo).port;
  const serverSockets: WebSocket[] = [];
  server.on('connection', (ws) => serverSockets.push(ws));
  const received = new Array<number>(n).fill(0);
  const clients: WebSocket[] = [];
  for (let i = 0; i < n; i++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    ws.on('message', () => received[i]!++);
    await new Promise<void>((r) => ws.once('open', () => r()));
    clients.push(ws);
  }
  while (serverSockets.length < n) await new Promise((r) => setTimeout(r, 5));
  return {
    server,
    serverSockets,
    clients,
    received,
    async close() {
      for (const c of clients) c.terminate();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Publishes `count` events through `send`, never more than WINDOW ahead of the slowest client; returns msgs/s delivered (all clients). */
async function drive(r: Rig, count: number, send: (event: ChannelStreamEvent) => void, events: ChannelStreamEvent[]): Promise<number> {
  const start = process.hrtime.bigint();
  let sent = 0;
  const min = () => {
    let m = Infinity;
    for (const v of r.received) if (v < m) m = v;
    return m;
  };
  while (sent < count) {
    const room = Math.min(count - sent, WINDOW - (sent - min()));
    for (let i = 0; i < room; i++) send(events[(sent + i) % events.length]!);
    sent += Math.max(room, 0);
    await new Promise((res) => setImmediate(res));
  }
  while (min() < count) await new Promise((res) => setImmediate(res));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return Math.round((count * r.clients.length) / seconds);
}

/** Baseline: raw ws broadcast (serialise once, send to every socket). */
async function rawRun(n: number, count: number, events: ChannelStreamEvent[]): Promise<number> {
  const a = await rig(n);
  const rate = await drive(
    a,
    count,
    (e) => {
      const payload = JSON.stringify(e);
      for (const s of a.serverSockets) s.send(payload);
    },
    events,
  );
  await a.close();
  return rate;
}

/** The real hub, fed by the bus as in the server. */
async function hubRun(n: number, count: number, events: ChannelStreamEvent[]): Promise<{ rate: number; dropped: number }> {
  const b = await rig(n);
  const bus = new LocalEventBus();
  const hub = new FanoutHub(bus, staffEncoder);
  for (const s of b.serverSockets) hub.join('c1', s);
  const rate = await drive(b, count, (e) => bus.publish('channel:c1', e), events);
  const dropped = hub.stats.dropped;
  hub.closeAll();
  await b.close();
  return { rate, dropped };
}

/** Alternating order (raw, hub, hub, raw), best of two each, to cancel warm-up and GC effects. */
async function measure(n: number, count: number, events: ChannelStreamEvent[]): Promise<{ hub: number; raw: number; dropped: number }> {
  const raw1 = await rawRun(n, count, events);
  const hub1 = await hubRun(n, count, events);
  const hub2 = await hubRun(n, count, events);
  const raw2 = await rawRun(n, count, events);
  return { hub: Math.max(hub1.rate, hub2.rate), raw: Math.max(raw1, raw2), dropped: hub1.dropped + hub2.dropped };
}

export async function benchWsFanout(): Promise<BenchResult[]> {
  const events: ChannelStreamEvent[] = Array.from({ length: 1000 }, (_, i) => ({
    type: 'chat.message',
    seq: i,
    data: chatMessage(i, { text: `message ${i} with a few words of chat text` }),
  }));
  const bytes = Buffer.byteLength(JSON.stringify(events[0]));
  const out: BenchResult[] = [];
  for (const [n, count] of [
    [1, 40_000],
    [10, 20_000],
    [50, 6_000],
  ] as const) {
    const r = await measure(n, count, events);
    out.push({ name: `ws fan-out, hub, ${n} socket(s), ${bytes}-byte messages`, value: r.hub, unit: 'msgs/s delivered' });
    out.push({ name: `ws fan-out, raw ws broadcast baseline, ${n} socket(s)`, value: r.raw, unit: 'msgs/s delivered' });
    out.push({
      name: `ws fan-out, hub / raw ratio, ${n} socket(s) (dropped by backpressure: ${r.dropped})`,
      value: Math.round((r.hub / r.raw) * 100) / 100,
      unit: 'x',
    });
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchWsFanout()) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
  process.exit(0);
}
