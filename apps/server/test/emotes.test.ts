import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import { bttvChannelDefault, bttvGlobalNames, sevenTvChannelDefault, sevenTvGlobalNames } from '@greenroom/platform-emulator/emotes/sets';
import type { ChatEmote } from '@greenroom/contracts/api/events';
import type { ChannelEmotes } from '@greenroom/contracts/api/emotes';
import { channelProviders } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { defaultBttvCdn, EmoteService, type EmoteChannel } from '../src/platforms/emotes/emote-service';
import { createTestApp, testApps, type TestApp } from './helper';

describe('EmoteService (7TV + BTTV) against the emulator', () => {
  let emulator: Emulator;
  let t: TestApp;
  let twitch: EmoteChannel;
  let kick: EmoteChannel;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
    t = await createTestApp({ emulatorOrigin: emulator.origin });
    twitch = { provider: 'twitch', providerChannelId: emulator.world.accountByLogin('twitch', 'greenroomdemo')!.id };
    kick = { provider: 'kick', providerChannelId: emulator.world.accountByLogin('kick', 'greenroomdemo')!.id };
  });

  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  const service = (ttlMs = 600_000) =>
    new EmoteService({ sevenTvApiUrl: t.endpoints.sevenTv.apiUrl, bttvApiUrl: t.endpoints.bttv.apiUrl, ttlMs });

  it('annotates 7TV and BTTV channel and global emotes with exact, case-sensitive positions', async () => {
    const emotes = service();
    const seven = sevenTvChannelDefault[0]!;
    const bttv = bttvChannelDefault[0]!;
    const text = `hi ${seven} ${seven.toLowerCase()} ${bttv}  ${sevenTvGlobalNames[0]!} ${bttvGlobalNames[0]!}!`;
    // A miss answers from what is cached (nothing yet) and starts the load.
    expect(emotes.annotate(twitch, text, [])).toEqual([]);
    await emotes.ensureChannel(twitch);
    await emotes.ensureGlobals();
    const found = emotes.annotate(twitch, text, []);
    const at = (name: string) => text.indexOf(name);
    expect(found.map((e) => [e.name, e.source, e.start, e.end])).toEqual([
      [seven, '7tv', at(seven), at(seven) + seven.length],
      [bttv, 'betterttv', at(` ${bttv}`) + 1, at(` ${bttv}`) + 1 + bttv.length],
      [
        sevenTvGlobalNames[0]!,
        '7tv',
        at(` ${sevenTvGlobalNames[0]!} `) + 1,
        at(` ${sevenTvGlobalNames[0]!} `) + 1 + sevenTvGlobalNames[0]!.length,
      ],
    ]);
    // "FeelsGoodMan!" is not the word "FeelsGoodMan": words match whole.
    expect(found.some((e) => e.name === bttvGlobalNames[0])).toBe(false);
  });

  it('keeps platform emotes and skips ranges they cover; uses http URLs for the http emulator that serve images', async () => {
    const emotes = service();
    await emotes.ensureChannel(twitch);
    const seven = sevenTvChannelDefault[1]!;
    const text = `${seven} and ${seven}`;
    const platform: ChatEmote = { start: 0, end: seven.length, name: seven, id: 'p1', source: 'platform', url: 'https://example/p1' };
    const found = emotes.annotate(twitch, text, [platform]);
    expect(found).toHaveLength(2);
    expect(found[0]).toBe(platform);
    expect(found[1]).toMatchObject({ start: text.lastIndexOf(seven), source: '7tv' });
    expect(found[1]!.url.startsWith('http://127.0.0.1:')).toBe(true);
    const image = await fetch(found[1]!.url);
    expect(image.status).toBe(200);
    await image.body?.cancel();
  });

  it('serves Kick channels from 7TV only (BTTV has no Kick), and unlinked channels from the globals', async () => {
    const emotes = service();
    await emotes.ensureChannel(kick);
    const list = await emotes.channelEmotes(kick);
    expect(list.every((e) => e.source === '7tv')).toBe(true);
    expect(list.length).toBe(sevenTvChannelDefault.length);
    emulator.ctx.emotes!.setLinked('7tv', 'twitch', twitch.providerChannelId, false);
    emulator.ctx.emotes!.setLinked('bttv', 'twitch', twitch.providerChannelId, false);
    try {
      expect(await emotes.channelEmotes(twitch)).toEqual([]);
      expect((await emotes.globalEmotes()).length).toBe(sevenTvGlobalNames.length + bttvGlobalNames.length);
    } finally {
      emulator.ctx.emotes!.setLinked('7tv', 'twitch', twitch.providerChannelId, true);
      emulator.ctx.emotes!.setLinked('bttv', 'twitch', twitch.providerChannelId, true);
    }
  });

  it('refreshes a stale set in the background while still answering from the cache', async () => {
    const emotes = service(100);
    await emotes.ensureChannel(kick);
    const old = sevenTvChannelDefault[2]!;
    expect(emotes.annotate(kick, old, [])).toHaveLength(1);
    emulator.ctx.emotes!.setChannelEmotes('7tv', 'kick', kick.providerChannelId, ['BrandNewEmote']);
    try {
      await new Promise((r) => setTimeout(r, 150));
      // Stale: the old set still answers, and a reload starts.
      expect(emotes.annotate(kick, old, [])).toHaveLength(1);
      await emotes.ensureChannel(kick);
      expect(emotes.annotate(kick, `${old} BrandNewEmote`, []).map((e) => e.name)).toEqual(['BrandNewEmote']);
    } finally {
      emulator.ctx.emotes!.setChannelEmotes('7tv', 'kick', kick.providerChannelId, null);
    }
  });

  it('derives BTTV CDN URLs for the real API and the emulator', () => {
    expect(defaultBttvCdn('https://api.betterttv.net/3')).toBe('https://cdn.betterttv.net');
    expect(defaultBttvCdn('http://127.0.0.1:4000/bttv/3')).toBe('http://127.0.0.1:4000/bttv-cdn');
  });

  it('GET /api/2/channels/{id}/emotes lists the channel emotes then the globals, for moderators only', async () => {
    const owner = await t.createUser();
    const created = await t.inject(owner, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'Emote channel' } });
    const channelId = created.json<{ id: string }>().id;
    await t.s.db.insert(channelProviders).values({
      id: newId(),
      channelId,
      provider: 'twitch',
      providerChannelId: twitch.providerChannelId,
      providerChannelName: 'greenroomdemo',
    });
    const res = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/emotes` });
    expect(res.statusCode).toBe(200);
    const body = res.json<ChannelEmotes>();
    const channelNames = body.emotes.filter((e) => e.scope === 'channel').map((e) => e.name);
    expect(channelNames).toContain(sevenTvChannelDefault[0]);
    expect(channelNames).toContain(bttvChannelDefault[0]);
    expect(
      body.emotes
        .filter((e) => e.scope === 'global')
        .map((e) => e.name)
        .sort(),
    ).toEqual([...sevenTvGlobalNames, ...bttvGlobalNames].sort());
    expect(body.emotes.find((e) => e.name === sevenTvChannelDefault[0])).toMatchObject({ source: '7tv', provider: 'twitch' });
    const stranger = await t.createUser();
    expect((await t.inject(stranger, { method: 'GET', url: `/api/2/channels/${channelId}/emotes` })).statusCode).toBe(404);
  });
});
