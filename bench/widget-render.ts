/**
 * Widget render benchmark: the real server with the platform emulator, the built web app in Chromium. 50 event-list
 * widget pages (`/widget/{token}`, as OBS opens them) in one browser; Twitch follows are sent on the emulator at an
 * offered rate, and each page records when each new row is drawn (the frame after the row joined the DOM). Latency =
 * platform event sent → row drawn, per page and event.
 *
 * The sweep finds the maximum sustainable rate: the offered rate doubles from 2 events/s (then one step between the
 * last rate that held and the first that did not; halving down to 0.25/s when 2/s already fails) until a step fails — p99 above 100 ms, rows still missing 5 s after
 * the last event (a backlog), or the sender not reaching the offered rate.
 *
 * The ceiling, measured in the same run with the same Chromium: the same event frames (the JSON the widget socket
 * sends) pushed by a bare websocket server in this process to 50 bare pages that append a row per frame — no
 * platform, no server, no React. The same sweep gives its maximum rate; the ratio is product ÷ ceiling. The widget
 * socket alone (a plain client of the same widget URL, on a worker thread of this process so that driving the browser
 * never delays it) is printed at each product step: platform event sent → frame received, the server's own latency.
 * Before each sweep one page alone (widget, then bare) takes 30 events, and Chromium's own counters (CDP Performance
 * metrics) give its main-thread time per event: what one event costs a scene of 50 pages (a busy machine still inflates
 * it: tasks that wait for a core last longer).
 * Run: npx tsx bench/widget-render.ts (BENCH_PORT picks the server port, the emulator takes the next one, default
 * 3520; BENCH_WIDGET_PAGES, default 50)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { WebSocketServer } from 'ws';
import { apiCall, connectPlatform, createChannel, emulator, ensureWebBuilt, signInAs, startProduct, type BenchResult } from './chat-render';

/**
 * OBS draws every browser source all the time: none of them is a background tab. Chromium would throttle the 49 tabs
 * that are not in front (timers, rendering), which measures Chromium's tab policy instead of the widget.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  // Headless has no display: with its synthetic vsync and frame-rate limit, every page of the 50 drew some events
  // 0.6–1.1 s after they were in its DOM, together (bare pages as much as widgets, at load 0.7). With these two the
  // tail is gone: a row is drawn in the frame after it joins the DOM.
  '--disable-gpu-vsync',
  '--disable-frame-rate-limit',
];
const GOAL_P99_MS = 100;
const FIRST_RATE = 2;
/** When even the first rate fails (a loaded machine), the sweep halves down to this before it gives up. */
const LOWEST_RATE = 0.25;
const MAX_RATE = 512;
/** Each step offers this long of events (at least MIN_EVENTS). */
const STEP_SECONDS = 3;
const MIN_EVENTS = 10;
/** Rows not on every page this long after the last event: a backlog. */
const DRAIN_MS = 5_000;

/**
 * Installed before the page: the wall-clock time each event-list row is drawn. A row is seen when it joins the DOM;
 * its time is taken after the next frame that draws it (an animation frame, then the task after it: style, layout and
 * paint of that frame are done), not when the DOM changes.
 */
const probeScript = `
  window.__rows = [];
  window.__dom = [];
  new MutationObserver((records) => {
    let rows = 0;
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType === 1 && n.matches && n.matches('li[data-event-type]')) rows += 1;
    }
    if (rows === 0) return;
    const domAt = performance.timeOrigin + performance.now();
    for (let i = 0; i < rows; i += 1) window.__dom.push(domAt);
    requestAnimationFrame(() => setTimeout(() => {
      const at = performance.timeOrigin + performance.now();
      for (let i = 0; i < rows; i += 1) window.__rows.push(at);
    }, 0));
  }).observe(document, { childList: true, subtree: true });
`;

/** The bare page of the ceiling: a socket, a list, a row per event frame (the 8 newest kept, as the widget does). */
const barePage = `<!doctype html><html><body style="background:transparent;margin:0"><ul id="rows"></ul><script>
  const list = document.getElementById('rows');
  const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws');
  ws.onmessage = (m) => {
    const frame = JSON.parse(m.data);
    if (frame.type !== 'event') return;
    const li = document.createElement('li');
    li.dataset.eventType = frame.data.type;
    li.textContent = frame.data.name + ' followed';
    list.prepend(li);
    while (list.children.length > 8) list.lastElementChild.remove();
  };
  ws.onopen = () => { document.body.dataset.state = 'live'; };
</script></body></html>`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! * 10) / 10;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rowsOf = (page: Page) => page.evaluate(() => (window as unknown as { __rows: number[] }).__rows);
/** When each row joined the DOM (before its frame): printed beside the drawn time, to show where the time goes. */
const domRowsOf = (page: Page) => page.evaluate(() => (window as unknown as { __dom: number[] }).__dom);

