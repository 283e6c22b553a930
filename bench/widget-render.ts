/**
 * Widget render benchmark: the real server with the platform emulator, the built web app in Chromium. 50 event-list
 * widget pages (`/widget/{token}`, as OBS opens them) in one browser; follows are sent on the emulator's Twitch channel
 * one after another, and each page records when the new row is on screen. Latency = platform event sent → row rendered,
 * per page and event (p50/p99), beside the widget socket's own latency in the same run: a plain websocket client of
 * the same widget URL in this process (platform event → frame received), which is what the pages cannot beat.
 * Run: npx tsx bench/widget-render.ts (BENCH_PORT picks the server port, default 3520; BENCH_WIDGET_PAGES, default 50)
 */
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import WebSocket from 'ws';
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
];
const EVENTS = 30;
const SPACING_MS = 400;
const GOAL_P99_MS = 100;

/** Installed before the page: the wall-clock time each event-list row appears. */
const probeScript = `
  window.__rows = [];
  new MutationObserver((records) => {
    const at = performance.timeOrigin + performance.now();
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType === 1 && n.matches && n.matches('li[data-event-type]')) window.__rows.push(at);
    }
  }).observe(document, { childList: true, subtree: true });
`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! * 10) / 10;
}

export async function benchWidgetRender(options: { port?: number; pages?: number } = {}): Promise<BenchResult[]> {
  ensureWebBuilt();
  const pages = options.pages ?? (Number(process.env.BENCH_WIDGET_PAGES) || 50);
  const product = await startProduct(options.port ?? (Number(process.env.BENCH_PORT) || 3520));
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const editor = await (await browser.newContext()).newPage();
    await signInAs(editor, product.base, 'greenroomdemo');
    const channelId = await createChannel(editor, `Widget bench ${Date.now().toString(36)}`);
    await connectPlatform(editor, product.base, channelId, 'twitch', 'greenroomdemo');
    await emulator(product.emulator, 'PUT', '/_emulator/crowd/rate', { rate: 0, eventRate: 0 });
    const widget = await apiCall<{ token: string }>(editor, 'POST', `/api/2/channels/${channelId}/widgets`, { type: 'events' });

    // The widget pages: one context (one OBS), `pages` tabs.
    const obs = await browser.newContext({ viewport: { width: 420, height: 420 } });
    await obs.addInitScript(probeScript);
    const opened: Page[] = [];
    for (let i = 0; i < pages; i += 1) {
      const page = await obs.newPage();
      await page.goto(`${product.base}/widget/${widget.token}`);
      opened.push(page);
    }
    for (const page of opened) await page.locator('main[data-state="live"]').waitFor({ state: 'attached', timeout: 30_000 });

    // The socket's own latency: a plain client of the same widget URL.
    const frames: number[] = [];
    const socket = new WebSocket(`${product.base.replace('http', 'ws')}/api/2/public/widgets/${widget.token}/ws`);
    socket.on('message', (raw: Buffer) => {
      if (raw.toString().startsWith('{"type":"event"')) frames.push(Date.now());
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));

    const sent: number[] = [];
    for (let i = 0; i < EVENTS; i += 1) {
      sent.push(Date.now());
      await emulator(product.emulator, 'POST', '/_emulator/events', { platform: 'twitch', channel: 'greenroomdemo', type: 'follow' });
      await new Promise((r) => setTimeout(r, SPACING_MS));
    }
    // Until every page has every row (or 30 s): a slow page counts as slow, not as missing.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
      const counts = await Promise.all(opened.map((p) => p.evaluate(() => (window as unknown as { __rows: number[] }).__rows.length)));
      if (counts.every((n) => n >= EVENTS) && frames.length >= EVENTS) break;
    }
    socket.close();

    const socketLatency = frames.slice(0, EVENTS).map((at, i) => at - sent[i]!);
    const renderLatency: number[] = [];
    let missing = 0;
    for (const page of opened) {
      const rows = await page.evaluate(() => (window as unknown as { __rows: number[] }).__rows);
      // The first rows are the state the page loaded with (none: a new channel); then one row per event.
      for (let i = 0; i < EVENTS; i += 1) {
        const at = rows[i];
        if (at === undefined) missing += 1;
        else renderLatency.push(at - sent[i]!);
      }
    }
    const render = renderLatency.toSorted((a, b) => a - b);
    const sock = socketLatency.toSorted((a, b) => a - b);
    console.log(
      `  ${pages} widget pages, ${EVENTS} follows ${SPACING_MS} ms apart: render p50 ${percentile(render, 0.5)} ms, p99 ${percentile(render, 0.99)} ms (goal ≤ ${GOAL_P99_MS}), missing rows ${missing}`,
    );
    console.log(
      `  the widget socket alone (same run):  p50 ${percentile(sock, 0.5)} ms, p99 ${percentile(sock, 0.99)} ms, frames ${frames.length}`,
    );
    return [
      { name: `platform event → widget row rendered, p99 (${pages} pages in one Chromium)`, value: percentile(render, 0.99), unit: 'ms' },
      { name: 'platform event → widget row rendered, p50', value: percentile(render, 0.5), unit: 'ms' },
      { name: 'baseline: platform event → widget socket frame, p99', value: percentile(sock, 0.99), unit: 'ms' },
      { name: 'rows never rendered', value: missing, unit: 'rows' },
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
