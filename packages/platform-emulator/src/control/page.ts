/** The control page at /_emulator/ (`?channel={platform}:{id}` preselects a channel; the local "studio"): watch a channel's chat live, chat as a viewer, push events, toggle live, set the crowd rate. */
import type { FastifyInstance } from 'fastify';
import { page } from '../http/html';

const styles = `
main.wide { max-width: 1100px; display: grid; grid-template-columns: 1fr 320px; gap: 20px; }
#chat { height: 60vh; overflow-y: auto; background:#0e0e10; border:1px solid var(--line); border-radius:8px; padding:8px; font-size:14px; }
#chat div { padding: 2px 0; word-wrap: break-word; } #chat .event { color:#f5c542; } #chat .action { color:#8fd9b0; } #chat .deleted { text-decoration: line-through; opacity:.5; }
select, input[type=number] { font: inherit; padding: 6px 8px; background:#0e0e10; color:var(--text); border:1px solid var(--line); border-radius:6px; }
.row { display:flex; gap:8px; margin: 8px 0; align-items:center; flex-wrap: wrap; }
aside section { margin-bottom: 18px; } aside h2 { margin-top: 0; }
`;

const script = `
const $ = (id) => document.getElementById(id);
let channels = [], socket = null;
async function api(path, method = 'GET', body) {
  const res = await fetch('/_emulator' + path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (!res.ok) { status('Error ' + res.status + ': ' + text); throw new Error(text); }
  return text ? JSON.parse(text) : null;
}
function status(text) { $('status').textContent = text; }
function current() { const [platform, id] = $('channel').value.split(':'); return { platform, id, channel: channels.find((c) => c.platform === platform && c.id === id) }; }
function line(cls, text, color, name) {
  const div = document.createElement('div'); div.className = cls;
  if (name) { const b = document.createElement('b'); b.textContent = name + ': '; if (color) b.style.color = color; div.appendChild(b); }
  div.appendChild(document.createTextNode(text));
  const chat = $('chat'); const atBottom = chat.scrollTop + chat.clientHeight >= chat.scrollHeight - 30;
  chat.appendChild(div); while (chat.childNodes.length > 500) chat.removeChild(chat.firstChild);
  if (atBottom) chat.scrollTop = chat.scrollHeight;
  return div;
}
const byId = new Map();
function connect() {
  if (socket) socket.close();
  const c = current(); $('chat').textContent = ''; byId.clear();
  socket = new WebSocket(location.origin.replace(/^http/, 'ws') + '/_emulator/stream?platform=' + c.platform + '&channel=' + c.id);
  socket.onmessage = (e) => {
    const batch = JSON.parse(e.data);
    for (const item of batch.items) {
      if (item.kind === 'chat') byId.set(item.message.id, line(item.message.origin === 'product' ? 'action' : '', item.message.text, item.message.color, item.message.author));
      else if (item.kind === 'deleted') { const d = byId.get(item.id); if (d) d.className += ' deleted'; }
      else if (item.kind === 'event') line('event', '★ ' + item.event.type + (item.event.user ? ' by ' + item.event.user : '') + ' ' + JSON.stringify(item.event.data));
      else if (item.kind === 'action') line('action', '⚙ product: ' + item.action.type + ' ' + JSON.stringify(item.action.data));
    }
    if (batch.dropped) line('muted', '… ' + batch.dropped + ' more not shown');
  };
  renderLive();
}
function renderLive() { const c = current().channel; $('live').textContent = c && c.live ? 'Go offline' : 'Go live'; $('livestate').textContent = c && c.live ? 'LIVE (' + c.viewerCount + ' viewers)' : 'offline'; }
async function load() {
  channels = (await api('/channels')).data;
  $('channel').innerHTML = '';
  for (const c of channels) { const o = document.createElement('option'); o.value = c.platform + ':' + c.id; o.textContent = c.platform + ' · ' + c.displayName + (c.live ? ' (live)' : ''); $('channel').appendChild(o); }
  const wanted = new URLSearchParams(location.search).get('channel'); if (wanted && channels.some((c) => c.platform + ':' + c.id === wanted)) $('channel').value = wanted;
  const crowd = await api('/crowd'); $('rate').value = crowd.rate; $('crowdstate').textContent = crowd.running ? 'running' : 'stopped';
  connect();
}
$('channel').addEventListener('change', connect);
$('send').addEventListener('submit', async (e) => { e.preventDefault(); const c = current(); await api('/chat', 'POST', { platform: c.platform, channel: c.id, user: $('user').value || undefined, text: $('text').value }); $('text').value = ''; });
for (const b of document.querySelectorAll('[data-event]')) b.addEventListener('click', async () => { const c = current(); await api('/events', 'POST', { platform: c.platform, channel: c.id, type: b.dataset.event, data: b.dataset.data ? JSON.parse(b.dataset.data) : {} }); status('Sent ' + b.dataset.event); });
$('live').addEventListener('click', async () => { const c = current(); const updated = await api('/channels/' + c.platform + '/' + c.id + '/live', 'POST', { live: !(c.channel && c.channel.live) }); Object.assign(c.channel, updated); renderLive(); });
$('setrate').addEventListener('click', async () => { await api('/crowd/rate', 'PUT', { rate: Number($('rate').value) }); status('Crowd rate set'); });
$('start').addEventListener('click', async () => { await api('/crowd/start', 'POST'); $('crowdstate').textContent = 'running'; });
$('stop').addEventListener('click', async () => { await api('/crowd/stop', 'POST'); $('crowdstate').textContent = 'stopped'; });
load();
`;