interface Step {
  rate: number;
  events: number;
  /** Events per second the sender reached. */
  achieved: number;
  p50: number;
  /** p99 platform event → row in the DOM (before the frame that draws it), ms. */
  domP99: number;
  p99: number;
  missing: number;
  /** The widget socket alone (product steps only): p99 platform event → frame, ms. */
  socketP99: number | null;
  ok: boolean;
}

/** Sends `count` events at `rate` per second (each awaited: the platform sees them in order); returns their send times. */
async function offer(rate: number, count: number, send: (i: number) => Promise<void>): Promise<{ sent: number[]; seconds: number }> {
  const sent: number[] = [];
  const start = Date.now();
  for (let i = 0; i < count; i += 1) {
    const due = start + (i * 1000) / rate;
    if (due > Date.now()) await sleep(due - Date.now());
    sent.push(Date.now());
    await send(i);
  }
  return { sent, seconds: Math.max(0.001, (Date.now() - start) / 1000) };
}

/** One step: offer events at `rate`, wait for every page's rows (or the backlog deadline), measure. */
async function step(pages: Page[], rate: number, send: (i: number) => Promise<void>, socketFrames: number[] | null): Promise<Step> {
  const count = Math.max(MIN_EVENTS, Math.round(rate * STEP_SECONDS));
  const before = await Promise.all(pages.map(async (p) => (await rowsOf(p)).length));
  const domBefore = await Promise.all(pages.map(async (p) => (await domRowsOf(p)).length));
  const framesBefore = socketFrames?.length ?? 0;
  const { sent, seconds } = await offer(rate, count, send);
  for (const deadline = Date.now() + DRAIN_MS; Date.now() < deadline; await sleep(250)) {
    const counts = await Promise.all(pages.map(async (p) => (await rowsOf(p)).length));
    if (counts.every((n, i) => n - before[i]! >= count)) break;
  }
  const latencies: number[] = [];
  const domLatencies: number[] = [];
  let missing = 0;
  for (const [index, page] of pages.entries()) {
    const rows = (await rowsOf(page)).slice(before[index]);
    const dom = (await domRowsOf(page)).slice(domBefore[index]);
    for (let i = 0; i < Math.min(count, dom.length); i += 1) domLatencies.push(dom[i]! - sent[i]!);
    for (let i = 0; i < count; i += 1) {
      const at = rows[i];
      if (at === undefined) missing += 1;
      else latencies.push(at - sent[i]!);
    }
  }
  const sorted = latencies.toSorted((a, b) => a - b);
  const achieved = Math.round((count / seconds) * 10) / 10;
  let socketP99: number | null = null;
  if (socketFrames) {
    const frames = socketFrames.slice(framesBefore, framesBefore + count).map((at, i) => at - sent[i]!);
    socketP99 = percentile(
      frames.toSorted((a, b) => a - b),
      0.99,
    );
  }
  const p99 = percentile(sorted, 0.99);
  return {
    rate,
    events: count,
    achieved,
    p50: percentile(sorted, 0.5),
    domP99: percentile(
      domLatencies.toSorted((a, b) => a - b),
      0.99,
    ),
    p99,
    missing,
    socketP99,
    ok: missing === 0 && p99 <= GOAL_P99_MS && achieved >= rate * 0.9,
  };
}

function print(label: string, s: Step): void {
  const why = s.ok ? 'holds' : s.missing > 0 ? 'backlog' : s.achieved < s.rate * 0.9 ? 'sender behind' : 'p99 over goal';
  console.log(
    `  ${label} ${String(s.rate).padStart(4)} ev/s (sent ${s.achieved}/s, ${s.events} events): p50 ${s.p50} ms, p99 ${s.p99} ms (in the DOM ${s.domP99})` +
      `${s.socketP99 === null ? '' : `, socket alone p99 ${s.socketP99} ms`}, missing ${s.missing} → ${why}`,
  );
}

/**
 * Doubles the rate until a step fails, then tries once between the last rate that held and the first that did not.
 * If the first rate already fails (a loaded machine), halves it until one holds, down to LOWEST_RATE.
 */
async function sweep(label: string, run: (rate: number) => Promise<Step>): Promise<{ max: Step | null; steps: Step[] }> {
  const steps: Step[] = [];
  const attempt = async (rate: number): Promise<Step> => {
    const s = await run(rate);
    steps.push(s);
    print(label, s);
    await sleep(1000);
    return s;
  };
  let held = await attempt(FIRST_RATE);
  if (!held.ok) {
    for (let rate = FIRST_RATE / 2; rate >= LOWEST_RATE; rate /= 2) {
      const s = await attempt(rate);
      if (s.ok) return { max: s, steps };
    }
    return { max: null, steps };
  }
  let failed: number | null = null;
  for (let rate = FIRST_RATE * 2; rate <= MAX_RATE; rate *= 2) {
    const s = await attempt(rate);
    if (!s.ok) {
      failed = rate;
      break;
    }
    held = s;
  }
  const between = failed ? Math.round(Math.sqrt(held.rate * failed)) : 0;
  if (failed && between > held.rate && between < failed) {
    const s = await attempt(between);
    if (s.ok) held = s;
  }
  return { max: held, steps };
}

