import { chromium } from 'playwright-core';
import { apiCall, connectPlatform, createChannel, emulator, signInAs } from './chat-render';

const base = 'http://localhost:3600';
const emu = 'http://127.0.0.1:3601';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const page = await context.newPage();
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log('console:', m.text().slice(0, 300)); });
page.on('pageerror', (e) => console.log('pageerror:', e.message));
await signInAs(page, base, 'greenroomdemo');
const channelId = await createChannel(page, 'Shots');
for (const p of ['twitch', 'kick', 'youtube'] as const) {
  try { await connectPlatform(page, base, channelId, p, 'greenroomdemo'); console.log('connected', p); } catch (e) { console.log('connect failed', p, String(e).slice(0, 300)); }
}
console.log(JSON.stringify(await apiCall(page, 'GET', `/api/2/channels/${channelId}/providers`)).slice(0, 500));
await emulator(emu, 'PUT', '/_emulator/crowd/rate', { rate: 8, eventRate: 0.5 });
await emulator(emu, 'POST', '/_emulator/chat', { platform: 'twitch', channel: 'greenroomdemo', text: 'hey @GreenroomDemo Kappa check https://example.com/x and javascript:alert(1) PogChamp' });
await page.goto(`${base}/channels/${channelId}/chat`);
await page.waitForTimeout(6000);
await page.screenshot({ path: '/tmp/shots/chat-desktop.png' });
await page.setViewportSize({ width: 390, height: 844 });
await page.waitForTimeout(1500);
await page.screenshot({ path: '/tmp/shots/chat-mobile.png' });
await page.setViewportSize({ width: 1440, height: 900 });
await page.goto(`${base}/channels/${channelId}/activity-feed`);
await emulator(emu, 'POST', '/_emulator/events', { platform: 'twitch', channel: 'greenroomdemo', type: 'raid', data: { viewers: 42 } });
await emulator(emu, 'POST', '/_emulator/events', { platform: 'kick', channel: 'greenroomdemo', type: 'sub' });
await page.waitForTimeout(4000);
await page.screenshot({ path: '/tmp/shots/activity-desktop.png' });
await page.goto(`${base}/popout/channels/${channelId}/chat?transparent=1&font_size=20`);
await page.waitForTimeout(4000);
await page.screenshot({ path: '/tmp/shots/public.png' });
console.log('channel', channelId);
await browser.close();
