import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Account, type Emulator } from '@greenroom/platform-emulator';
import { createYoutubeAdapter, YOUTUBE_WAITING_DETAIL } from '../src/platforms/youtube/youtube-adapter';
import { YoutubeClient } from '../src/platforms/youtube/youtube-client';
import { scopesFor } from '../src/platforms/scopes';
import type { LiveConnection, PlatformAdapter } from '../src/platforms/port';
import { createTestApp, testApps, type TestApp } from './helper';
import {
  httpErrorOf,
  actionsSince,
  connectChannelProvider,
  control,
  createChannel,
  EmulatorTokenSource,
  lastActionSeq,
  MemoryBanStore,
  providersOf,
  providersSocket,
  recordingContext,
  until,
  type RecordingContext,
  chats,
} from './platform-fixtures';

describe('YouTube adapter against the emulator', () => {
  let emulator: Emulator;
  let t: TestApp;
  let adapter: PlatformAdapter;
  let streamer: Account;
  let viewers: Account[];
  let broadcaster: EmulatorTokenSource;
  let rec: RecordingContext;
  let connection: LiveConnection;
  const bans = new MemoryBanStore();

  const fast = { offlinePoll: { baseMs: 50, maxMs: 100 }, backoff: { baseMs: 50, maxMs: 100 }, quotaWaitMs: 200 };
  const chat = (text: string, user: string) =>
    control<{ id: string }>(emulator, 'POST', '/chat', { platform: 'youtube', channel: streamer.id, user, text });

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
    emulator.ctx.youtube!.pollingIntervalMillis = 50;
    t = await createTestApp({ emulatorOrigin: emulator.origin });
    streamer = emulator.world.accountByLogin('youtube', 'greenroomdemo')!;
    viewers = emulator.world.accountsOf('youtube', 'viewer');
    broadcaster = new EmulatorTokenSource('youtube', streamer.id, scopesFor.youtube.channel, t.endpoints, emulator);
    adapter = createYoutubeAdapter({ endpoints: t.endpoints.youtube, ...fast });
    rec = recordingContext({ provider: 'youtube', providerChannelId: streamer.id, providerChannelName: streamer.login, broadcaster, bans });
    connection = adapter.connect(rec.ctx)!;
    await rec.waitFor(() => rec.lastHealth() === 'connected');
  });

  afterAll(async () => {
    await connection?.close();
    await t?.close();
    await emulator?.close();
  });

  it('finds the live chat, keeps the video id as live_stream_id and reads chat with roles', async () => {
    expect(rec.ctx.state.videoId).toBe(emulator.ctx.youtube!.broadcastOf(streamer.id)!.videoId);
    expect(rec.events.find((e) => e.kind === 'stream')).toMatchObject({ status: { is_live: true } });
    const sent = await chat('hello @GreenroomDemo', viewers[0]!.id);
    const msg = await rec.waitFor(() => chats(rec.events).find((m) => m.provider_message_id === sent.id));
    expect(msg).toMatchObject({ text: 'hello @GreenroomDemo', mentions: ['greenroomdemo'], reply: null, emotes: [] });
    expect(msg.author).toMatchObject({ provider_user_id: viewers[0]!.id, display_name: viewers[0]!.displayName });
    const own = await chat('owner speaking', streamer.id);
    const ownMsg = await rec.waitFor(() => chats(rec.events).find((m) => m.provider_message_id === own.id));
    expect(ownMsg.author.roles.broadcaster).toBe(true);
  });

  it('maps Super Chats, stickers, memberships, milestones and gifted memberships', async () => {
    const before = rec.events.length;
    const v = viewers[1]!.id;
    await control(emulator, 'POST', '/events', {
      platform: 'youtube',
      channel: streamer.id,
      type: 'superchat',
      user: v,
      data: { amount: 5, currency: 'USD', message: 'great stream' },
    });
    await control(emulator, 'POST', '/events', {
      platform: 'youtube',
      channel: streamer.id,
      type: 'supersticker',
      user: v,
      data: { amount: 2 },
    });
    await control(emulator, 'POST', '/events', {
      platform: 'youtube',
      channel: streamer.id,
      type: 'membership',
      user: v,
      data: { months: 1, level: 'Fan' },
    });
    await control(emulator, 'POST', '/events', {
      platform: 'youtube',
      channel: streamer.id,
      type: 'membership',
      user: v,
      data: { months: 6, level: 'Fan', message: 'half a year!' },
    });
    await control(emulator, 'POST', '/events', {
      platform: 'youtube',
      channel: streamer.id,
      type: 'membership_gift',
      user: v,
      data: { count: 2, recipientIds: [viewers[2]!.id, viewers[3]!.id] },
    });
    const activities = await rec.waitFor(() => {
      const list = rec.events.slice(before).flatMap((e) => (e.kind === 'activity' ? [e.activity] : []));
      return list.length >= 7 ? list : null;
    });
    expect(activities.map((a) => a.type)).toEqual([
      'superchat',
      'supersticker',
      'membership',
      'membership',
      'membership_gift',
      'membership_gift_received',
      'membership_gift_received',
    ]);
    expect(activities[0]).toMatchObject({ amount: '$5.00', message: 'great stream', viewer: { provider_user_id: v } });
    expect(activities[3]).toMatchObject({ months: 6, tier: 'Fan' });
    expect(activities[4]).toMatchObject({ count: 2 });
    expect(activities[5]!.viewer!.provider_user_id).toBe(viewers[2]!.id);
    // Two memberships given, counted once: by the gift, not again as memberships of their own.
    const memberships = activities.filter((a) => a.type === 'membership').length;
    const gifted = activities.filter((a) => a.type === 'membership_gift').reduce((n, a) => n + (a.count ?? 0), 0);
    expect([memberships, gifted]).toEqual([2, 2]);
    expect(activities.filter((a) => a.type === 'membership_gift_received').map((a) => a.viewer!.provider_user_id)).toEqual([
      viewers[2]!.id,
      viewers[3]!.id,
    ]);
    // The Super Chat comment is also a highlighted chat message.
    expect(chats(rec.events.slice(before)).find((m) => m.text === 'great stream')?.highlight).toBe('$5.00');
  });

  it('resumes from the saved page token after a restart without losing or repeating messages', async () => {
    await connection.close();
    const saved = { ...rec.ctx.state };
    const missed: string[] = [];
    for (let i = 0; i < 25; i++) missed.push((await chat(`while down ${i}`, viewers[i % 5]!.id)).id);
    const again = recordingContext({
      provider: 'youtube',
      providerChannelId: streamer.id,
      providerChannelName: streamer.login,
      broadcaster,
      bans,
      state: saved,
    });
    connection = adapter.connect(again.ctx)!;
    await again.waitFor(() => missed.every((id) => chats(again.events).some((m) => m.provider_message_id === id)));
    const ids = chats(again.events).map((m) => m.provider_message_id);
    expect(ids).toEqual(missed); // exactly the missed messages, in order, nothing older
    rec = again;
  });

  it('sends (≤ 200 characters, no replies) as the broadcaster and as the bot account', async () => {
    const actions = adapter.actions(rec.ctx);
    const seq = await lastActionSeq(emulator);
    const sent = await actions.chat!.sendMessage({ text: 'hi from Greenroom', as: 'broadcaster' });
    expect(sent.providerMessageId).toMatch(/^LCC\./);
    await expect(
      actions.chat!.sendMessage({ text: 'x', as: 'broadcaster', replyToProviderMessageId: sent.providerMessageId! }),
    ).rejects.toMatchObject({ status: 422, type: 'unsupported' });
    await expect(actions.chat!.sendMessage({ text: 'x'.repeat(201), as: 'broadcaster' })).rejects.toMatchObject({ status: 400 });
    // Without a bot account "as bot" is refused, never sent as the streamer.
    await expect(actions.chat!.sendMessage({ text: 'not as the streamer', as: 'bot' })).rejects.toMatchObject({
      status: 422,
      message: 'No bot account is connected for this YouTube channel.',
    });
    const botAccount = emulator.world.accountsOf('youtube', 'bot')[0]!;
    const bot = new EmulatorTokenSource('youtube', botAccount.id, scopesFor.youtube.bot, t.endpoints, emulator);
    const withBot = recordingContext({
      provider: 'youtube',
      providerChannelId: streamer.id,
      providerChannelName: streamer.login,
      broadcaster,
      bot,
      state: rec.ctx.state,
    });
    await adapter.actions(withBot.ctx).chat!.sendMessage({ text: 'bot says hi', as: 'bot' });
    const sends = (await actionsSince(emulator, 'youtube', seq)).filter((a) => a.type === 'chat.send');
    expect(sends.map((a) => [a.actorId, a.data.text])).toEqual([
      [streamer.id, 'hi from Greenroom'],
      [botAccount.id, 'bot says hi'],
    ]);
  });

  it('bans and times out without a reason, keeps the ban id and unbans with it', async () => {
    const actions = adapter.actions(rec.ctx);
    const target = viewers[6]!.id;
    await expect(actions.moderation!.ban({ providerViewerId: target, reason: 'spam' })).rejects.toMatchObject({
      status: 422,
      type: 'unsupported',
    });
    await expect(actions.moderation!.unban({ providerViewerId: target })).rejects.toMatchObject({ status: 422 });
    const seq = await lastActionSeq(emulator);
    await actions.moderation!.ban({ providerViewerId: target, durationSeconds: 600 });
    const banId = bans.bans.get(target);
    expect(banId).toBeTruthy();
    await actions.moderation!.unban({ providerViewerId: target });
    expect(bans.bans.has(target)).toBe(false);
    await actions.moderation!.ban({ providerViewerId: target });
    await actions.moderation!.unban({ providerViewerId: target });
    const done = (await actionsSince(emulator, 'youtube', seq)).filter((a) => ['ban', 'timeout', 'unban'].includes(a.type));
    expect(done.map((a) => a.type)).toEqual(['timeout', 'unban', 'ban', 'unban']);
    expect(done[0]!.data).toMatchObject({ userId: target, durationSeconds: 600, banId });
    expect(done[1]!.data).toMatchObject({ banId });
    await expect(actions.moderation!.ban({ providerViewerId: target, durationSeconds: 86_401 })).rejects.toMatchObject({ status: 400 });
    // The ban notice comes back through the chat as a moderation event.
    await rec.waitFor(() =>
      rec.events.some(
        (e) =>
          e.kind === 'moderation' &&
          e.event.kind === 'timeout' &&
          e.event.target?.provider_user_id === target &&
          e.event.duration_seconds !== null,
      ),
    );
  });

  it('deletes a viewer message, refuses a moderator one with a clear error', async () => {
    const actions = adapter.actions(rec.ctx);
    const mine = await chat('delete me', viewers[7]!.id);
    await actions.moderation!.deleteMessage({ providerMessageId: mine.id });
    await rec.waitFor(() =>
      rec.events.some((e) => e.kind === 'moderation' && e.event.kind === 'delete' && e.event.provider_message_id === mine.id),
    );
    const mod = viewers[8]!.id;
    emulator.world.channel('youtube', streamer.id)!.moderators.add(mod);
    const modMessage = await chat('moderator message', mod);
    // The platform refusing (YouTube's 403 modificationNotAllowed) is a 422 `provider_refused`.
    expect(await httpErrorOf(actions.moderation!.deleteMessage({ providerMessageId: modMessage.id }))).toMatchObject({
      status: 422,
      type: 'provider_refused',
      message: expect.stringMatching(/owner or its moderators/) as unknown,
    });
  });

  it('updates the title (≤ 100, no < >) and category keeping the rest of the snippet', async () => {
    const actions = adapter.actions(rec.ctx);
    const videoId = rec.ctx.state.videoId as string;
    const client = new YoutubeClient({ apiUrl: t.endpoints.youtube.apiUrl });
    await client.updateVideoSnippet(broadcaster, videoId, {
      title: 'Before',
      categoryId: '22',
      description: 'My description',
      tags: ['speedrun', 'retro'],
    });
    const found = await actions.streamInfo!.searchCategories('gam');
    expect(found).toContainEqual({ id: '20', name: 'Gaming', imageUrl: null });
    const seq = await lastActionSeq(emulator);
    await actions.streamInfo!.update({ title: 'Speedrun day', categoryId: '20' });
    const [update] = (await actionsSince(emulator, 'youtube', seq)).filter((a) => a.type === 'video.update');
    expect(update!.data.snippet).toMatchObject({
      title: 'Speedrun day',
      categoryId: '20',
      description: 'My description',
      tags: ['speedrun', 'retro'],
    });
    expect(await actions.streamInfo!.get()).toMatchObject({
      title: 'Speedrun day',
      category: { id: '20', name: 'Gaming' },
      isLive: true,
      liveStreamId: videoId,
    });
    await expect(actions.streamInfo!.update({ title: 'x'.repeat(101) })).rejects.toMatchObject({ status: 400 });
    await expect(actions.streamInfo!.update({ title: 'a <b> title' })).rejects.toMatchObject({ status: 400 });
    await actions.streamInfo!.update({ title: 'y'.repeat(100) });
  });

  it('refreshes an expired token once and succeeds', async () => {
    const before = broadcaster.refreshes;
    await control(emulator, 'POST', '/tokens/expire', { platform: 'youtube', token: broadcaster.access });
    await adapter.actions(rec.ctx).chat!.sendMessage({ text: 'after refresh', as: 'broadcaster' });
    expect(broadcaster.refreshes).toBeGreaterThan(before);
  });

  it('reports quota exhaustion as an error with a clear detail and recovers after the reset', async () => {
    const yt = emulator.ctx.youtube!;
    yt.setQuotaUsed(testApps.youtube.clientId, yt.quotaLimit);
    await rec.waitFor(() => rec.health.at(-1)?.state === 'error' && /quota/.test(rec.health.at(-1)?.detail ?? ''));
    expect(await httpErrorOf(adapter.actions(rec.ctx).chat!.sendMessage({ text: 'x', as: 'broadcaster' }))).toMatchObject({
      status: 429,
      type: 'rate_limited',
    });
    yt.resetQuota();
    await rec.waitFor(() => rec.lastHealth() === 'connected');
  });

  it('waits for a live broadcast while offline and picks it up when the stream starts ("Stream now", then a scheduled event)', async () => {
    const offline = emulator.world.accountByLogin('youtube', 'retrorunner')!;
    const token = new EmulatorTokenSource('youtube', offline.id, scopesFor.youtube.channel, t.endpoints, emulator);
    const r = recordingContext({
      provider: 'youtube',
      providerChannelId: offline.id,
      providerChannelName: offline.login,
      broadcaster: token,
    });
    const conn = adapter.connect(r.ctx)!;
    try {
      await r.waitFor(() => r.health.some((h) => h.state === 'offline' && h.detail === YOUTUBE_WAITING_DETAIL));
      await expect(adapter.actions(r.ctx).chat!.sendMessage({ text: 'x', as: 'broadcaster' })).rejects.toMatchObject({ status: 409 });
      await control(emulator, 'POST', `/channels/youtube/${offline.id}/live`, { live: true });
      await r.waitFor(() => r.lastHealth() === 'connected');
      const m = await control<{ id: string }>(emulator, 'POST', '/chat', {
        platform: 'youtube',
        channel: offline.id,
        user: viewers[0]!.id,
        text: 'first!',
      });
      await r.waitFor(() => chats(r.events).some((x) => x.provider_message_id === m.id));
      await control(emulator, 'POST', `/channels/youtube/${offline.id}/live`, { live: false });
      await r.waitFor(() => r.lastHealth() === 'offline');
      expect(r.events.filter((e) => e.kind === 'stream').map((e) => (e.kind === 'stream' ? e.status.is_live : null))).toEqual([
        false,
        true,
        false,
      ]);
      expect(r.ctx.state.liveChatId).toBeNull();
      // The next stream is a scheduled event (YouTube lists only those without broadcastType=all).
      await control(emulator, 'POST', `/channels/youtube/${offline.id}/live`, { live: true, broadcastType: 'event' });
      await r.waitFor(() => r.lastHealth() === 'connected');
      const e = await control<{ id: string }>(emulator, 'POST', '/chat', { platform: 'youtube', channel: offline.id, text: 'event!' });
      await r.waitFor(() => chats(r.events).some((x) => x.provider_message_id === e.id));
    } finally {
      await conn.close();
    }
  });
});

