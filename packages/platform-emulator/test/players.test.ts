import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { playerRoutes } from '../src/players';
import { account, channel, startHarness, type Harness } from './plugin-harness';

let h: Harness;

beforeEach(async () => {
  h = await startHarness((app, ctx) => playerRoutes(app, ctx.world));
  account(h.world, 'twitch', '1001', 'twitchstar', 'streamer');
  channel(h.world, 'twitch', '1001', { title: 'Speedrun <night>', live: true, viewerCount: 42 });
  account(h.world, 'youtube', 'UC1', 'tuber', 'streamer');
  channel(h.world, 'youtube', 'UC1', { live: true, broadcastId: 'vid123' });
  account(h.world, 'kick', '77', 'kicker', 'streamer');
  channel(h.world, 'kick', '77', { live: false });
});

afterEach(() => h.close());

const get = (url: string) => h.app.inject({ method: 'GET', url });

describe('embedded players', () => {
  it('serves a Twitch embed script defining Twitch.Embed that points its iframe at this origin', async () => {
    const res = await get('/_players/twitch/embed/v1.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toContain('window.Twitch.Embed = Embed');
    expect(res.body).toContain('/_players/twitch/player?');
  });

  it('shows the simulated stream with its live state, escaping the title', async () => {
    const twitch = await get('/_players/twitch/player?channel=twitchstar&muted=true');
    expect(twitch.headers['content-type']).toMatch(/text\/html/);
    expect(twitch.body).toContain('LIVE · 42 viewers');
    expect(twitch.body).toContain('Speedrun &#60;night&#62;');
    expect(twitch.body).not.toContain('<night>');
    expect((await get('/_players/youtube/embed/vid123?autoplay=1&mute=1')).body).toContain('data-live="true"');
    expect((await get('/_players/kick/kicker?autoplay=true&muted=true')).body).toContain('Offline');
    expect((await get('/_players/kick/nobody')).body).toContain('This stream does not exist');
  });
});