export function controlPageHtml(): string {
  const body = `<main class="wide">
<section>
<h1>Greenroom platform emulator</h1>
<div class="row"><label for="channel">Channel</label><select id="channel"></select> <span id="livestate" class="muted"></span> <button id="live" type="button">Go live</button></div>
<div id="chat" role="log" aria-live="polite" aria-label="Chat"></div>
<form id="send" class="row"><label for="user" class="muted">as</label><input id="user" type="text" placeholder="viewer login (empty = random)" style="width:200px"><input id="text" type="text" placeholder="Message" required aria-label="Message" style="flex:1"><button class="primary" type="submit">Send</button></form>
<p id="status" class="muted" role="status"></p>
</section>
<aside>
<section><h2>Events</h2><div class="row">
<button type="button" data-event="follow">Follow</button><button type="button" data-event="sub" data-data='{"tier":1}'>Sub</button>
<button type="button" data-event="resub" data-data='{"months":12,"message":"a year already!"}'>Resub</button>
<button type="button" data-event="gift" data-data='{"count":5}'>Gift 5</button><button type="button" data-event="raid" data-data='{"viewers":120}'>Raid</button>
<button type="button" data-event="cheer" data-data='{"bits":500,"message":"Cheer500 hype"}'>Cheer</button>
<button type="button" data-event="superchat" data-data='{"amount":20,"currency":"USD","message":"great stream"}'>Super Chat</button>
<button type="button" data-event="kicks" data-data='{"amount":100}'>Kicks</button><button type="button" data-event="tiktok_gift" data-data='{"giftName":"Rose","count":3}'>TikTok gift</button>
</div></section>
<section><h2>Crowd</h2><p class="muted">State: <span id="crowdstate"></span></p>
<div class="row"><label for="rate">Messages/s (all channels)</label><input id="rate" type="number" min="0" max="20000" step="0.1" style="width:110px"><button id="setrate" type="button">Set</button></div>
<div class="row"><button id="start" type="button">Start</button><button id="stop" type="button">Stop</button></div></section>
<section><h2>API</h2><p class="muted">See <code>/_emulator/config</code>, <code>/_emulator/actions</code>, <code>/_emulator/twitch/eventsub</code>.</p></section>
</aside>
</main><script>${script}</script>`;
  return page('Greenroom emulator', body, `<style>${styles}</style>`);
}

export async function controlPageRoute(app: FastifyInstance): Promise<void> {
  app.get('/_emulator/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(controlPageHtml()));
  app.get('/_emulator', async (_request, reply) => reply.redirect('/_emulator/', 302));
}
