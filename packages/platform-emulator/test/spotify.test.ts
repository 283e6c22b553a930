import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spotifyPlugin } from '../src/spotify/plugin';
import { account, anyNumber, matching, startHarness, token, type Harness } from './plugin-harness';

let h: Harness;
let premiumToken: string;
const scopes = [
  'user-read-private',
  'user-read-email',
  'user-read-currently-playing',
  'user-read-playback-state',
  'user-modify-playback-state',
];

beforeEach(async () => {
  h = await startHarness(spotifyPlugin);
  account(h.world, 'spotify', 'premiumuser', 'premiumuser', 'streamer', { premium: true });
  account(h.world, 'spotify', 'freeuser', 'freeuser', 'streamer', { premium: false });
  premiumToken = token(h.world, 'spotify', 'premiumuser', scopes);
});

afterEach(async () => {
  await h.close();
});

const call = (method: 'GET' | 'POST', url: string, bearer: string | null = premiumToken) =>
  h.app.inject({ method, url: `/spotify/v1${url}`, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

async function firstTrackUri(query: string): Promise<string> {
  const res = await call('GET', `/search?q=${encodeURIComponent(query)}&type=track&limit=5`);
  return res.json<{ tracks: { items: { uri: string }[] } }>().tracks.items[0]!.uri;
}

describe('Spotify', () => {
  it('identifies the user with product per scope', async () => {
    const res = await call('GET', '/me');
    expect(res.json()).toMatchObject({
      id: 'premiumuser',
      display_name: 'Premiumuser',
      product: 'premium',
      email: 'premiumuser@example.test',
      type: 'user',
      uri: 'spotify:user:premiumuser',
    });
    const bad = await call('GET', '/me', 'nope');
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ error: { status: 401, message: 'Invalid access token' } });
  });

  it('searches tracks with paging fields', async () => {
    const res = await call('GET', '/search?q=speedrun&type=track');
    const tracks = res.json<{ tracks: unknown }>().tracks;
    expect(tracks).toMatchObject({
      total: 1,
      offset: 0,
      limit: 20,
      next: null,
      items: [{ name: 'Speedrun', type: 'track', uri: matching(/^spotify:track:[0-9A-Za-z]{22}$/), artists: [{ name: 'Turbo Kids' }] }],
    });
    expect((await call('GET', '/search?type=track')).statusCode).toBe(400);
  });

  it('shows what is playing, adds to the queue and shows it, and records the request', async () => {
    const now = await call('GET', '/me/player/currently-playing');
    expect(now.statusCode).toBe(200);
    expect(now.json()).toMatchObject({
      is_playing: true,
      currently_playing_type: 'track',
      item: { type: 'track' },
      progress_ms: anyNumber,
    });
    const uri = await firstTrackUri('cozy rain');
    const add = await call('POST', `/me/player/queue?uri=${encodeURIComponent(uri)}`);
    expect(add.statusCode).toBe(204);
    const queue = (await call('GET', '/me/player/queue')).json<{ queue: { uri: string }[]; currently_playing: { uri: string } }>();
    expect(queue.queue[0]!.uri).toBe(uri);
    expect(queue.currently_playing.uri).toBe(now.json<{ item: { uri: string } }>().item.uri);
    expect(h.world.actions.at(-1)).toMatchObject({
      platform: 'spotify',
      type: 'spotify.queue',
      actorId: 'premiumuser',
      data: { uri, name: 'Cozy Rain' },
    });
  });

  it('answers PREMIUM_REQUIRED for free users and NO_ACTIVE_DEVICE without a device', async () => {
    const uri = await firstTrackUri('respawn');
    const free = await call('POST', `/me/player/queue?uri=${encodeURIComponent(uri)}`, token(h.world, 'spotify', 'freeuser', scopes));
    expect(free.statusCode).toBe(403);
    expect(free.json()).toEqual({ error: { status: 403, message: 'Player command failed: Premium required', reason: 'PREMIUM_REQUIRED' } });

    h.ctx.spotify!.setDevice('premiumuser', false);
    const noDevice = await call('POST', `/me/player/queue?uri=${encodeURIComponent(uri)}`);
    expect(noDevice.statusCode).toBe(404);
    expect(noDevice.json<{ error: { reason: string } }>().error.reason).toBe('NO_ACTIVE_DEVICE');
    expect((await call('GET', '/me/player/currently-playing')).statusCode).toBe(204);
  });

  it('requires the playback scope to queue', async () => {
    const readOnly = token(h.world, 'spotify', 'premiumuser', ['user-read-currently-playing']);
    const res = await call('POST', `/me/player/queue?uri=${encodeURIComponent(await firstTrackUri('clip'))}`, readOnly);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: { status: 403, message: 'Insufficient client scope' } });
  });

  it('lets tests drive a player as its user would: next track (the queue first), pause, close the app', async () => {
    const control = (body: unknown) =>
      h.app.inject({ method: 'POST', url: '/_emulator/spotify/premiumuser/player', payload: body as object });
    const item = async () => (await call('GET', '/me/player/currently-playing')).json<{ item: { uri: string }; is_playing: boolean }>();
    const first = await item();
    const queued = await firstTrackUri('speedrun');
    await call('POST', `/me/player/queue?uri=${encodeURIComponent(queued)}`);
    const skipped = await control({ skip: true });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json()).toMatchObject({ device: true, playing: true, track: { name: 'Speedrun', artist: 'Turbo Kids' } });
    expect((await item()).item.uri).toBe(queued);
    expect((await control({ skip: true })).json<{ track: { id: string } }>().track.id).not.toBe(queued.split(':')[2]);
    expect(first.item.uri).not.toBe((await item()).item.uri);

    await control({ playing: false });
    expect((await item()).is_playing).toBe(false);
    await control({ device: false });
    expect((await call('GET', '/me/player/currently-playing')).statusCode).toBe(204);

    expect((await control({ skip: 'yes' })).statusCode).toBe(400);
    expect((await h.app.inject({ method: 'POST', url: '/_emulator/spotify/nobody/player', payload: {} })).statusCode).toBe(404);
  });

  it('skips to the next track: the queue first, then autoplay; Premium and an active device like every player command', async () => {
    const uri = await firstTrackUri('raid train');
    expect((await call('POST', `/me/player/queue?uri=${encodeURIComponent(uri)}`)).statusCode).toBe(204);
    expect((await call('POST', '/me/player/next')).statusCode).toBe(204);
    const now = await call('GET', '/me/player/currently-playing');
    expect(now.json()).toMatchObject({ item: { uri }, is_playing: true });
    expect(now.json<{ progress_ms: number }>().progress_ms).toBeLessThan(5_000);
    expect(h.ctx.spotify!.queue('premiumuser')).toEqual([]);
    expect((await call('POST', '/me/player/next')).statusCode).toBe(204);
    expect((await call('GET', '/me/player/currently-playing')).json<{ item: { uri: string } }>().item.uri).not.toBe(uri);

    const free = await call('POST', '/me/player/next', token(h.world, 'spotify', 'freeuser', scopes));
    expect(free.json()).toEqual({ error: { status: 403, message: 'Player command failed: Premium required', reason: 'PREMIUM_REQUIRED' } });
    h.ctx.spotify!.setDevice('premiumuser', false);
    const noDevice = await call('POST', '/me/player/next');
    expect(noDevice.statusCode).toBe(404);
    expect(noDevice.json<{ error: { reason: string } }>().error.reason).toBe('NO_ACTIVE_DEVICE');
    const readOnly = token(h.world, 'spotify', 'premiumuser', ['user-read-currently-playing']);
    expect((await call('POST', '/me/player/next', readOnly)).statusCode).toBe(403);
  });
});
