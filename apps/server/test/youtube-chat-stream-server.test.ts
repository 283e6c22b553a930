/**
 * The real server (a child process, emulator through EMULATOR_URL) reads YouTube chat over the emulator's gRPC
 * streamList: one open stream and no polling; it polls while the stream is down; and after `kill -9` it resumes from
 * the page token stored with the messages, over the stream again, with nothing lost and nothing twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import { connectionsUp, freePort, fullHistory, seedChannel, startServer, type Seeded, type ServerProcess } from './server-process';

let emulator: Emulator;
let dataDir: string;
let seeded: Seeded;
let server: ServerProcess | null = null;
let port: number;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const streamList = () => emulator.ctx.youtube!.streamList;
const quotaUsed = () => emulator.ctx.youtube!.quotaUsed('greenroom-youtube');

async function say(text: string): Promise<void> {
  const res = await fetch(`${emulator.origin}/_emulator/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform: 'youtube', channel: 'greenroomdemo', text }),
  });
  if (!res.ok) throw new Error(`emulator chat: HTTP ${res.status}`);
}

async function until<T>(what: string, fn: () => Promise<T | null | false> | T | null | false, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${server?.stderr() ?? ''}`);
    await sleep(100);
  }
}

async function stored(texts: string[]): Promise<Map<string, number>> {
  return until(`${texts.length} messages in the chat log`, async () => {
    const count = new Map<string, number>();
    for (const m of await fullHistory(server!, seeded)) count.set(m.text, (count.get(m.text) ?? 0) + 1);
    return texts.every((t) => count.has(t)) ? count : null;
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, crowd: false });
  emulator.ctx.youtube!.pollingIntervalMillis = 100;
  dataDir = mkdtempSync(path.join(tmpdir(), 'greenroom-yt-stream-'));
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

describe('YouTube chat over gRPC in the running product', () => {
  it('streams, polls while the stream is down, and resumes after kill -9 without loss or repeats', async () => {
    const start = () => startServer({ port, dataDir, emulatorUrl: emulator.origin });
    server = await start();
    await connectionsUp(server, seeded);
    await until('the YouTube stream to open', () => streamList().openStreams() === 1);

    // Streamed: the quota does not move while chat flows (one call, already paid).
    const first = ['stream-1', 'stream-2', 'stream-3'];
    const paid = quotaUsed();
    for (const text of first) await say(text);
    await stored(first);
    await sleep(1000);
    expect(quotaUsed()).toBe(paid);

    // The stream goes down: chat keeps arriving by polling.
    await streamList().setMode('unavailable');
    await say('polled-1');
    await stored(['polled-1']);
    expect(quotaUsed()).toBeGreaterThan(paid);
    await streamList().setMode('serving');

    // Killed mid-chat; chat goes on while it is down; the restarted server streams from the stored token.
    const killed = server;
    await say('before-kill');
    await stored(['before-kill']);
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBe('SIGKILL');
    server = null;
    const whileDown = Array.from({ length: 20 }, (_, i) => `down-${i}`);
    for (const text of whileDown) await say(text);
    server = await start();
    await connectionsUp(server, seeded);
    await until('the YouTube stream to open again', () => streamList().openStreams() === 1);
    await say('after-restart');

    const all = [...first, 'polled-1', 'before-kill', ...whileDown, 'after-restart'];
    const count = await stored(all);
    expect(all.filter((t) => count.get(t) !== 1)).toEqual([]);
    expect([...count.values()].every((n) => n === 1)).toBe(true);
  }, 240_000);
});
