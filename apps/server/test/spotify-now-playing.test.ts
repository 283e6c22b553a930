/**
 * Spotify's now playing against the emulator: `!song` typed in Twitch chat is answered with the track the
 * streamer's Spotify plays (through the chat pipeline, the chatbot and the bot's send); the job publishes
 * `spotify.now_playing` on the channel's topic while a platform is live, once per change; a channel without
 * Spotify says so.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@greenroom/platform-emulator';
import type { NowPlaying } from '@greenroom/contracts/api/spotify';
import type { BusEvent } from '@greenroom/contracts/bus';
import { channelProviders } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { NowPlayingJob } from '../src/modules/spotify';
import { scopesFor } from '../src/platforms/scopes';
import { testApps } from './helper';
import { startChatWorld, type ChatWorld } from './chat-world';
import { control, until } from './platform-fixtures';

let world: ChatWorld;

beforeAll(async () => {
  world = await startChatWorld('Spotify now playing');
  const { emulator, t } = world;
  const bot = emulator.world.accountsOf('twitch', 'bot')[0]!;
  const botToken = emulator.world.issueToken({
    platform: 'twitch',
    clientId: testApps.twitch.clientId,
    userId: bot.id,
    scopes: scopesFor.twitch.bot,
    ttlSeconds: 3600,
    refreshable: true,
  });
  await t.s.systemBots.connect(
    'twitch',
    { providerUserId: bot.id, login: bot.login, displayName: bot.displayName, avatarUrl: null },
    {
      accessToken: botToken.accessToken,
      refreshToken: botToken.refreshToken,
      expiresAt: new Date(Date.now() + 3600_000),
      scopes: scopesFor.twitch.bot,
    },
  );
  const listener = emulator.world.accountByLogin('spotify', 'greenroomdemo')!;
  const token = emulator.world.issueToken({
    platform: 'spotify',
    clientId: testApps.spotify.clientId,
    userId: listener.id,
    scopes: scopesFor.spotify.channel,
    ttlSeconds: 3600,
    refreshable: true,
  });
  await t.s.db.insert(channelProviders).values({
    id: newId(),
    channelId: world.channelId,
    provider: 'spotify',
    providerChannelId: listener.id,
    providerChannelName: listener.login,
    accessTokenEnc: t.s.cipher.encrypt(token.accessToken),
    refreshTokenEnc: token.refreshToken ? t.s.cipher.encrypt(token.refreshToken) : null,
    tokenExpiresAt: new Date(Date.now() + 3600_000),
    scopes: scopesFor.spotify.channel,
  });
  await t.s.chatbot.start();
}, 60_000);

afterAll(async () => {
  await world?.close();
});

async function said(): Promise<string[]> {
  const body = await control<{ data: ChatMessage[] }>(
    world.emulator,
    'GET',
    `/messages?platform=twitch&channel=${world.streamer.twitch.id}&origin=product`,
  );
  return body.data.map((m) => m.text);
}

describe('Spotify now playing', () => {
  it('answers !song in chat with the playing track and its link', async () => {
    const res = await world.t.inject(world.owner, { method: 'GET', url: `/api/2/channels/${world.channelId}/spotify/now-playing` });
    expect(res.statusCode).toBe(200);
    const now = res.json<NowPlaying>();
    expect(now.state).toBe('playing');
    if (now.state !== 'playing') return;
    const viewer = await world.newViewer('twitch', 'Listener');
    await world.chat('twitch', '!song', viewer.id);
    await until(async () =>
      (await said()).some((text) => text.startsWith(`Now playing: ${now.track.name} by ${now.track.artists.join(', ')}`)),
    );
    const reply = (await said()).find((text) => text.startsWith('Now playing'))!;
    expect(reply).toContain(now.track.url!);
  });

  it('publishes spotify.now_playing while a platform is live, once per change', async () => {
    const events: BusEvent[] = [];
    const off = world.t.s.bus.subscribe(`channel:${world.channelId}`, (e) => {
      if (e.type === 'spotify.now_playing') events.push(e);
    });
    const job = new NowPlayingJob({ db: world.t.s.db, bus: world.t.s.bus, nowPlaying: world.t.s.spotify.nowPlaying });
    await control(world.emulator, 'POST', `/channels/twitch/${world.streamer.twitch.id}/live`, { live: true, viewerCount: 5 });
    // The connection manager writes the live state to the row from Twitch's status.
    await until(async () => (await job.tick()) === 1, 30_000);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ data: { channel_id: world.channelId, now_playing: { state: 'playing' } } });
    expect(await job.tick()).toBe(0);
    // Every platform offline: the channel is not asked about (a fresh job has nothing to compare with, and says nothing).
    await world.t.s.db.update(channelProviders).set({ isLive: false }).where(eq(channelProviders.channelId, world.channelId));
    const fresh = new NowPlayingJob({ db: world.t.s.db, bus: world.t.s.bus, nowPlaying: world.t.s.spotify.nowPlaying });
    expect(await fresh.tick()).toBe(0);
    expect(events).toHaveLength(1);
    off();
  });

  it('says so for a channel without Spotify', async () => {
    const owner = await world.t.createUser();
    const other = await world.t.s.channels.create(owner.id, 'No music');
    expect(await world.t.s.spotify.nowPlaying.get(other.id)).toEqual({ state: 'not_connected' });
  });
});
