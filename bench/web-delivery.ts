/**
 * Web delivery benchmark: what an operator and a visitor wait for.
 *
 * (1) Cold start of the production server (`node apps/server/dist/main.js`, the build `npm start` runs) until it
 *     answers /api/health, on a fresh DATA_DIR and on an existing one: wall time, CPU time, and the server's own
 *     breakdown (modules, database, platforms, app, listen). In the same run, beside it: a bare Fastify server
 *     answering the same route (the floor for a Node server on this machine), PGlite's initdb alone (what the
 *     empty-database template avoids), and the development path (tsx transpiling the sources at start).
 * (2) Page loads in Chromium with a cold cache: first contentful paint of the sign-in page and of the chat page,
 *     and when each is ready (sign-in: the provider buttons; chat: history on screen and the live socket open),
 *     beside a static page served by the same server in the same run; the files and KB each page transfers, raw
 *     and as sent.
 *
 * Run: npx tsx bench/web-delivery.ts [start|pages] (BENCH_PORT: server port, the emulator takes the next; default 3510;
 * BENCH_RUNS: runs per figure, default 5; BENCH_NO_BUILD=1 measures the existing build)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { apiCall, connectPlatform, createChannel, signInAs } from './chat-render';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const RUNS = Number(process.env.BENCH_RUNS) || 5;
const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

const median = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm run build` (web app + server), as `npm start` does. */
function buildAll(): void {
  console.log('  building the web app and the server…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('build failed');
}

/** CPU time (user + system) the process has used so far. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After "pid (comm) ": state is field 3, utime field 14, stime field 15.
  return Math.round(((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1000);
}

interface Server {
  base: string;
  emulator: string;
  child: ChildProcess;
  /** Spawn to the first 200 from /api/health. */
  wallMs: number;
  cpuMs: number;
  /** The server's own startup report (main.ts logs it once ready). */
  startup: Record<string, number> | null;
  stop: () => Promise<void>;
}

/** Spawns a server process and times it until /api/health answers 200. */
async function startServer(args: string[], env: Record<string, string>, port: number, cwd = root): Promise<Server> {
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      EMULATOR: 'true',
      EMULATOR_PORT: String(port + 1),
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let startup: Record<string, number> | null = null;
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    for (const line of chunk.toString().split('\n')) {
      if (!line.includes('"startup"')) continue;
      try {
        startup = (JSON.parse(line) as { startup: Record<string, number> }).startup;
      } catch {
        // not a whole JSON line
      }
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let wallMs = 0;
  let cpuMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${output}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) {
        wallMs = Math.round(performance.now() - started);
        cpuMs = cpuMsOf(child.pid!);
        break;
      }
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) throw new Error(`server did not start: ${output}`);
    await sleep(5);
  }
  for (let waited = 0; startup === null && waited < 5000 && args.length > 0; waited += 20) await sleep(20);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  return { base, emulator: `http://127.0.0.1:${port + 1}`, child, wallMs, cpuMs, startup, stop };
}

const bareFastify = `
import Fastify from 'fastify';
const app = Fastify();
app.get('/api/health', async () => ({ ok: true }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
`;

const bareInitdb = `
import { PGlite } from '@electric-sql/pglite';
const started = performance.now();
const db = await PGlite.create(process.argv[1]);
const ms = performance.now() - started;
await db.close();
console.log(JSON.stringify({ ms }));
`;

function pgliteCreateMs(dir: string): number {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', bareInitdb, dir], {
    cwd: path.join(root, 'apps/server'),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return Math.round((JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { ms: number }).ms);
}

interface StartFigures {
  wall: number[];
  cpu: number[];
  parts: Record<string, number[]>;
}

