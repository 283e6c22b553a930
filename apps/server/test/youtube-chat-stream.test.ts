/**
 * YouTube live chat over gRPC `liveChatMessages.streamList` against the emulator's grpc-js service: messages arrive
 * over one stream (one 5-unit call, no polling), the adapter polls while the stream is unavailable or unimplemented
 * and goes back to it, resumes from the stored page token without loss or repeats, follows `offline_at`, and waits
 * for the quota reset when the quota is used up. The emulator refuses what Google refuses.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Account, type Emulator } from '@greenroom/platform-emulator';
import { youtubeStreamListLoaderOptions, youtubeStreamListProto, youtubeStreamListService } from '@greenroom/contracts/youtube-stream-list';
import { createYoutubeAdapter } from '../src/platforms/youtube/youtube-adapter';
import { parseStreamError } from '../src/platforms/youtube/youtube-chat-stream';
import { scopesFor } from '../src/platforms/scopes';
import { emulatorEndpoints } from '../src/platforms/endpoints';
import type { LiveConnection, PlatformAdapter } from '../src/platforms/port';
import { testApps } from './helper';
import { chats, control, EmulatorTokenSource, recordingContext, type RecordingContext } from './platform-fixtures';

let emulator: Emulator;
let streamer: Account;
let viewers: Account[];
let broadcaster: EmulatorTokenSource;
let adapter: PlatformAdapter;
const open: LiveConnection[] = [];
const spent: string[] = [];

const fast = { offlinePoll: { baseMs: 50, maxMs: 100 }, backoff: { baseMs: 50, maxMs: 100 }, streamRetryMs: 300 };
const chat = (text: string, user = viewers[0]!.id) =>
  control<{ id: string }>(emulator, 'POST', '/chat', { platform: 'youtube', channel: streamer.id, user, text });
const streamList = () => emulator.ctx.youtube!.streamList;
const clientId = testApps.youtube.clientId;

function connect(state: Record<string, unknown> = {}): RecordingContext {
  const rec = recordingContext({
    provider: 'youtube',
    providerChannelId: streamer.id,
    providerChannelName: streamer.login,
    broadcaster,
    state,
  });
  open.push(adapter.connect(rec.ctx)!);
  return rec;
}

async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((c) => c.close()));
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
  emulator.ctx.youtube!.pollingIntervalMillis = 50;
  streamer = emulator.world.accountByLogin('youtube', 'greenroomdemo')!;
  viewers = emulator.world.accountsOf('youtube', 'viewer');
  const endpoints = emulatorEndpoints(emulator.origin, testApps, emulator.config.youtube.grpcAddress);
  broadcaster = new EmulatorTokenSource('youtube', streamer.id, scopesFor.youtube.channel, endpoints, emulator);
  adapter = createYoutubeAdapter({
    endpoints: endpoints.youtube,
    quota: { spend: (method) => void spent.push(method), exhausted: () => void spent.push('exhausted') },
    ...fast,
  });
});

afterEach(async () => {
  await closeAll();
  await streamList().setMode('serving');
  emulator.ctx.youtube!.resetQuota();
  spent.length = 0;
});

afterAll(async () => {
  await closeAll();
  await emulator?.close();
});

describe('YouTube chat over gRPC streamList', () => {
  it('reads chat over one stream: one 5-unit call, no polling', async () => {
    const rec = connect();
    await rec.waitFor(() => streamList().openStreams() === 1 && rec.lastHealth() === 'connected');
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) sent.push((await chat(`streamed ${i}`, viewers[i]!.id)).id);
    await rec.waitFor(() => sent.every((id) => chats(rec.events).some((m) => m.provider_message_id === id)));
    const msg = chats(rec.events).find((m) => m.provider_message_id === sent[0]);
    expect(msg).toMatchObject({ text: 'streamed 0', author: { provider_user_id: viewers[0]!.id, display_name: viewers[0]!.displayName } });
    // The broadcast lookup (1 unit) and one streamList call (5): liveChatMessages.list is never called.
    expect(spent).toEqual(['liveBroadcasts.list', 'liveChatMessages.streamList']);
    expect(emulator.ctx.youtube!.quotaUsed(clientId)).toBe(6);
    // The token of the last stored page is kept for a restart.
    expect(typeof rec.ctx.state.pageToken).toBe('string');
  });

  it('maps Super Chats, gifted memberships, deletions and bans from the gRPC messages', async () => {
    const rec = connect();
    await rec.waitFor(() => streamList().openStreams() === 1);
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
      type: 'membership_gift',
      user: v,
      data: { count: 2, recipientIds: [viewers[2]!.id, viewers[3]!.id] },
    });
    const doomed = await chat('delete me', viewers[4]!.id);
    await control(emulator, 'POST', '/moderation/delete', { platform: 'youtube', channel: streamer.id, messageId: doomed.id });
    await control(emulator, 'POST', '/moderation/ban', {
      platform: 'youtube',
      channel: streamer.id,
      user: viewers[5]!.id,
      durationSeconds: 300,
    });
    const found = await rec.waitFor(() => {
      const activities = rec.events.flatMap((e) => (e.kind === 'activity' ? [e.activity] : []));
      const moderation = rec.events.flatMap((e) => (e.kind === 'moderation' ? [e.event] : []));
      return activities.length >= 4 && moderation.length >= 2 ? { activities, moderation } : null;
    });
    expect(found.activities.map((a) => a.type)).toEqual([
      'superchat',
      'membership_gift',
      'membership_gift_received',
      'membership_gift_received',
    ]);
    expect(found.activities[0]).toMatchObject({ amount: '$5.00', message: 'great stream', viewer: { provider_user_id: v } });
    expect(found.activities[1]).toMatchObject({ count: 2 });
    expect(found.moderation[0]).toMatchObject({ kind: 'delete', provider_message_id: doomed.id });
    expect(found.moderation[1]).toMatchObject({ kind: 'timeout', target: { provider_user_id: viewers[5]!.id } });
    expect(found.moderation[1]!.duration_seconds).toBeGreaterThan(290);
    expect(chats(rec.events).find((m) => m.text === 'great stream')?.highlight).toBe('$5.00');
  });

  it('polls while the stream is unavailable, then goes back to the stream', async () => {
    const rec = connect();
    await rec.waitFor(() => streamList().openStreams() === 1);
    await streamList().setMode('unavailable');
    const during = await chat('while the stream is down');
    await rec.waitFor(() => chats(rec.events).some((m) => m.provider_message_id === during.id));
    expect(spent).toContain('liveChatMessages.list');
    await streamList().setMode('serving');
    await rec.waitFor(() => streamList().openStreams() === 1, 10_000);
    const after = await chat('back on the stream');
    await rec.waitFor(() => chats(rec.events).some((m) => m.provider_message_id === after.id));
    const ids = chats(rec.events).map((m) => m.provider_message_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('polls when the service does not implement streamList', async () => {
    await streamList().setMode('unimplemented');
    const rec = connect();
    const sent = await chat('polled instead');
    await rec.waitFor(() => chats(rec.events).some((m) => m.provider_message_id === sent.id));
    expect(spent).toContain('liveChatMessages.list');
    expect(rec.lastHealth()).toBe('connected');
  });

  it('resumes from the stored page token after a restart without losing or repeating messages', async () => {
    const first = connect();
    const before = await chat('before the restart');
    await first.waitFor(() => chats(first.events).some((m) => m.provider_message_id === before.id));
    await closeAll();
    await first.waitFor(() => streamList().openStreams() === 0);
    const missed: string[] = [];
    for (let i = 0; i < 25; i++) missed.push((await chat(`while down ${i}`, viewers[i % 5]!.id)).id);
    const again = connect({ ...first.ctx.state });
    await again.waitFor(() => missed.every((id) => chats(again.events).some((m) => m.provider_message_id === id)));
    const live = await chat('after the restart');
    await again.waitFor(() => chats(again.events).some((m) => m.provider_message_id === live.id));
    // Exactly what was missed, in order, then the new message: nothing older, nothing twice.
    expect(chats(again.events).map((m) => m.provider_message_id)).toEqual([...missed, live.id]);
  });

  it('a token that expires mid-stream is refreshed and the stream reopened after the last stored page', async () => {
    const rec = connect();
    const before = await chat('before expiry');
    await rec.waitFor(() => chats(rec.events).some((m) => m.provider_message_id === before.id));
    const refreshes = broadcaster.refreshes;
    // The emulator checks the token on every push: the next message ends the stream with UNAUTHENTICATED.
    await control(emulator, 'POST', '/tokens/expire', { platform: 'youtube', token: broadcaster.access });
    const after = await chat('after expiry');
    await rec.waitFor(() => chats(rec.events).some((m) => m.provider_message_id === after.id));
    expect(broadcaster.refreshes).toBe(refreshes + 1);
    expect(rec.lastHealth()).toBe('connected');
    const ids = chats(rec.events).map((m) => m.provider_message_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('asks for reconnecting when the token is revoked mid-stream', async () => {
    const revocable = new EmulatorTokenSource(
      'youtube',
      streamer.id,
      scopesFor.youtube.channel,
      emulatorEndpoints(emulator.origin, testApps, emulator.config.youtube.grpcAddress),
      emulator,
    );
    const rec = recordingContext({
      provider: 'youtube',
      providerChannelId: streamer.id,
      providerChannelName: streamer.login,
      broadcaster: revocable,
    });
    open.push(adapter.connect(rec.ctx)!);
    await rec.waitFor(() => rec.lastHealth() === 'connected');
    await control(emulator, 'POST', '/tokens/revoke', { platform: 'youtube', token: revocable.access });
    // Revocation ends the stream at once; the refresh token died with it, so the connection asks for reconnecting.
    await rec.waitFor(() => rec.lastHealth() === 'needs_reauth');
    expect(streamList().openStreams()).toBe(0);
  });

  it('a page the chat log refuses is read again from the same token, not skipped', async () => {
    const rec = connect();
    await rec.waitFor(() => streamList().openStreams() === 1);
    const emit = rec.ctx.emit;
    let refusals = 2;
    rec.ctx.emit = async (events, options) => {
      if (refusals > 0 && (Array.isArray(events) ? events : [events]).some((e) => e.kind === 'chat')) {
        refusals--;
        throw new Error('chat log unavailable');
      }
      return emit(events, options);
    };
    const sent = await chat('refused then stored');
    await rec.waitFor(() => chats(rec.events).some((m) => m.provider_message_id === sent.id));
    expect(refusals).toBe(0);
    expect(chats(rec.events).filter((m) => m.provider_message_id === sent.id)).toHaveLength(1);
  });

  it('follows offline_at: the stream ends with the broadcast and the channel goes offline', async () => {
    const rec = connect();
    await rec.waitFor(() => streamList().openStreams() === 1);
    await control(emulator, 'POST', `/channels/youtube/${streamer.id}/live`, { live: false });
    await rec.waitFor(() => rec.events.some((e) => e.kind === 'stream' && !e.status.is_live));
    await rec.waitFor(() => rec.lastHealth() === 'offline');
    expect(streamList().openStreams()).toBe(0);
    expect(rec.ctx.state).toMatchObject({ liveChatId: null, pageToken: null });
    await control(emulator, 'POST', `/channels/youtube/${streamer.id}/live`, { live: true });
    await rec.waitFor(() => streamList().openStreams() === 1, 10_000);
  });

  it('waits for the quota reset when streamList is refused for quota, then resumes', async () => {
    const rec = recordingContext({ provider: 'youtube', providerChannelId: streamer.id, providerChannelName: streamer.login, broadcaster });
    const waiting = createYoutubeAdapter({
      endpoints: emulatorEndpoints(emulator.origin, testApps, emulator.config.youtube.grpcAddress).youtube,
      quota: { spend: (method) => void spent.push(method), exhausted: () => void spent.push('exhausted') },
      ...fast,
      // 0.7 s before midnight PST (the night daylight saving starts): the wait until the reset is 0.7 s.
      now: () => new Date(Date.parse('2026-03-08T08:00:00Z') - 700),
      quotaResumeJitterMs: 0,
    });
    // Enough for the broadcast lookup (1 unit), not for the stream (5).
    emulator.ctx.youtube!.setQuotaUsed(clientId, emulator.ctx.youtube!.quotaLimit - 1);
    open.push(waiting.connect(rec.ctx)!);
    const refused = await rec.waitFor(() => rec.health.find((h) => h.state === 'error'));
    expect(refused.detail).toBe(
      'The YouTube API quota for today is used up: chat resumes when it resets at midnight Pacific time (08:00 UTC).',
    );
    expect(spent).toContain('exhausted');
    // Midnight Pacific: YouTube's quota resets, and the connection calls again by itself.
    emulator.ctx.youtube!.resetQuota();
    const sent = await chat('after the reset');
    await rec.waitFor(() => chats(rec.events).some((m) => m.provider_message_id === sent.id));
    expect(rec.lastHealth()).toBe('connected');
  });
});

describe("the emulator's StreamList refuses what Google refuses", () => {
  let client: grpc.Client & { StreamList: (req: object, md: grpc.Metadata) => grpc.ClientReadableStream<Record<string, unknown>> };

  beforeAll(() => {
    const root = protobuf.parse(youtubeStreamListProto, { keepCase: true }).root;
    const pkg = grpc.loadPackageDefinition(protoLoader.fromJSON(root.toJSON(), youtubeStreamListLoaderOptions)) as unknown as {
      youtube: { api: { v3: { V3DataLiveChatMessageService: grpc.ServiceClientConstructor } } };
    };
    // The method path Google serves: /youtube.api.v3.V3DataLiveChatMessageService/StreamList.
    expect(pkg.youtube.api.v3.V3DataLiveChatMessageService.service.StreamList!.path).toBe(`/${youtubeStreamListService}/StreamList`);
    const Client = pkg.youtube.api.v3.V3DataLiveChatMessageService;
    client = new Client(emulator.config.youtube.grpcAddress!, grpc.credentials.createInsecure()) as unknown as typeof client;
  });
  afterAll(() => client?.close());

  function call(request: object, token: string | null): Promise<{ responses: Record<string, unknown>[]; error: grpc.ServiceError | null }> {
    const md = new grpc.Metadata();
    if (token) md.set('authorization', `Bearer ${token}`);
    const stream = client.StreamList(request, md);
    const responses: Record<string, unknown>[] = [];
    return new Promise((resolve) => {
      stream.on('data', (r: Record<string, unknown>) => {
        responses.push(r);
        stream.cancel();
      });
      stream.on('error', (error: grpc.ServiceError) => resolve({ responses, error: error.code === grpc.status.CANCELLED ? null : error }));
      stream.on('end', () => resolve({ responses, error: null }));
    });
  }

  const token = (scopes: string[]) =>
    emulator.world.issueToken({ platform: 'youtube', clientId, userId: streamer.id, scopes, ttlSeconds: 600, refreshable: false })
      .accessToken;

  it('authenticates with the bearer token in `authorization`, checks scopes, the chat, the parts and the page token', async () => {
    const liveChatId = emulator.ctx.youtube!.broadcastOf(streamer.id)!.liveChatId;
    const ok = token(scopesFor.youtube.channel);
    expect((await call({ live_chat_id: liveChatId, part: ['snippet'] }, null)).error?.code).toBe(grpc.status.UNAUTHENTICATED);
    expect((await call({ live_chat_id: liveChatId, part: ['snippet'] }, 'not-a-token')).error?.code).toBe(grpc.status.UNAUTHENTICATED);
    const noScope = token(['openid']);
    expect((await call({ live_chat_id: liveChatId, part: ['snippet'] }, noScope)).error?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect((await call({ live_chat_id: 'nope', part: ['snippet'] }, ok)).error?.code).toBe(grpc.status.NOT_FOUND);
    expect((await call({ live_chat_id: liveChatId }, ok)).error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect((await call({ live_chat_id: liveChatId, part: ['snippet'], page_token: '!!' }, ok)).error?.code).toBe(
      grpc.status.INVALID_ARGUMENT,
    );
    const first = await call({ live_chat_id: liveChatId, part: ['id', 'snippet', 'authorDetails'] }, ok);
    expect(first.error).toBeNull();
    expect(first.responses[0]).toMatchObject({ kind: 'youtube#liveChatMessageListResponse', next_page_token: expect.any(String) });
  });

  it('charges 5 units a call and refuses with RESOURCE_EXHAUSTED once the quota is used up', async () => {
    const liveChatId = emulator.ctx.youtube!.broadcastOf(streamer.id)!.liveChatId;
    const ok = token(scopesFor.youtube.channel);
    emulator.ctx.youtube!.resetQuota();
    await call({ live_chat_id: liveChatId, part: ['snippet'] }, ok);
    expect(emulator.ctx.youtube!.quotaUsed(clientId)).toBe(5);
    emulator.ctx.youtube!.setQuotaUsed(clientId, emulator.ctx.youtube!.quotaLimit - 4);
    const refused = await call({ live_chat_id: liveChatId, part: ['snippet'] }, ok);
    expect(refused.error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(parseStreamError(refused.error!)).toMatchObject({ code: 'rate_limited', reason: 'quotaExceeded' });
  });
});
