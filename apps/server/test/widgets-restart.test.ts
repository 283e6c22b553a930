/**
 * An alert box across a real server restart: the server runs as a child process on its own data; a widget page's
 * socket is live, the server stops and starts again, and while the page is away an editor's test alert and a real
 * follow from a platform (the emulator) arrive. The page reconnects asking for what it missed since its last state
 * and is given each of them once — from the database, as the new process has nothing in memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import { connectionsUp, freePort, seedChannel, startServer, type Seeded, type ServerProcess } from './server-process';

let emulator: Emulator;
let dataDir: string;
let seeded: Seeded;
let server: ServerProcess | null = null;
let port: number;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, crowd: false });
  dataDir = mkdtempSync(path.join(tmpdir(), 'greenroom-widgets-restart-'));
  seeded = await seedChannel(emulator, { dataDir });
  port = await freePort();
}, 60_000);

afterAll(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await Promise.race([server.exited, sleep(15_000)]);
    server.child.kill('SIGKILL');
  }
  await emulator?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Signed-in API calls to the child server, with its anti-forgery cookie and header. */
async function apiOf(s: ServerProcess): Promise<<T>(method: string, p: string, body?: unknown) => Promise<T>> {
  const first = await s.get(`/api/2/channels/${seeded.channelId}/widgets`, seeded.token);
  const xsrf = /XSRF-TOKEN=([^;]+)/u.exec(first.headers.get('set-cookie') ?? '')?.[1];
  if (!first.ok || !xsrf) throw new Error(`no anti-forgery cookie: HTTP ${first.status}`);
  return async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${s.url}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${seeded.token}`,
        cookie: `XSRF-TOKEN=${xsrf}`,
        'x-xsrf-token': decodeURIComponent(xsrf),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
}

interface Page {
  events: { id: string; type: string; test: boolean }[];
  closed: Promise<number>;
  close(): void;
  until(check: () => boolean): Promise<void>;
}

/** A widget page's socket (as the page opens it: `?since=` on a reconnect). */
async function openPage(s: ServerProcess, token: string, since?: string): Promise<Page> {
  const query = since ? `?since=${encodeURIComponent(since)}` : '';
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/2/public/widgets/${token}/ws${query}`, { origin: s.url });
  const events: Page['events'] = [];
  ws.on('message', (raw: Buffer) => {
    const frame = JSON.parse(raw.toString()) as { type: string; data: Page['events'][number] };
    if (frame.type === 'event') events.push(frame.data);
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  return {
    events,
    closed,
    close: () => ws.close(),
    until: async (check) => {
      const deadline = Date.now() + 30_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out; events: ${JSON.stringify(events)}`);
        await sleep(50);
      }
    },
  };
}

const serverTime = async (s: ServerProcess, token: string) =>
  ((await (await fetch(`${s.url}/api/2/public/widgets/${token}`)).json()) as { server_time: string }).server_time;

describe('an alert box across a server restart', () => {
  it('gets the alerts sent while it was away once each, and the live ones after', async () => {
    const start = () => startServer({ port, dataDir, emulatorUrl: emulator.origin });
    server = await start();
    let api = await apiOf(server);
    const widget = await api<{ id: string; token: string }>('POST', `/api/2/channels/${seeded.channelId}/widgets`, { type: 'alerts' });
    const test = `/api/2/channels/${seeded.channelId}/widgets/${widget.id}/test`;

    const since = await serverTime(server, widget.token);
    const page = await openPage(server, widget.token);
    const before = await api<{ id: string }>('POST', test, { type: 'follow' });
    await page.until(() => page.events.some((e) => e.id === before.id));

    server.child.kill('SIGTERM');
    expect(await server.exited).not.toBeNull();
    await page.closed;
    server = await start();
    await connectionsUp(server, seeded);
    api = await apiOf(server);

    // While the page is away: a test from the editor and a real follow on Kick.
    const missedTest = await api<{ id: string }>('POST', test, { type: 'raid' });
    await fetch(`${emulator.origin}/_emulator/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'kick', channel: 'greenroomdemo', type: 'follow' }),
    });
    let follow: { id: string } | undefined;
    for (const deadline = Date.now() + 30_000; !follow && Date.now() < deadline; await sleep(100)) {
      const feed = await (await server.get(`/api/2/channels/${seeded.channelId}/activity?per_page=10`, seeded.token)).json();
      follow = (feed as { records: { id: string; type: string; provider: string }[] }).records.find(
        (r) => r.type === 'follow' && r.provider === 'kick',
      );
    }
    expect(follow).toBeDefined();

    const back = await openPage(server, widget.token, since);
    await back.until(() => back.events.some((e) => e.id === missedTest.id) && back.events.some((e) => e.id === follow!.id));
    const ids = back.events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.indexOf(missedTest.id)).toBeLessThan(ids.indexOf(follow!.id));

    // And live again.
    const after = await api<{ id: string }>('POST', test, { type: 'cheer' });
    await back.until(() => back.events.some((e) => e.id === after.id));
    expect(back.events.filter((e) => e.id === after.id)).toHaveLength(1);
    back.close();
  }, 180_000);
});
