import { createSign, generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Account, type Emulator } from '@greenroom/platform-emulator';
import { createKickAdapter } from '../src/platforms/kick/kick-adapter';
import type { KickClient } from '../src/platforms/kick/kick-client';
import { parseKickContent } from '../src/platforms/kick/kick-events';
import { KickWebhookReceiver, type WebhookDeliveryStore } from '../src/platforms/kick/kick-webhook-receiver';
import { DbWebhookDeliveryStore } from '../src/modules/webhooks';
import { scopesFor } from '../src/platforms/scopes';
import type { PlatformAdapter, PlatformEvent } from '../src/platforms/port';
import { createTestApp, testApps, type TestApp } from './helper';
import {
  httpErrorOf,
  actionsSince,
  connectChannelProvider,
  control,
  createChannel,
  EmulatorTokenSource,
  lastActionSeq,
  providersOf,
  recordingContext,
  until,
  type RecordingContext,
  chats,
} from './platform-fixtures';

describe('Kick adapter against the emulator', () => {
  let emulator: Emulator;
  let t: TestApp;
  let adapter: PlatformAdapter;
  let streamer: Account;
  let viewer: Account;
  let broadcaster: EmulatorTokenSource;
  let rec: RecordingContext;
  let close: () => Promise<void>;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
    emulator.ctx.kick!.delivery.retryDelaysMs = [50, 100];
    t = await createTestApp({ emulatorOrigin: emulator.origin });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    await control(emulator, 'PUT', '/apps/kick', { webhookUrl: `http://127.0.0.1:${port}/api/2/webhooks/kick` });
    streamer = emulator.world.accountByLogin('kick', 'greenroomdemo')!;
    viewer = emulator.world.accountsOf('kick', 'viewer')[0]!;
    broadcaster = new EmulatorTokenSource('kick', streamer.id, scopesFor.kick.channel, t.endpoints, emulator);
    adapter = createKickAdapter({ endpoints: t.endpoints.kick, receiver: t.s.kickWebhooks, backoff: { baseMs: 50, maxMs: 200 } });
    rec = recordingContext({ provider: 'kick', providerChannelId: streamer.id, providerChannelName: streamer.login, broadcaster });
    const connection = adapter.connect(rec.ctx)!;
    close = () => connection.close();
    await rec.waitFor(() => rec.lastHealth() === 'connected');
  });

  afterAll(async () => {
    await close?.();
    await t?.close();
    await emulator?.close();
  });

  it('subscribes every event once, keeps the ids in state and does not resubscribe on reconnect', async () => {
    const subs = emulator.ctx.kick!.subscriptions().filter((s) => s.broadcasterUserId === streamer.id);
    expect(subs.map((s) => s.event).sort()).toEqual(
      [
        'channel.followed',
        'channel.subscription.gifts',
        'channel.subscription.new',
        'channel.subscription.renewal',
        'chat.message.sent',
        'kicks.gifted',
        'livestream.status.updated',
        'moderation.banned',
      ].sort(),
    );
    expect(Object.keys(rec.ctx.state.kickSubscriptions as object)).toHaveLength(8);
    const seq = await lastActionSeq(emulator);
    const again = recordingContext({
      provider: 'kick',
      providerChannelId: streamer.id,
      providerChannelName: streamer.login,
      broadcaster,
      state: { ...rec.ctx.state },
    });
    const second = adapter.connect(again.ctx)!;
    await again.waitFor(() => again.lastHealth() === 'connected');
    await second.close();
    expect((await actionsSince(emulator, 'kick', seq)).filter((a) => a.type === 'subscribe')).toHaveLength(0);
    // The first connection reported the channel's live status at connect.
    expect(rec.events.some((e) => e.kind === 'stream' && e.status.is_live)).toBe(true);
  });

  it('receives chat through the signed webhook with emotes, badges and replies', async () => {
    const first = await control<{ id: string }>(emulator, 'POST', '/chat', {
      platform: 'kick',
      channel: streamer.login,
      user: viewer.id,
      text: 'hello [emote:37226:KEKW] @GreenroomDemo',
    });
    const msg = await rec.waitFor(() => chats(rec.events).find((m) => m.provider_message_id === first.id));
    expect(msg.text).toBe('hello KEKW @GreenroomDemo');
    expect(msg.emotes).toEqual([
      { start: 6, end: 10, name: 'KEKW', id: '37226', source: 'platform', url: 'https://files.kick.com/emotes/37226/fullsize' },
    ]);
    expect(msg.mentions).toEqual(['greenroomdemo']);
    expect(msg.author).toMatchObject({ provider_user_id: viewer.id, display_name: viewer.displayName });

    const reply = await control<{ id: string }>(emulator, 'POST', '/chat', {
      platform: 'kick',
      channel: streamer.login,
      user: streamer.id,
      text: 'welcome!',
      replyTo: first.id,
    });
    const replied = await rec.waitFor(() => chats(rec.events).find((m) => m.provider_message_id === reply.id));
    expect(replied.reply).toEqual({
      provider_message_id: first.id,
      author_display_name: viewer.displayName,
      text: 'hello KEKW @GreenroomDemo',
    });
    expect(replied.author.roles.broadcaster).toBe(true);
    expect(replied.author.badges.map((b) => b.set_id)).toContain('broadcaster');
  });

  it('maps follows, subs, renewals, gifts, kicks, stream status and platform bans', async () => {
    const before = rec.events.length;
    for (const body of [
      { type: 'follow', user: viewer.id },
      { type: 'sub', user: viewer.id, data: { months: 1 } },
      { type: 'resub', user: viewer.id, data: { months: 5 } },
      { type: 'gift', user: null, data: { count: 3 } },
      { type: 'kicks', user: viewer.id, data: { amount: 100, message: 'gg' } },
    ]) {
      await control(emulator, 'POST', '/events', { platform: 'kick', channel: streamer.login, ...body });
    }
    const activities = await rec.waitFor(() => {
      const list = rec.events.slice(before).flatMap((e) => (e.kind === 'activity' ? [e.activity] : []));
      return list.length >= 5 ? list : null;
    });
    // Each event is its own webhook delivery: Kick promises no order between them (a retried one comes later).
    expect(activities.map((a) => a.type).sort()).toEqual(['follow', 'gift', 'kicks', 'resub', 'sub']);
    const of = (type: string) => activities.find((a) => a.type === type)!;
    expect(of('follow').viewer).toMatchObject({ provider_user_id: viewer.id });
    expect(of('resub').months).toBe(5);
    expect(of('gift')).toMatchObject({ viewer: null, count: 3 });
    expect(of('kicks')).toMatchObject({ amount: '100 kicks', message: 'gg' });
  });

  it('sends as the broadcaster, as the app bot and replies', async () => {
    const actions = adapter.actions(rec.ctx);
    const seq = await lastActionSeq(emulator);
    const sent = await actions.chat!.sendMessage({ text: 'hi chat', as: 'broadcaster' });
    expect(sent.providerMessageId).toBeTruthy();
    await actions.chat!.sendMessage({ text: 'bot here', as: 'bot' });
    await actions.chat!.sendMessage({ text: 'a reply', as: 'broadcaster', replyToProviderMessageId: sent.providerMessageId! });
    const sends = (await actionsSince(emulator, 'kick', seq)).filter((a) => a.type === 'chat.send');
    expect(sends.map((a) => [a.data.text, a.data.type])).toEqual([
      ['hi chat', 'user'],
      ['bot here', 'bot'],
      ['a reply', 'user'],
    ]);
    expect(sends[2]!.data.replyToId).toBe(sent.providerMessageId);
  });

  it('sends as the channel own bot account (type user into the streamer channel)', async () => {
    const botAccount = emulator.world.accountsOf('kick', 'bot')[0]!;
    const bot = new EmulatorTokenSource('kick', botAccount.id, scopesFor.kick.bot, t.endpoints, emulator);
    const withBot = recordingContext({
      provider: 'kick',
      providerChannelId: streamer.id,
      providerChannelName: streamer.login,
      broadcaster,
      bot,
    });
    const seq = await lastActionSeq(emulator);
    await adapter.actions(withBot.ctx).chat!.sendMessage({ text: 'from my bot', as: 'bot' });
    const [send] = (await actionsSince(emulator, 'kick', seq)).filter((a) => a.type === 'chat.send');
    expect(send).toMatchObject({ actorId: botAccount.id, channelId: streamer.id, data: { type: 'user', text: 'from my bot' } });
  });

  it('bans with a reason, times out in whole minutes only (refusing 30 s or 90 s), unbans and deletes', async () => {
    const actions = adapter.actions(rec.ctx);
    const target = emulator.world.accountsOf('kick', 'viewer')[1]!;
    const seq = await lastActionSeq(emulator);
    for (const durationSeconds of [30, 90, 10_081 * 60]) {
      await expect(actions.moderation!.ban({ providerViewerId: target.id, durationSeconds })).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^Kick time.* from 1 minute to 7 days\.$/),
      });
    }
    expect(await actions.moderation!.ban({ providerViewerId: target.id, durationSeconds: 120, reason: 'calm down' })).toEqual({
      durationSeconds: 120,
    });
    await actions.moderation!.unban({ providerViewerId: target.id });
    await actions.moderation!.ban({ providerViewerId: target.id, reason: 'spam' });
    await actions.moderation!.unban({ providerViewerId: target.id });
    const message = await control<{ id: string }>(emulator, 'POST', '/chat', {
      platform: 'kick',
      channel: streamer.login,
      user: target.id,
      text: 'delete me',
    });
    await actions.moderation!.deleteMessage({ providerMessageId: message.id });
    const done = (await actionsSince(emulator, 'kick', seq)).filter((a) => a.type !== 'chat.send');
    expect(done.map((a) => a.type)).toEqual(['timeout', 'unban', 'ban', 'unban', 'chat.delete']);
    expect(done[0]!.data).toMatchObject({ userId: target.id, durationMinutes: 2, reason: 'calm down' });
    expect(done[2]!.data).toMatchObject({ durationMinutes: null, reason: 'spam' });
    // Kick echoes our own bans as moderation.banned webhooks: those are not emitted again (the moderation route
    // publishes Greenroom's actions itself); a ban made in Kick's own chat is. Once that one is here, the echoes were too.
    const other = emulator.world.accountsOf('kick', 'viewer')[2]!;
    await control(emulator, 'POST', '/moderation/ban', { platform: 'kick', channel: streamer.id, user: other.id, durationSeconds: 120 });
    await rec.waitFor(() =>
      rec.events.some((e) => e.kind === 'moderation' && e.event.kind === 'timeout' && e.event.target?.provider_user_id === other.id),
    );
    expect(rec.events.filter((e) => e.kind === 'moderation' && e.event.target?.provider_user_id === target.id)).toEqual([]);
    await expect(actions.moderation!.ban({ providerViewerId: target.id, reason: 'x'.repeat(101) })).rejects.toMatchObject({ status: 400 });
  });

  it('reads and updates the title and category, enforcing 140 characters, and searches categories', async () => {
    const actions = adapter.actions(rec.ctx);
    const found = await actions.streamInfo!.searchCategories('Just');
    const justChatting = found.find((c) => c.name === 'Just Chatting')!;
    expect(justChatting).toBeTruthy();
    await actions.streamInfo!.update({ title: 'New Kick title', categoryId: justChatting.id });
    const info = await actions.streamInfo!.get();
    expect(info).toMatchObject({ title: 'New Kick title', category: { id: justChatting.id, name: 'Just Chatting' }, isLive: true });
    await expect(actions.streamInfo!.update({ title: 'x'.repeat(141) })).rejects.toMatchObject({ status: 400, type: 'validation_error' });
    await actions.streamInfo!.update({ title: 'y'.repeat(140) });
  });

  it('refreshes an expired token once and succeeds', async () => {
    const before = broadcaster.refreshes;
    await control(emulator, 'POST', '/tokens/expire', { platform: 'kick', token: broadcaster.access });
    await adapter.actions(rec.ctx).chat!.sendMessage({ text: 'after refresh', as: 'broadcaster' });
    expect(broadcaster.refreshes).toBe(before + 1);
  });

  it('asks for reconnecting when the token is revoked, and for a missing scope', async () => {
    const revoked = new EmulatorTokenSource('kick', streamer.id, scopesFor.kick.channel, t.endpoints, emulator);
    await control(emulator, 'POST', '/tokens/revoke', { platform: 'kick', token: revoked.access });
    const ctx = recordingContext({
      provider: 'kick',
      providerChannelId: streamer.id,
      providerChannelName: streamer.login,
      broadcaster: revoked,
    });
    // Reconnect needed is a 409, never a 401 (which would sign the user out of Greenroom).
    expect(await httpErrorOf(adapter.actions(ctx.ctx).chat!.sendMessage({ text: 'x', as: 'broadcaster' }))).toMatchObject({
      status: 409,
      type: 'reconnect_required',
      code: 'auth_revoked',
    });
    const narrow = new EmulatorTokenSource('kick', streamer.id, ['user:read'], t.endpoints, emulator);
    const ctx2 = recordingContext({
      provider: 'kick',
      providerChannelId: streamer.id,
      providerChannelName: streamer.login,
      broadcaster: narrow,
    });
    await expect(adapter.actions(ctx2.ctx).chat!.sendMessage({ text: 'x', as: 'broadcaster' })).rejects.toThrow(/missing scope chat:write/);
  });

  it('rejects a webhook with a bad signature', async () => {
    const body = JSON.stringify({ broadcaster: { user_id: Number(streamer.id) }, follower: { user_id: 1, username: 'x' } });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/2/webhooks/kick',
      headers: {
        'content-type': 'application/json',
        'kick-event-message-id': '01JBADSIGNATURE0000000000',
        'kick-event-message-timestamp': new Date().toISOString(),
        'kick-event-signature': Buffer.from('not a signature').toString('base64'),
        'kick-event-type': 'channel.followed',
        'kick-event-version': '1',
      },
      payload: body,
    });
    expect(res.statusCode).toBe(403);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/2/webhooks/kick',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(missing.statusCode).toBe(400);
  });

  it('ignores a duplicate delivery and accepts a late one exactly once', async () => {
    const kick = emulator.ctx.kick!;
    kick.setDeliveryFault({ duplicate: true });
    const dup = await control<{ id: string }>(emulator, 'POST', '/chat', {
      platform: 'kick',
      channel: streamer.login,
      user: viewer.id,
      text: 'sent twice',
    });
    await kick.idle();
    kick.setDeliveryFault({ duplicate: false, delayMs: 1200 });
    const late = await control<{ id: string }>(emulator, 'POST', '/chat', {
      platform: 'kick',
      channel: streamer.login,
      user: viewer.id,
      text: 'arrives late',
    });
    await kick.idle();
    kick.setDeliveryFault({ delayMs: 0 });
    const ok = kick.deliveries().filter((d) => d.status === 200);
    expect(ok.filter((d) => d.eventType === 'chat.message.sent').length).toBeGreaterThanOrEqual(3);
    expect(chats(rec.events).filter((m) => m.provider_message_id === dup.id)).toHaveLength(1);
    expect(chats(rec.events).filter((m) => m.provider_message_id === late.id)).toHaveLength(1);
    // The ids are remembered in the database: a restarted receiver would ignore the copies too.
    const store = new DbWebhookDeliveryStore(t.s.db);
    const lastId = kick.deliveries().at(-1)!.messageId;
    expect(await store.has('kick', lastId)).toBe(true);
    expect(await store.remember('kick', lastId)).toBe(false);
  });
});