export async function timeStarts(label: string, args: string[], port: number, fresh: boolean): Promise<StartFigures> {
  const figures: StartFigures = { wall: [], cpu: [], parts: {} };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'greenroom-bench-data-'));
  try {
    if (!fresh) await (await startServer(args, { DATA_DIR: dataDir }, port)).stop();
    for (let run = 0; run < RUNS; run += 1) {
      const dir = fresh ? path.join(dataDir, `run-${run}`) : dataDir;
      const server = await startServer(args, { DATA_DIR: dir }, port);
      await server.stop();
      figures.wall.push(server.wallMs);
      figures.cpu.push(server.cpuMs);
      for (const [part, ms] of Object.entries(server.startup ?? {})) (figures.parts[part] ??= []).push(ms);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const parts = Object.entries(figures.parts)
    .map(([part, values]) => `${part} ${median(values)}`)
    .join(', ');
  console.log(
    `  ${label.padEnd(44)} wall ${String(median(figures.wall)).padStart(5)} ms (runs ${figures.wall.join(', ')}), CPU ${median(figures.cpu)} ms` +
      (parts ? `; server's report (ms): ${parts}` : ''),
  );
  return figures;
}

export async function benchColdStart(port: number): Promise<BenchResult[]> {
  const built = ['--enable-source-maps', 'apps/server/dist/main.js'];
  const dev = ['--import', 'tsx', 'apps/server/src/main.ts'];
  const bare = await timeStarts('bare Fastify (floor)', ['--input-type=module', '-e', bareFastify], port, true);
  const scratch = mkdtempSync(path.join(tmpdir(), 'greenroom-bench-pglite-'));
  const initdb: number[] = [];
  const reopen: number[] = [];
  try {
    for (let run = 0; run < Math.min(RUNS, 3); run += 1) {
      initdb.push(pgliteCreateMs(path.join(scratch, `db-${run}`)));
      reopen.push(pgliteCreateMs(path.join(scratch, `db-${run}`)));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`  ${'PGlite alone: initdb of a new data directory'.padEnd(44)} ${median(initdb)} ms (runs ${initdb.join(', ')})`);
  console.log(`  ${'PGlite alone: opening an existing one'.padEnd(44)} ${median(reopen)} ms (runs ${reopen.join(', ')})`);
  const fresh = await timeStarts('npm start server, fresh DATA_DIR', built, port, true);
  const existing = await timeStarts('npm start server, existing DATA_DIR', built, port, false);
  const devFresh = await timeStarts('development (tsx), fresh DATA_DIR', dev, port, true);
  const devExisting = await timeStarts('development (tsx), existing DATA_DIR', dev, port, false);
  const ratio = (a: number[], b: number[]) => Math.round((median(a) / Math.max(1, median(b))) * 10) / 10;
  return [
    { name: 'cold start, fresh DATA_DIR (built server, to first answer)', value: median(fresh.wall), unit: 'ms' },
    { name: 'cold start, existing DATA_DIR', value: median(existing.wall), unit: 'ms' },
    { name: 'bare Fastify start (floor, same run)', value: median(bare.wall), unit: 'ms' },
    { name: 'cold start fresh / bare Fastify', value: ratio(fresh.wall, bare.wall), unit: '×' },
    { name: 'development start with tsx, fresh DATA_DIR', value: median(devFresh.wall), unit: 'ms' },
    { name: 'development start with tsx, existing DATA_DIR', value: median(devExisting.wall), unit: 'ms' },
  ];
}

/** Runs in the page before the app: when the page is ready (a DOM condition first holds), on the page's clock. */
const readyProbe = (selector: string, liveStatus: boolean) => `
  (() => {
    const check = () => {
      if (window.__ready || !document.querySelector(${JSON.stringify(selector)})) return;
      if (${liveStatus} && ![...document.querySelectorAll('[role=status]')].some((e) => e.textContent.includes('Live'))) return;
      window.__ready = performance.now();
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  })();
`;

/** Figures of the loaded page, computed in the page: paint and ready times, files and bytes by origin. */
const pageFigures = `(() => {
  const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
    .filter((e) => new URL(e.name).origin === location.origin);
  const isApi = (e) => new URL(e.name).pathname.startsWith('/api/');
  const files = entries.filter((e) => !isApi(e));
  const api = entries.filter(isApi);
  const kb = (list, key) => Math.round(list.reduce((sum, e) => sum + e[key], 0) / 100) / 10;
  return {
    fcp: Math.round(performance.getEntriesByName('first-contentful-paint')[0].startTime),
    ready: Math.round(window.__ready),
    files: files.length,
    rawKb: kb(files, 'decodedBodySize'),
    sentKb: kb(files, 'encodedBodySize'),
    apiSentKb: kb(api, 'encodedBodySize'),
  };
})()`;

interface PageLoad {
  fcp: number;
  ready: number;
  files: number;
  rawKb: number;
  sentKb: number;
  apiSentKb: number;
}

async function loadPage(
  browser: Browser,
  url: string,
  ready: { selector: string; live?: boolean },
  storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
): Promise<PageLoad> {
  // A new context: empty HTTP cache, like a first visit.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...(storageState ? { storageState } : {}) });
  try {
    const page = await context.newPage();
    await page.addInitScript(readyProbe(ready.selector, Boolean(ready.live)));
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { __ready?: number }).__ready !== undefined, undefined, { timeout: 30_000 });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, undefined, { timeout: 30_000 });
    // A string, not a function: tsx would wrap a function's inner helpers in its own `__name`, unknown in the page.
    return await page.evaluate<PageLoad>(pageFigures);
  } finally {
    await context.close();
  }
}