describe('YouTube live_stream_id on the channel provider', () => {
  let emulator: Emulator;
  let t: TestApp;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
    emulator.ctx.youtube!.pollingIntervalMillis = 50;
    t = await createTestApp({
      emulatorOrigin: emulator.origin,
      platformOptions: { youtube: { offlinePoll: { baseMs: 50, maxMs: 100 }, backoff: { baseMs: 50, maxMs: 100 } } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  it('holds the live video id while the broadcast is live (list and providers-ws `updated`), null once it ends', async () => {
    const owner = await t.createUser();
    const channelId = await createChannel(t, owner, 'YouTube live');
    const account = emulator.world.accountByLogin('youtube', 'retrorunner')!;
    const socket = await providersSocket(t, owner, channelId);
    try {
      const id = await connectChannelProvider(t, emulator, owner, channelId, 'youtube', account.login);
      const item = async () => (await providersOf(t, owner, channelId)).find((p) => p.id === id);
      await until(async () => (await item())?.health?.detail === YOUTUBE_WAITING_DETAIL);
      expect(await item()).toMatchObject({ is_live: false, live_stream_id: null });

      await control(emulator, 'POST', `/channels/youtube/${account.id}/live`, { live: true });
      const videoId = emulator.ctx.youtube!.broadcastOf(account.id)!.videoId;
      expect(videoId).toBeTruthy();
      await until(async () => (await item())?.live_stream_id === videoId);
      expect(await item()).toMatchObject({ is_live: true, live_stream_id: videoId });
      const liveUpdate = await until(
        () => socket.updates.findIndex((m) => m.action === 'updated' && m.data.id === id && m.data.live_stream_id === videoId) + 1,
      );

      await control(emulator, 'POST', `/channels/youtube/${account.id}/live`, { live: false });
      await until(async () => (await item())?.live_stream_id === null);
      expect(await item()).toMatchObject({ is_live: false, live_stream_id: null });
      await until(() =>
        socket.updates
          .slice(liveUpdate)
          .some((m) => m.action === 'updated' && m.data.id === id && m.data.live_stream_id === null && !m.data.is_live),
      );
    } finally {
      socket.close();
    }
  });
});