describe('Kick: late retries, unsubscription after failures, revocation seen by validation', () => {
  let emulator: Emulator;
  let t: TestApp;
  let productUrl: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
    t = await createTestApp({
      emulatorOrigin: emulator.origin,
      platformOptions: { kick: { resubscribeCheckMs: 300, backoff: { baseMs: 50, maxMs: 200 } }, validateEveryMs: { kick: 300 } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    productUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/2/webhooks/kick`;
    await control(emulator, 'PUT', '/apps/kick', { webhookUrl: productUrl });
    await t.s.connections.start(); // token validation timers
  });

  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  it('takes a late retry once, and subscribes again after Kick unsubscribed a failing endpoint', async () => {
    const owner = await t.createUser();
    const channelId = await createChannel(t, owner, 'Kick retries');
    const streamer = emulator.world.accountByLogin('kick', 'greenroomdemo')!;
    const viewer = emulator.world.accountsOf('kick', 'viewer')[0]!;
    const kick = emulator.ctx.kick!;
    const chat: string[] = [];
    const off = t.s.bus.subscribe(`channel:${channelId}`, (event) => {
      const e = event as { type: string; data?: { provider_message_id?: string } };
      if (e.type === 'chat.message' && e.data?.provider_message_id) chat.push(e.data.provider_message_id);
    });
    try {
      const id = await connectChannelProvider(t, emulator, owner, channelId, 'kick', streamer.login);
      await until(async () => (await providersOf(t, owner, channelId)).find((p) => p.id === id)?.health?.state === 'connected');

      // The first attempt fails (the endpoint is away); Kick retries later with the original, now old, timestamp.
      kick.delivery.retryDelaysMs = [400];
      kick.setDeliveryFault({ backdateMs: 40 * 60_000 });
      await control(emulator, 'PUT', '/apps/kick', { webhookUrl: `${productUrl}-away` });
      const late = await control<{ id: string }>(emulator, 'POST', '/chat', {
        platform: 'kick',
        channel: streamer.login,
        user: viewer.id,
        text: 'retried 40 minutes later',
      });
      await until(() => kick.deliveries().some((d) => d.eventType === 'chat.message.sent' && d.status === 404));
      await control(emulator, 'PUT', '/apps/kick', { webhookUrl: productUrl });
      await kick.idle();
      await until(() => chat.includes(late.id));
      const attempts = kick
        .deliveries()
        .filter((d) => d.eventType === 'chat.message.sent' && d.messageId === kick.deliveries().at(-1)!.messageId);
      expect(attempts.map((d) => d.status)).toEqual([404, 200]);
      expect(chat.filter((m) => m === late.id)).toHaveLength(1);
      kick.setDeliveryFault({ backdateMs: 0 });

      // The endpoint keeps failing past Kick's threshold: Kick unsubscribes; the product subscribes again.
      const before = kick.subscriptions().filter((s) => s.broadcasterUserId === streamer.id && s.event === 'chat.message.sent');
      expect(before).toHaveLength(1);
      kick.delivery.unsubscribeAfterMs = 0;
      kick.delivery.retryDelaysMs = [20];
      await control(emulator, 'PUT', '/apps/kick', { webhookUrl: `${productUrl}-away` });
      await control(emulator, 'POST', '/chat', { platform: 'kick', channel: streamer.login, user: viewer.id, text: 'lost endpoint' });
      await kick.idle();
      const dropped = (await actionsSince(emulator, 'kick', 0)).filter(
        (a) => a.type === 'unsubscribe' && a.data.reason === 'webhook_failing',
      );
      expect(dropped.map((a) => a.data.subscriptionId)).toContain(before[0]!.id);
      kick.delivery.unsubscribeAfterMs = 24 * 3_600_000;
      await control(emulator, 'PUT', '/apps/kick', { webhookUrl: productUrl });
      await until(() =>
        kick.subscriptions().some((s) => s.broadcasterUserId === streamer.id && s.event === 'chat.message.sent' && s.id !== before[0]!.id),
      );
      const after = await control<{ id: string }>(emulator, 'POST', '/chat', {
        platform: 'kick',
        channel: streamer.login,
        user: viewer.id,
        text: 'back again',
      });
      await until(() => chat.includes(after.id));
    } finally {
      off();
    }
  });

  it('shows "Reconnect needed" soon after the token is revoked at Kick, with no call failing first', async () => {
    const owner = await t.createUser();
    const channelId = await createChannel(t, owner, 'Kick revoked');
    const streamer = emulator.world.accountByLogin('kick', 'greenroomdemo')!;
    const id = await connectChannelProvider(t, emulator, owner, channelId, 'kick', streamer.login);
    await until(async () => (await providersOf(t, owner, channelId)).find((p) => p.id === id)?.health?.state === 'connected');
    const seq = await lastActionSeq(emulator);
    await control(emulator, 'POST', '/tokens/revoke', { platform: 'kick', userId: streamer.id });
    const shown = await until(async () => {
      const p = (await providersOf(t, owner, channelId)).find((x) => x.id === id);
      return p?.scope_needed && p.health?.state === 'needs_reauth' ? p : null;
    });
    expect(shown.scope_needed).toBe(true);
    // Found by introspection, not by a failing send or subscription call.
    const calls = await actionsSince(emulator, 'kick', seq);
    expect(calls.filter((a) => a.type === 'chat.send')).toEqual([]);
    expect(calls.filter((a) => a.type === 'deprecated_endpoint')).toEqual([]);
  });
});

describe('Kick disconnect', () => {
  let emulator: Emulator;
  let t: TestApp;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apps: testApps, crowd: false });
    emulator.ctx.kick!.delivery.retryDelaysMs = [50, 100];
    t = await createTestApp({ emulatorOrigin: emulator.origin });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    await control(emulator, 'PUT', '/apps/kick', { webhookUrl: `http://127.0.0.1:${port}/api/2/webhooks/kick` });
  });

  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  it('deletes the webhook subscriptions at Kick before revoking the tokens; later chat is not delivered', async () => {
    const owner = await t.createUser();
    const channelId = await createChannel(t, owner, 'Kick channel');
    const streamer = emulator.world.accountByLogin('kick', 'greenroomdemo')!;
    const viewer = emulator.world.accountsOf('kick', 'viewer')[0]!;
    const kick = emulator.ctx.kick!;
    const subsOf = () => kick.subscriptions().filter((sub) => sub.broadcasterUserId === streamer.id);
    const chat: string[] = [];
    const off = t.s.bus.subscribe(`channel:${channelId}`, (event) => {
      const e = event as { type: string; data?: { provider_message_id?: string } };
      if (e.type === 'chat.message' && e.data?.provider_message_id) chat.push(e.data.provider_message_id);
    });
    try {
      const id = await connectChannelProvider(t, emulator, owner, channelId, 'kick', streamer.login);
      await until(async () => (await providersOf(t, owner, channelId)).find((p) => p.id === id)?.health?.state === 'connected');
      expect(subsOf()).toHaveLength(8);
      const before = await control<{ id: string }>(emulator, 'POST', '/chat', {
        platform: 'kick',
        channel: streamer.login,
        user: viewer.id,
        text: 'while connected',
      });
      await until(() => chat.includes(before.id));

      // A restart (e.g. new tokens or bot) keeps the subscriptions: Kick delivers to the product's URL.
      await t.s.connections.restart(id);
      expect(subsOf()).toHaveLength(8);

      const seq = await lastActionSeq(emulator);
      const del = await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${channelId}/providers/${id}` });
      expect(del.statusCode).toBe(204);
      expect(subsOf()).toEqual([]);
      const done = await actionsSince(emulator, 'kick', seq);
      const unsubscribes = done.filter((a) => a.type === 'unsubscribe');
      expect(unsubscribes).toHaveLength(8);
      const firstRevoke = done.find((a) => a.type === 'revoke');
      expect(firstRevoke).toBeTruthy();
      expect(Math.max(...unsubscribes.map((a) => a.seq))).toBeLessThan(firstRevoke!.seq);

      const deliveriesBefore = kick.deliveries().length;
      const after = await control<{ id: string }>(emulator, 'POST', '/chat', {
        platform: 'kick',
        channel: streamer.login,
        user: viewer.id,
        text: 'after disconnect',
      });
      await kick.idle();
      await new Promise((r) => setTimeout(r, 200));
      expect(kick.deliveries().slice(deliveriesBefore)).toEqual([]);
      expect(chat).not.toContain(after.id);
    } finally {
      off();
    }
  });
});

describe('Kick webhook receiver', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  let keyFetches = 0;
  const client = { publicKey: async () => (keyFetches++, pem) } as unknown as KickClient;
  const seen = new Set<string>();
  const store: WebhookDeliveryStore = {
    has: async (_p, id) => seen.has(id),
    remember: async (_p, id) => (seen.has(id) ? false : (seen.add(id), true)),
    forgetBefore: async () => 0,
  };
  let now = Date.parse('2026-01-01T12:00:00Z');

  const sign = (key: typeof privateKey, id: string, ts: string, body: string) =>
    createSign('RSA-SHA256').update(`${id}.${ts}.${body}`).sign(key, 'base64');
  const delivery = (id: string, ts: string, key = privateKey) => {
    const body = JSON.stringify({ broadcaster: { user_id: 42 }, follower: { user_id: 7, username: 'Seven', channel_slug: 'seven' } });
    return {
      headers: {
        'kick-event-message-id': id,
        'kick-event-message-timestamp': ts,
        'kick-event-signature': sign(key, id, ts, body),
        'kick-event-type': 'channel.followed',
      },
      body,
    };
  };

  it('accepts once, ignores duplicates and unknown broadcasters, accepts late retries, rejects forged and impossible ones, refetches a rotated key', async () => {
    const receiver = new KickWebhookReceiver({ client, store, now: () => now, keyRefetchIntervalMs: 0 });
    const got: PlatformEvent[] = [];
    const ts = new Date(now - 5000).toISOString();
    const d = delivery('01A', ts);
    expect(await receiver.receive(d.headers, d.body)).toBe('ignored'); // nobody registered yet, not remembered
    const off = receiver.register('42', {
      channelProviderId: 'cp',
      emit: async (events) => void got.push(...events),
    });
    expect(await receiver.receive(d.headers, d.body)).toBe('accepted');
    expect(await receiver.receive(d.headers, d.body)).toBe('duplicate');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      kind: 'activity',
      activity: { type: 'follow', provider_event_id: '01A', viewer: { provider_user_id: '7', login: 'seven' } },
    });

    // A retry keeps the first attempt's timestamp: hours old is fine, once.
    const late = delivery('01B', new Date(now - 5 * 3_600_000).toISOString());
    expect(await receiver.receive(late.headers, late.body)).toBe('accepted');
    expect(await receiver.receive(late.headers, late.body)).toBe('duplicate');
    // Older than Kick retries (it unsubscribes after a day of failures) and than the ids are kept: a replay.
    const replay = delivery('01E', new Date(now - 49 * 3_600_000).toISOString());
    await expect(receiver.receive(replay.headers, replay.body)).rejects.toMatchObject({ status: 400 });
    const forged = delivery('01C', ts);
    await expect(receiver.receive(forged.headers, forged.body.replace('Seven', 'Eight'))).rejects.toMatchObject({ status: 403 });

    // Kick rotates its key: the first failure refetches it once.
    const next = generateKeyPairSync('rsa', { modulusLength: 2048 });
    pem = next.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const fetchesBefore = keyFetches;
    now += 1000;
    const rotated = delivery('01D', new Date(now).toISOString(), next.privateKey);
    expect(await receiver.receive(rotated.headers, rotated.body)).toBe('accepted');
    expect(keyFetches).toBe(fetchesBefore + 1);
    off();
    expect(receiver.isRegistered('42')).toBe(false);
  });

  it('refuses (503) a delivery for a stored connection that is not running yet (the server starting), and takes it once it runs', async () => {
    const stored = new Set(['42']);
    const receiver = new KickWebhookReceiver({
      client,
      store,
      now: () => now,
      keyRefetchIntervalMs: 0,
      isStored: async (id) => stored.has(id),
    });
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    pem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const d = delivery('01S', new Date(now - 1000).toISOString(), keys.privateKey);
    await expect(receiver.receive(d.headers, d.body)).rejects.toMatchObject({ status: 503, type: 'unavailable' });
    expect(seen.has('01S')).toBe(false);
    // Its connection starts: Kick's next attempt is stored.
    const got: PlatformEvent[] = [];
    const off = receiver.register('42', { channelProviderId: 'cp', emit: async (events) => void got.push(...events) });
    expect(await receiver.receive(d.headers, d.body)).toBe('accepted');
    expect(got).toHaveLength(1);
    off();
    // Disconnected (no stored connection any more): acknowledged and dropped.
    stored.clear();
    const later = delivery('01T', new Date(now - 1000).toISOString(), keys.privateKey);
    expect(await receiver.receive(later.headers, later.body)).toBe('ignored');
    expect(seen.has('01T')).toBe(false);
  });

  it('answers 2xx only once the events are stored: a delivery the chat log cannot take now is refused (503) and not remembered', async () => {
    const receiver = new KickWebhookReceiver({ client, store, now: () => now, keyRefetchIntervalMs: 0 });
    let refuse = true;
    const got: PlatformEvent[] = [];
    const off = receiver.register('42', {
      channelProviderId: 'cp',
      emit: async (events) => {
        if (refuse) throw new Error('the chat log is not accepting writes');
        got.push(...events);
      },
    });
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    pem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const d = delivery('01E', new Date(now - 1000).toISOString(), keys.privateKey);
    await expect(receiver.receive(d.headers, d.body)).rejects.toMatchObject({ status: 503, type: 'unavailable' });
    expect(seen.has('01E')).toBe(false);
    // Kick delivers it again later: stored this time, then remembered.
    refuse = false;
    expect(await receiver.receive(d.headers, d.body)).toBe('accepted');
    expect(got).toHaveLength(1);
    expect(seen.has('01E')).toBe(true);
    off();
  });

  it('parses emote markup into positions in the rewritten text', () => {
    expect(parseKickContent('[emote:1:A] x [emote:22:BBB]')).toEqual({
      text: 'A x BBB',
      emotes: [
        { start: 0, end: 1, name: 'A', id: '1', source: 'platform', url: 'https://files.kick.com/emotes/1/fullsize' },
        { start: 4, end: 7, name: 'BBB', id: '22', source: 'platform', url: 'https://files.kick.com/emotes/22/fullsize' },
      ],
    });
  });
});