/** The ceiling: a bare websocket server here, bare pages in the same Chromium, the same frames. */
async function bareCeiling(browser: Browser, count: number, frame: (i: number) => string): Promise<{ max: Step | null; cost: PageCost }> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(barePage));
  const wss = new WebSocketServer({ server, path: '/ws' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const context: BrowserContext = await browser.newContext({ viewport: { width: 420, height: 420 } });
  try {
    await context.addInitScript(probeScript);
    // The cost of one bare page per event, alone in the browser (its own counters, before the others open).
    const alone = await context.newPage();
    await alone.goto(base);
    await alone.locator('body[data-state="live"]').waitFor({ state: 'attached', timeout: 30_000 });
    const cost = await pageCost(alone, async (i) => {
      const payload = frame(-1 - i);
      for (const client of wss.clients) client.send(payload);
    });
    await alone.close();
    const pages: Page[] = [];
    for (let i = 0; i < count; i += 1) {
      const page = await context.newPage();
      await page.goto(base);
      pages.push(page);
    }
    for (const page of pages) await page.locator('body[data-state="live"]').waitFor({ state: 'attached', timeout: 30_000 });
    const { max } = await sweep('bare pages  ', (rate) =>
      step(
        pages,
        rate,
        async (i) => {
          const payload = frame(i);
          for (const client of wss.clients) client.send(payload);
        },
        null,
      ),
    );
    return { max, cost };
  } finally {
    await context.close();
    for (const client of wss.clients) client.terminate();
    wss.close();
    server.close();
  }
}

/** The worker of `socketAlone`: a ws client that posts the wall-clock time of each event frame. */
const socketWorker = `
  const { parentPort, workerData } = require('node:worker_threads');
  const WebSocket = require(workerData.ws);
  const socket = new WebSocket(workerData.url);
  socket.on('message', (raw) => {
    if (raw.toString().startsWith('{"type":"event"')) parentPort.postMessage(Date.now());
  });
  socket.once('open', () => parentPort.postMessage('open'));
  socket.once('error', (error) => parentPort.postMessage('error: ' + error.message));
  parentPort.on('message', () => { socket.close(); parentPort.close(); });
`;

/** A plain websocket client on a worker thread: `frames` gets the time each event frame arrived. */
function socketAlone(url: string, frames: number[]): { opened: Promise<void>; close: () => Promise<void> } {
  const worker = new Worker(socketWorker, { eval: true, workerData: { url, ws: createRequire(import.meta.url).resolve('ws') } });
  const opened = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: number | string) => {
      if (typeof m === 'number') frames.push(m);
      else if (m === 'open') resolve();
      else reject(new Error(m));
    });
    worker.once('error', reject);
  });
  return {
    opened,
    close: async () => {
      worker.postMessage('close');
      await worker.terminate();
    },
  };
}

/** Main-thread time one page spends per event (CDP Performance metrics): little moved by the other pages' work. */
interface PageCost {
  /** All main-thread tasks: script, style, layout, paint recording. */
  task: number;
  script: number;
}

const COST_EVENTS = 30;

/**
 * One page alone: `COST_EVENTS` events 300 ms apart (each drawn before the next), and the page's main-thread time
 * over them from Chromium's own counters, per event. Times 50 pages, it is the CPU one event costs the scene.
 */
async function pageCost(page: Page, send: (i: number) => Promise<void>): Promise<PageCost> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const read = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const of = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
    return { task: of('TaskDuration'), script: of('ScriptDuration') };
  };
  // Warm-up: the first rows compile and lay out what later rows reuse.
  for (let i = 0; i < 5; i += 1) {
    await send(i);
    await sleep(300);
  }
  const before = await read();
  for (let i = 0; i < COST_EVENTS; i += 1) {
    await send(5 + i);
    await sleep(300);
  }
  const after = await read();
  await cdp.detach();
  const perEvent = (a: number, b: number) => Math.round(((a - b) / COST_EVENTS) * 1000 * 100) / 100;
  return { task: perEvent(after.task, before.task), script: perEvent(after.script, before.script) };
}

function printCost(label: string, cost: PageCost, pages: number): void {
  console.log(
    `  ${label}: ${cost.task} ms main thread per page and event (script ${cost.script} ms); ` +
      `${pages} pages ≈ ${Math.round(cost.task * pages)} ms of CPU per event on ${os.cpus().length} cores`,
  );
}

