/**
 * Embedded players, standing in for the platforms' own: the Twitch embed script
 * (`embed.twitch.tv/embed/v1.js`, a `Twitch.Embed` class that inserts the player iframe), the YouTube embed
 * (`www.youtube.com/embed/{videoId}?autoplay=1&mute=1`, or `live_stream?channel={channelId}`) and the Kick player (`player.kick.com/{channel}`).
 * Each answers with a small page showing the simulated stream (channel, title, category, live state), so the
 * product's pages render a real frame offline. Paths: `/_players/twitch/embed/v1.js`,
 * `/_players/twitch/player`, `/_players/youtube/embed/:videoId`, `/_players/kick/:channel`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Channel, Platform, World } from './world';
import { findChannel } from './control/lookup';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const colours: Record<'twitch' | 'youtube' | 'kick', string> = { twitch: '#9146ff', youtube: '#ff0000', kick: '#53fc18' };

function playerPage(world: World, platform: 'twitch' | 'youtube' | 'kick', channel: Channel | undefined, muted: boolean): string {
  const owner = channel ? world.account(platform, channel.id) : undefined;
  const name = owner?.displayName ?? 'Unknown channel';
  const live = channel?.live ?? false;
  const status = !channel
    ? 'This stream does not exist'
    : live
      ? `LIVE · ${channel.viewerCount.toLocaleString('en-US')} viewers`
      : 'Offline';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(name)} - ${platform} player (emulator)</title>
<style>
html,body{margin:0;height:100%;background:#0e0e10;color:#fff;font:14px system-ui,sans-serif;overflow:hidden}
.video{position:absolute;inset:0;background:linear-gradient(120deg,${colours[platform]}55,#101014 40%,${colours[platform]}33 70%,#101014);background-size:300% 300%;${live ? 'animation:pan 8s ease-in-out infinite alternate' : 'filter:grayscale(1)'}}
@keyframes pan{from{background-position:0% 50%}to{background-position:100% 50%}}
.info{position:absolute;left:16px;bottom:16px;right:16px}
.badge{display:inline-block;padding:2px 8px;border-radius:4px;font-weight:700;background:${live ? '#e91916' : '#444'}}
h1{font-size:20px;margin:8px 0 4px}p{margin:0;opacity:.8}
.muted{position:absolute;top:12px;right:12px;opacity:.7}
</style></head>
<body><div class="video" role="img" aria-label="Simulated ${platform} stream of ${escape(name)}"></div>
${muted ? '<div class="muted">Muted</div>' : ''}
<div class="info"><span class="badge" data-live="${live}">${escape(status)}</span><h1>${escape(name)}</h1>
<p>${escape(channel?.title ?? '')}${channel?.categoryName ? ` · ${escape(channel.categoryName)}` : ''}</p></div></body></html>`;
}

/** The Twitch embed script's public surface that Greenroom uses: `new Twitch.Embed(elementId, options)`. */
function twitchEmbedScript(origin: string): string {
  return `(function () {
  function Embed(target, options) {
    var el = typeof target === 'string' ? document.getElementById(target) : target;
    if (!el) throw new Error('Twitch.Embed: element not found');
    var params = new URLSearchParams({ channel: options.channel || '', parent: [].concat(options.parent || []).join(','), autoplay: String(options.autoplay !== false), muted: String(!!options.muted) });
    var frame = document.createElement('iframe');
    frame.src = ${JSON.stringify(origin)} + '/_players/twitch/player?' + params.toString();
    frame.width = String(options.width || '100%');
    frame.height = String(options.height || '100%');
    frame.setAttribute('allowfullscreen', '');
    frame.setAttribute('title', 'Twitch player: ' + (options.channel || ''));
    frame.style.border = '0';
    el.appendChild(frame);
    this._frame = frame;
  }
  Embed.VIDEO_READY = 'video.ready';
  Embed.VIDEO_PLAY = 'video.play';
  Embed.prototype.addEventListener = function (name, fn) { if (name === Embed.VIDEO_READY) this._frame.addEventListener('load', fn); };
  Embed.prototype.getPlayer = function () { return { setMuted: function () {}, play: function () {}, pause: function () {} }; };
  window.Twitch = window.Twitch || {};
  window.Twitch.Embed = Embed;
})();
`;
}

const html = (reply: FastifyReply, body: string) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
const flag = (value: string | undefined, fallback: boolean) => (value === undefined ? fallback : value === 'true' || value === '1');

export async function playerRoutes(app: FastifyInstance, world: World): Promise<void> {
  const channelOf = (platform: Platform, login: string) => findChannel(world, platform, login);

  app.get('/_players/twitch/embed/v1.js', async (request, reply) => {
    const origin = `${request.protocol}://${request.host}`;
    return reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-store').send(twitchEmbedScript(origin));
  });

  app.get<{ Querystring: { channel?: string; muted?: string } }>('/_players/twitch/player', async (request, reply) =>
    html(reply, playerPage(world, 'twitch', channelOf('twitch', request.query.channel ?? ''), flag(request.query.muted, false))),
  );

  app.get<{ Params: { videoId: string }; Querystring: { mute?: string; channel?: string } }>(
    '/_players/youtube/embed/:videoId',
    async (request, reply) => {
      // `live_stream?channel=UC…`: the channel's current live stream.
      const channel =
        request.params.videoId === 'live_stream'
          ? world.channelsOf('youtube').find((c) => c.id === request.query.channel)
          : world.channelsOf('youtube').find((c) => c.broadcastId === request.params.videoId);
      return html(reply, playerPage(world, 'youtube', channel, flag(request.query.mute, false)));
    },
  );

  app.get<{ Params: { channel: string }; Querystring: { muted?: string } }>('/_players/kick/:channel', async (request, reply) =>
    html(reply, playerPage(world, 'kick', channelOf('kick', request.params.channel), flag(request.query.muted, false))),
  );
}
