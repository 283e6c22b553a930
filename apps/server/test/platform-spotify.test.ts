import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Account, type Emulator } from '@greenroom/platform-emulator';
import { createSpotifyAdapter } from '../src/platforms/spotify/spotify-adapter';
import { spotifyTrackUri } from '../src/platforms/spotify/spotify-client';
import { scopesFor } from '../src/platforms/scopes';
import { createTestApp, testApps, type TestApp } from './helper';
import { httpErrorOf, actionsSince, control, EmulatorTokenSource, lastActionSeq, recordingContext } from './platform-fixtures';

describe('Spotify client and adapter against the emulator', () => {
  let emulator: Emulator;
  let t: TestApp;
  let premium: Account;
  let free: Account;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
    t = await createTestApp({ emulatorOrigin: emulator.origin });
    premium = emulator.world.accountByLogin('spotify', 'greenroomdemo')!;
    free = emulator.world.accountByLogin('spotify', 'freelistener')!;
  });

  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  it('has no live connection and no chat, moderation or stream facet', async () => {
    const adapter = createSpotifyAdapter({ endpoints: t.endpoints.spotify });
    const token = new EmulatorTokenSource('spotify', premium.id, scopesFor.spotify.channel, t.endpoints, emulator);
    const rec = recordingContext({
      provider: 'spotify',
      providerChannelId: premium.id,
      providerChannelName: premium.login,
      broadcaster: token,
    });
    expect(adapter.connect(rec.ctx)).toBeNull();
    expect(adapter.actions(rec.ctx)).toEqual({});
  });

  it('reads now playing and the queue, searches and queues a track (refreshing an expired token)', async () => {
    const { client } = createSpotifyAdapter({ endpoints: t.endpoints.spotify });
    const token = new EmulatorTokenSource('spotify', premium.id, scopesFor.spotify.channel, t.endpoints, emulator);
    const playing = await client.nowPlaying(token);
    expect(playing?.track.uri).toMatch(/^spotify:track:/);
    const [found] = await client.searchTracks(token, playing!.track.name, 3);
    expect(found).toBeTruthy();
    await control(emulator, 'POST', '/tokens/expire', { platform: 'spotify', token: token.access });
    const seq = await lastActionSeq(emulator);
    await client.addToQueue(token, `https://open.spotify.com/track/${found!.id}?si=abc`);
    expect(token.refreshes).toBe(1);
    const [queued] = (await actionsSince(emulator, 'spotify', seq)).filter((a) => a.type === 'spotify.queue');
    expect(queued!.data.uri).toBe(found!.uri);
    const queue = await client.queue(token);
    expect(queue.queue[0]?.uri).toBe(found!.uri);
  });

  it('explains Premium and active-device requirements with 422s', async () => {
    const { client } = createSpotifyAdapter({ endpoints: t.endpoints.spotify });
    const freeToken = new EmulatorTokenSource('spotify', free.id, scopesFor.spotify.channel, t.endpoints, emulator);
    const track = (await client.searchTracks(freeToken, 'a', 1))[0]!;
    expect(await httpErrorOf(client.addToQueue(freeToken, track.uri))).toMatchObject({
      status: 422,
      message: expect.stringMatching(/Premium/) as unknown,
    });
    const token = new EmulatorTokenSource('spotify', premium.id, scopesFor.spotify.channel, t.endpoints, emulator);
    emulator.ctx.spotify!.setDevice(premium.id, false);
    try {
      expect(await httpErrorOf(client.addToQueue(token, track.uri))).toMatchObject({
        status: 422,
        message: expect.stringMatching(/no active device/) as unknown,
      });
      expect(await client.nowPlaying(token)).toBeNull();
    } finally {
      emulator.ctx.spotify!.setDevice(premium.id, true);
    }
    await expect(client.addToQueue(token, 'not a track')).rejects.toMatchObject({ status: 400 });
    const narrow = new EmulatorTokenSource('spotify', premium.id, ['user-read-email'], t.endpoints, emulator);
    await expect(client.nowPlaying(narrow)).rejects.toThrow(/missing scope/);
  });

  it('recognises track URIs, links and ids', () => {
    const id = '4uLU6hMCjMI75M1A2tKUQC';
    expect(spotifyTrackUri(`spotify:track:${id}`)).toBe(`spotify:track:${id}`);
    expect(spotifyTrackUri(`https://open.spotify.com/intl-de/track/${id}?si=x`)).toBe(`spotify:track:${id}`);
    expect(spotifyTrackUri(id)).toBe(`spotify:track:${id}`);
    expect(spotifyTrackUri('never gonna')).toBeNull();
  });
});
