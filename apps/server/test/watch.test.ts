/**
 * The public watch page's API: a channel by a platform channel name in any case, its other platforms with live
 * state, its latest stream; not found for an unknown name or a platform without streams; no sign-in needed.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchChannel } from '@greenroom/contracts/api/watch';
import { channelProviders, statsStreams } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { WatchService } from '../src/modules/watch';
import { createTestApp, type TestApp } from './helper';

let t: TestApp;
let channelId: string;
const cp = {} as Record<'twitch' | 'youtube' | 'kick' | 'spotify', string>;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await t.createUser({ displayName: 'Owner' });
  channelId = (await t.s.channels.create(owner.id, 'Watch channel')).id;
  const rows = [
    { provider: 'twitch', name: 'WatchMe', id: 'tw-1' },
    { provider: 'youtube', name: 'Watch Me TV', id: 'UCwatch' },
    { provider: 'kick', name: 'watchme', id: 'k-1' },
    { provider: 'spotify', name: 'watchme-music', id: 'sp-1' },
  ] as const;
  for (const [i, row] of rows.entries()) {
    cp[row.provider] = newId();
    await t.s.db.insert(channelProviders).values({
      id: cp[row.provider],
      channelId,
      provider: row.provider,
      providerChannelId: row.id,
      providerChannelName: row.name,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
    });
  }
  await t.s.db.update(channelProviders).set({ isLive: true, viewerCount: 42 }).where(eq(channelProviders.id, cp.kick));
  await t.s.db.insert(statsStreams).values([
    {
      id: newId(),
      channelId,
      channelProviderId: cp.twitch,
      provider: 'twitch',
      startedAt: new Date('2026-03-01T18:00:00Z'),
      endedAt: new Date('2026-03-01T21:30:00Z'),
      peakViewers: 310,
    },
    { id: newId(), channelId, channelProviderId: cp.kick, provider: 'kick', startedAt: new Date('2026-03-02T19:00:00Z'), peakViewers: 42 },
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/2/public/watch/{provider}/{providerChannelName}', () => {
  it('finds the channel by name in any case, signed out, with its other streaming platforms and latest stream', async () => {
    const res = await t.inject(null, { method: 'GET', url: '/api/2/public/watch/twitch/watchme' });
    expect(res.statusCode).toBe(200);
    const body = res.json<WatchChannel>();
    expect(body.channel_id).toBe(channelId);
    expect(body.display_name).toBe('Watch channel');
    expect(body.platform).toMatchObject({
      provider: 'twitch',
      provider_channel_name: 'WatchMe',
      is_live: false,
      viewer_count: null,
      live_since: null,
    });
    // Spotify is not a streaming platform: not listed.
    expect(body.others.map((p) => p.provider)).toEqual(['youtube', 'kick']);
    expect(body.others[1]).toMatchObject({ is_live: true, viewer_count: 42, live_since: '2026-03-02T19:00:00.000Z' });
    expect(body.last_stream).toEqual({ provider: 'kick', started_at: '2026-03-02T19:00:00.000Z', ended_at: null, peak_viewers: 42 });
    // Nothing of Greenroom's rows but the channel id (the public chat is read by it).
    expect(JSON.stringify(body)).not.toContain(cp.twitch);
  });

  it('takes a name with spaces (YouTube channel titles)', async () => {
    const res = await t.inject(null, { method: 'GET', url: `/api/2/public/watch/youtube/${encodeURIComponent('watch me tv')}` });
    expect(res.statusCode).toBe(200);
    expect(res.json<WatchChannel>().platform.provider_channel_id).toBe('UCwatch');
  });

  it('answers 404 for an unknown name, and 400 for a platform without streams', async () => {
    const missing = await t.inject(null, { method: 'GET', url: '/api/2/public/watch/kick/nobody-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ type: 'not_found', message: 'No Greenroom channel streams as "nobody-here" on Kick.' });
    const spotify = await t.inject(null, { method: 'GET', url: '/api/2/public/watch/spotify/watchme-music' });
    expect(spotify.statusCode).toBe(400);
    expect(spotify.json<{ type: string }>().type).toBe('validation_error');
  });
});

describe('WatchService titles', () => {
  it('asks each platform for its title once a minute, and answers nulls where a platform fails', async () => {
    const calls: string[] = [];
    let now = 0;
    const watch = new WatchService({
      db: t.s.db,
      now: () => now,
      streamInfo: {
        get: async (target) => {
          calls.push(target.channelProviderId);
          if (target.channelProviderId === cp.youtube) throw new Error('quota');
          return { title: 'Speedruns', category: { id: '1', name: 'Celeste' }, is_live: false, viewer_count: null, live_stream_id: null };
        },
      },
    });
    const first = await watch.find('kick', 'WATCHME');
    expect(first?.platform).toMatchObject({ provider: 'kick', title: 'Speedruns', category: 'Celeste' });
    expect(first?.others.find((p) => p.provider === 'youtube')).toMatchObject({ title: null, category: null });
    expect(calls).toHaveLength(3);
    now = 59_000;
    await watch.find('twitch', 'watchme');
    expect(calls).toHaveLength(3);
    now = 61_000;
    await watch.find('twitch', 'watchme');
    expect(calls).toHaveLength(6);
  });
});