async function timeLoads(
  label: string,
  load: () => Promise<PageLoad>,
): Promise<{ fcp: number; ready: number; files: number; rawKb: number; sentKb: number }> {
  await load(); // warm the server (first requests compile the handlers)
  const runs: PageLoad[] = [];
  for (let run = 0; run < RUNS; run += 1) runs.push(await load());
  const fcp = median(runs.map((r) => r.fcp));
  const ready = median(runs.map((r) => r.ready));
  const last = runs.at(-1)!;
  console.log(
    `  ${label.padEnd(22)} FCP ${String(fcp).padStart(4)} ms (runs ${runs.map((r) => r.fcp).join(', ')}), ready ${String(ready).padStart(4)} ms ` +
      `(runs ${runs.map((r) => r.ready).join(', ')}); ${last.files} files, ${last.rawKb} KB raw, ${last.sentKb} KB sent; API ${last.apiSentKb} KB sent`,
  );
  return { fcp, ready, files: last.files, rawKb: last.rawKb, sentKb: last.sentKb };
}

/**
 * The page loads, against the built server of this checkout, or (`server`) another checkout's server started with
 * the given arguments (to compare with an earlier version in the same conditions).
 */
export async function benchPageLoads(
  port: number,
  server: { cwd: string; args: string[] } = { cwd: root, args: ['apps/server/dist/main.js'] },
): Promise<BenchResult[]> {
  const staticPage = path.join(server.cwd, 'apps/web/dist/bench-static.html');
  writeFileSync(
    staticPage,
    '<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Static</title></head>' +
      '<body><h1>Greenroom</h1><p>A static page served by the same server.</p></body></html>',
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), 'greenroom-bench-data-'));
  const product = await startServer(server.args, { DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, port, server.cwd);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    // A streamer with a channel whose Twitch chat (the emulator's live `greenroomdemo`, with its crowd) is connected.
    const setup = await browser.newContext();
    const page = await setup.newPage();
    await signInAs(page, `http://localhost:${port}`, 'greenroomdemo');
    const channelId = await createChannel(page, `Bench ${Date.now().toString(36)}`);
    await connectPlatform(page, `http://localhost:${port}`, channelId, 'twitch', 'greenroomdemo');
    for (let waited = 0; ; waited += 250) {
      const log = await apiCall<{ records: unknown[] }>(page, 'GET', `/api/2/channels/${channelId}/chat/messages?limit=20`);
      if (log.records.length >= 20) break;
      if (waited > 60_000) throw new Error('the crowd did not chat within 60 s');
      await sleep(250);
    }
    const signedIn = await setup.storageState();
    await setup.close();

    const base = `http://localhost:${port}`;
    const b = browser;
    const stat = await timeLoads('static page', () => loadPage(b, `${base}/bench-static.html`, { selector: 'h1' }));
    const signIn = await timeLoads('sign-in page', () => loadPage(b, `${base}/sign-in`, { selector: 'a[href*="/sign-in"]' }));
    const chat = await timeLoads('chat page', () =>
      loadPage(b, `${base}/channels/${channelId}/chat`, { selector: '[data-message-id]', live: true }, signedIn),
    );
    return [
      { name: 'static page FCP (same server, same run)', value: stat.fcp, unit: 'ms' },
      { name: 'sign-in page FCP', value: signIn.fcp, unit: 'ms' },
      { name: 'sign-in page ready (provider buttons)', value: signIn.ready, unit: 'ms' },
      { name: 'sign-in page: KB sent (files)', value: signIn.sentKb, unit: 'KB' },
      { name: 'chat page FCP', value: chat.fcp, unit: 'ms' },
      { name: 'chat page ready (history shown, live socket open)', value: chat.ready, unit: 'ms' },
      { name: 'chat page: KB sent (files)', value: chat.sentKb, unit: 'KB' },
      { name: 'chat page ready / static page FCP', value: Math.round((chat.ready / Math.max(1, stat.fcp)) * 10) / 10, unit: '×' },
    ];
  } finally {
    await browser?.close();
    await product.stop();
    rmSync(staticPage, { force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchWebDelivery(): Promise<BenchResult[]> {
  const port = Number(process.env.BENCH_PORT) || 3510;
  const only = process.argv.slice(2).find((a) => a === 'start' || a === 'pages');
  if (!process.env.BENCH_NO_BUILD) buildAll();
  return [...(only !== 'pages' ? await benchColdStart(port) : []), ...(only !== 'start' ? await benchPageLoads(port) : [])];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchWebDelivery()) console.log(`  ${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
}
