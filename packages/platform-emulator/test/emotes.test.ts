import { inflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emotesPlugin } from '../src/emotes/plugin';
import { bttvEmoteNames, sevenTvEmoteNames, sevenTvGlobalNames } from '../src/emote-names';
import { account, anyBoolean, anyString, channel, matching, objectContaining, startHarness, type Harness } from './plugin-harness';

interface SevenTvEmote {
  id: string;
  name: string;
  data: { host: { url: string; files: unknown[] } };
}
interface SevenTvSet {
  id: string;
  emotes: SevenTvEmote[];
}
interface SevenTvUser {
  emote_set: SevenTvSet;
}
interface BttvEmote {
  id: string;
  code: string;
  user?: unknown;
}
interface BttvUser {
  id: string;
  channelEmotes: BttvEmote[];
  sharedEmotes: BttvEmote[];
}

let h: Harness;

beforeEach(async () => {
  h = await startHarness(emotesPlugin);
  account(h.world, 'twitch', '123456', 'streamer', 'streamer');
  channel(h.world, 'twitch', '123456');
  account(h.world, 'kick', '777', 'kicker', 'streamer');
  channel(h.world, 'kick', '777');
});

afterEach(async () => {
  await h.close();
});

const get = (url: string) => h.app.inject({ method: 'GET', url });

describe('7TV', () => {
  it('serves a linked channel with its emote set in 7TV shape and a protocol-relative host', async () => {
    const res = await get('/7tv/v3/users/twitch/123456');
    expect(res.statusCode).toBe(200);
    const body = res.json<SevenTvUser>();
    expect(body).toMatchObject({ id: '123456', platform: 'TWITCH', username: 'streamer', emote_set: { id: matching(/^[0-9a-f]{24}$/) } });
    const emote = body.emote_set.emotes[0]!;
    expect(emote).toMatchObject({
      id: anyString,
      name: anyString,
      flags: 0,
      data: { animated: anyBoolean, host: { url: `//${h.origin.slice('http://'.length)}/7tv-cdn/emote/${emote.id}` } },
    });
    expect(emote.data.host.files).toContainEqual(objectContaining({ name: '1x.webp', width: 28, height: 28, format: 'WEBP' }));
    const served = body.emote_set.emotes.map((e) => e.name);
    for (const name of served) expect(sevenTvEmoteNames).toContain(name);
    expect(served).not.toContain(sevenTvGlobalNames[0]);

    const set = await get(`/7tv/v3/emote-sets/${body.emote_set.id}`);
    expect(set.json<SevenTvSet>().emotes).toHaveLength(served.length);
    expect((await get('/7tv/v3/users/kick/777')).statusCode).toBe(200);
  });

  it('answers 404 for unlinked users and serves the global set', async () => {
    const res = await get('/7tv/v3/users/twitch/999');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status_code: 404, error: 'user not found' });
    const global = await get('/7tv/v3/emote-sets/global');
    expect(global.json<SevenTvSet>().emotes.map((e) => e.name)).toEqual([...sevenTvGlobalNames]);
  });

  it('lets the control hook change a channel set (new set id) and unlink it', async () => {
    const before = (await get('/7tv/v3/users/twitch/123456')).json<SevenTvUser>().emote_set;
    h.ctx.emotes!.setChannelEmotes('7tv', 'twitch', '123456', ['catJAM']);
    const after = (await get('/7tv/v3/users/twitch/123456')).json<SevenTvUser>().emote_set;
    expect(after.id).not.toBe(before.id);
    expect(after.emotes.map((e) => e.name)).toEqual(['catJAM']);
    h.ctx.emotes!.setLinked('7tv', 'twitch', '123456', false);
    expect((await get('/7tv/v3/users/twitch/123456')).statusCode).toBe(404);
  });

  it('serves a PNG of the advertised size from the CDN', async () => {
    const emote = (await get('/7tv/v3/users/twitch/123456')).json<SevenTvUser>().emote_set.emotes[0]!;
    const res = await get(`/7tv-cdn/emote/${emote.id}/2x.webp`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const png = res.rawPayload;
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(56);
    expect(png.readUInt32BE(20)).toBe(56);
    const idatLength = png.readUInt32BE(33);
    expect(inflateSync(png.subarray(41, 41 + idatLength))).toHaveLength((56 * 4 + 1) * 56);
    expect((await get(`/7tv-cdn/emote/${emote.id}/9x.webp`)).statusCode).toBe(404);
  });
});

describe('BetterTTV', () => {
  it('serves channel and shared emotes, 404 for unknown users and kick, and the global list', async () => {
    const res = await get('/bttv/3/cached/users/twitch/123456');
    expect(res.statusCode).toBe(200);
    const body = res.json<BttvUser>();
    expect(body).toMatchObject({ id: matching(/^[0-9a-f]{24}$/), bots: [] });
    const codes = [...body.channelEmotes, ...body.sharedEmotes].map((e) => e.code);
    for (const code of codes) expect(bttvEmoteNames).toContain(code);
    expect(body.channelEmotes[0]).toMatchObject({
      id: anyString,
      code: anyString,
      imageType: matching(/png|gif/),
      animated: anyBoolean,
      userId: body.id,
    });
    expect(body.sharedEmotes[0]!.user).toMatchObject({ name: anyString, displayName: anyString });
    expect((await get('/bttv/3/cached/users/twitch/1')).json()).toEqual({ message: 'user not found' });
    expect((await get('/bttv/3/cached/users/kick/777')).statusCode).toBe(404);
    const global = (await get('/bttv/3/cached/emotes/global')).json<BttvEmote[]>();
    expect(global[0]).toMatchObject({ code: anyString, imageType: anyString });
    const img = await get(`/bttv-cdn/emote/${body.channelEmotes[0]!.id}/3x`);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.readUInt32BE(16)).toBe(84);
  });
});

describe('Twitch emote CDN', () => {
  it('serves a PNG at the static-cdn.jtvnw.net layout for numeric and emotesv2 ids, 404 for anything else', async () => {
    for (const [scale, px] of [
      ['1.0', 28],
      ['2.0', 56],
      ['3.0', 112],
    ] as const) {
      const res = await get(`/twitch-cdn/emoticons/v2/25/default/dark/${scale}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect(res.rawPayload.readUInt32BE(16)).toBe(px);
    }
    expect((await get('/twitch-cdn/emoticons/v2/emotesv2_0123456789abcdef0123456789abcdef/static/light/1.0')).statusCode).toBe(200);
    for (const bad of ['25/default/dark/4.0', '25/gif/dark/1.0', '25/default/blue/1.0', 'Kappa/default/dark/1.0', '25/default/dark']) {
      expect((await get(`/twitch-cdn/emoticons/v2/${bad}`)).statusCode, bad).toBe(404);
    }
  });
});
