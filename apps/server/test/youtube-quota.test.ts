/**
 * YouTube API quota: the product charges every call it makes at Google's cost per method, per project and Pacific
 * day, the same count the emulator keeps for the project; the platform page's route shows it, and says when
 * YouTube refuses calls for quota until midnight Pacific time. The day boundary follows Pacific time through
 * daylight saving changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@greenroom/platform-emulator';
import type { YoutubeQuota } from '@greenroom/contracts/api/channel-providers';
import { quotaDay, quotaResetsAt } from '../src/platforms/youtube/youtube-quota';
import { createTestApp, testApps, type TestApp, type TestUser } from './helper';
import { connectChannelProvider, createChannel, providersOf, until } from './platform-fixtures';

describe('the quota day', () => {
  it('is the Pacific date, and ends at the next Pacific midnight (PST and PDT)', () => {
    expect(quotaDay(new Date('2026-01-15T07:59:00Z'))).toBe('2026-01-14');
    expect(quotaDay(new Date('2026-01-15T08:00:00Z'))).toBe('2026-01-15');
    expect(quotaResetsAt(new Date('2026-01-15T12:00:00Z')).toISOString()).toBe('2026-01-16T08:00:00.000Z');
    expect(quotaResetsAt(new Date('2026-07-15T12:00:00Z')).toISOString()).toBe('2026-07-16T07:00:00.000Z');
    // The day daylight saving starts (2026-03-08) and ends (2026-11-01) in Los Angeles.
    expect(quotaResetsAt(new Date('2026-03-07T20:00:00Z')).toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(quotaResetsAt(new Date('2026-03-08T20:00:00Z')).toISOString()).toBe('2026-03-09T07:00:00.000Z');
    expect(quotaResetsAt(new Date('2026-10-31T20:00:00Z')).toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(quotaResetsAt(new Date('2026-11-01T20:00:00Z')).toISOString()).toBe('2026-11-02T08:00:00.000Z');
  });
});

describe('YouTube quota on the platform page', () => {
  let e: Emulator;
  let t: TestApp;
  let owner: TestUser;
  let channelId: string;
  let youtubeId: string;
  let twitchId: string;

  beforeAll(async () => {
    e = await startEmulator({ port: 0, apps: testApps, crowd: false });
    e.ctx.youtube!.pollingIntervalMillis = 200;
    process.env.TWURPLE_MOCK_API_PORT = String(e.port);
    t = await createTestApp({ emulatorOrigin: e.origin, platformOptions: { youtube: { quotaWaitMs: 200 } } });
    owner = await t.createUser();
    channelId = await createChannel(t, owner, 'Quota');
    youtubeId = await connectChannelProvider(t, e, owner, channelId, 'youtube', 'greenroomdemo');
    twitchId = await connectChannelProvider(t, e, owner, channelId, 'twitch', 'greenroomdemo');
  });

  afterAll(async () => {
    await t?.close();
    await e?.close();
    delete process.env.TWURPLE_MOCK_API_PORT;
  });

  const quota = async (cp = youtubeId) =>
    t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/providers/${cp}/youtube-quota` });

  const send = (text: string) =>
    t.inject(owner, {
      method: 'POST',
      url: `/api/2/channels/${channelId}/chat/messages`,
      payload: { text, channel_provider_ids: [youtubeId] },
    });

  it('counts what every call cost, and says when YouTube refuses calls for quota until midnight Pacific', async () => {
    const yt = e.ctx.youtube!;
    // Polling has begun: liveBroadcasts.list (1) then liveChatMessages.list (5 each).
    await until(async () => (await quota()).json<YoutubeQuota>().used >= 11);
    expect((await send('quota check')).statusCode).toBe(200);
    const before = (await quota()).json<YoutubeQuota>();
    expect(before).toMatchObject({ limit: 10_000, exhausted: false, day: quotaDay(new Date()) });
    expect(Date.parse(before.resets_at)).toBe(quotaResetsAt(new Date()).getTime());

    yt.setQuotaUsed(testApps.youtube.clientId, yt.quotaLimit - 10);
    await send('over the quota');
    await until(async () => (await quota()).json<YoutubeQuota>().exhausted);
    await until(async () => (await providersOf(t, owner, channelId)).find((p) => p.id === youtubeId)?.health?.state === 'error');
  });

  it('keeps the count YouTube keeps for the project', async () => {
    const yt = e.ctx.youtube!;
    yt.resetQuota();
    const start = (await quota()).json<YoutubeQuota>().used;
    await until(async () => (await quota()).json<YoutubeQuota>().used >= start + 20);
    expect((await send('counted')).statusCode).toBe(200);
    // Stop polling, then compare.
    await t.s.connections.close();
    await t.s.youtubeQuota.settled();
    expect((await quota()).json<YoutubeQuota>().used - start).toBe(yt.quotaUsed(testApps.youtube.clientId));
  });

  it('answers 404 for a connection that is not YouTube, and refuses strangers', async () => {
    expect((await quota(twitchId)).statusCode).toBe(404);
    const stranger = await t.createUser();
    const res = await t.inject(stranger, { method: 'GET', url: `/api/2/channels/${channelId}/providers/${youtubeId}/youtube-quota` });
    expect(res.statusCode).toBe(404);
  });
});