export async function benchWidgetRender(options: { port?: number; pages?: number } = {}): Promise<BenchResult[]> {
  ensureWebBuilt();
  const pageCount = options.pages ?? (Number(process.env.BENCH_WIDGET_PAGES) || 50);
  const product = await startProduct(options.port ?? (Number(process.env.BENCH_PORT) || 3520));
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const load = () =>
      os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ');
    console.log(`  load average at start: ${load()} (${os.cpus().length} cores)`);

    // The ceiling first (nothing of the product running in the browser yet).
    const sample = (i: number) =>
      JSON.stringify({
        type: 'event',
        data: {
          id: `bare-${i}`,
          type: 'follow',
          provider: 'twitch',
          name: `Viewer${i}`,
          tier: null,
          months: null,
          count: null,
          amount: null,
          message: null,
          occurred_at: new Date().toISOString(),
          test: false,
          replay: false,
        },
      });
    const { max: ceiling, cost: bareCost } = await bareCeiling(browser, pageCount, sample);

    const editor = await (await browser.newContext()).newPage();
    await signInAs(editor, product.base, 'greenroomdemo');
    const channelId = await createChannel(editor, `Widget bench ${Date.now().toString(36)}`);
    await connectPlatform(editor, product.base, channelId, 'twitch', 'greenroomdemo');
    await emulator(product.emulator, 'PUT', '/_emulator/crowd/rate', { rate: 0, eventRate: 0 });
    const widget = await apiCall<{ token: string }>(editor, 'POST', `/api/2/channels/${channelId}/widgets`, { type: 'events' });

    const follow = () =>
      emulator(product.emulator, 'POST', '/_emulator/events', { platform: 'twitch', channel: 'greenroomdemo', type: 'follow' });

    // The widget pages: one context (one OBS), `pageCount` tabs; first one alone, for its cost per event.
    const obs = await browser.newContext({ viewport: { width: 420, height: 420 } });
    await obs.addInitScript(probeScript);
    const alone = await obs.newPage();
    await alone.goto(`${product.base}/widget/${widget.token}`);
    await alone.locator('main[data-state="live"]').waitFor({ state: 'attached', timeout: 60_000 });
    const widgetCost = await pageCost(alone, async () => void (await follow()));
    await alone.close();
    printCost('bare page alone  ', bareCost, pageCount);
    printCost('widget page alone', widgetCost, pageCount);
    const pages: Page[] = [];
    for (let i = 0; i < pageCount; i += 1) {
      const page = await obs.newPage();
      await page.goto(`${product.base}/widget/${widget.token}`);
      pages.push(page);
    }
    for (const page of pages) await page.locator('main[data-state="live"]').waitFor({ state: 'attached', timeout: 60_000 });

    // The socket's own latency: a plain client of the same widget URL, on its own thread (this thread drives the
    // browser and the sender: its work must not delay when a frame is seen).
    const frames: number[] = [];
    const socket = socketAlone(`${product.base.replace('http', 'ws')}/api/2/public/widgets/${widget.token}/ws`, frames);
    await socket.opened;

    const { max } = await sweep('widget pages', (rate) => step(pages, rate, async () => void (await follow()), frames));
    await socket.close();

    const ratio = max && ceiling ? Math.round((max.rate / ceiling.rate) * 1000) / 1000 : 0;
    console.log(
      `  maximum sustainable: widget pages ${max?.rate ?? 0} events/s (p99 ${max?.p99 ?? '–'} ms, socket alone p99 ${max?.socketP99 ?? '–'} ms)` +
        ` · bare pages ceiling ${ceiling?.rate ?? 0} events/s (p99 ${ceiling?.p99 ?? '–'} ms) · ratio ${ratio}`,
    );
    console.log(`  load average at end: ${load()}`);
    return [
      {
        name: `maximum sustainable event rate, ${pageCount} widget pages (p99 ≤ ${GOAL_P99_MS} ms, no backlog)`,
        value: max?.rate ?? 0,
        unit: 'events/s',
      },
      { name: 'platform event → widget row rendered at that rate, p99', value: max?.p99 ?? 0, unit: 'ms' },
      { name: 'platform event → widget socket frame at that rate, p99', value: max?.socketP99 ?? 0, unit: 'ms' },
      { name: `ceiling: bare websocket → ${pageCount} bare pages, maximum sustainable rate`, value: ceiling?.rate ?? 0, unit: 'events/s' },
      { name: 'ratio widget pages ÷ bare pages', value: ratio, unit: '×' },
      { name: 'main-thread time per widget page and event (one page alone)', value: widgetCost.task, unit: 'ms' },
      { name: 'main-thread time per bare page and event (one page alone)', value: bareCost.task, unit: 'ms' },
    ];
  } finally {
    await browser?.close();
    await product.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await benchWidgetRender();
  for (const r of results) console.log(`  ${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
}
