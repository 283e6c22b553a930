import { createPublicKey, verify } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kickPlugin } from '../src/kick/plugin';
import { newId, type ChatMessage } from '../src/world';
import { account, channel, objectContaining, startHarness, startReceiver, token, type Harness } from './plugin-harness';

const allScopes = [
  'user:read',
  'channel:read',
  'channel:write',
  'chat:write',
  'events:subscribe',
  'moderation:ban',
  'moderation:chat_message:manage',
];

let h: Harness;
let streamerToken: string;

beforeEach(async () => {
  h = await startHarness(kickPlugin);
  account(h.world, 'kick', '1001', 'streamer', 'streamer');
  account(h.world, 'kick', '2001', 'viewer1');
  account(h.world, 'kick', '2002', 'viewer2');
  account(h.world, 'kick', '3001', 'kickbot', 'bot');
  channel(h.world, 'kick', '1001');
  streamerToken = token(h.world, 'kick', '1001', allScopes);
});

afterEach(async () => {
  await h.close();
});

function api(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, bearer: string | null, body?: unknown) {
  return h.app.inject({
    method,
    url: `/kick/public/v1${path}`,
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
  });
}

function viewerMessage(text: string, authorId = '2001'): ChatMessage {
  return {
    id: newId(),
    platform: 'kick',
    channelId: '1001',
    authorId,
    text,
    emotes: [],
    replyToId: null,
    origin: 'control',
    deleted: false,
    createdAt: new Date(),
  };
}

describe('Kick identity and channels', () => {
  it('returns the token user from GET /users without ids', async () => {
    const res = await api('GET', '/users', streamerToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [{ email: 'streamer@example.test', name: 'Streamer', profile_picture: 'https://example.test/streamer.png', user_id: 1001 }],
      message: 'OK',
    });
  });

  it('answers 401 with Kick body for a bad token and 403 for a missing scope', async () => {
    const bad = await api('GET', '/users', 'nope');
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ data: {}, message: 'Unauthorized' });
    const limited = token(h.world, 'kick', '1001', ['user:read']);
    const res = await api('PATCH', '/channels', limited, { stream_title: 'x' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ data: {} });
  });

  it('looks channels up by slug or id and rejects mixing both', async () => {
    const bySlug = await api('GET', '/channels?slug=streamer', streamerToken);
    expect(bySlug.json<{ data: unknown[] }>().data[0]).toMatchObject({
      broadcaster_user_id: 1001,
      slug: 'streamer',
      stream_title: 'Hello stream',
      stream: { is_live: true, viewer_count: 42 },
    });
    const mixed = await api('GET', '/channels?slug=streamer&broadcaster_user_id=1001', streamerToken);
    expect(mixed.statusCode).toBe(400);
  });

  it('updates title and category with 204 and records both, rejecting a 141-char title', async () => {
    const long = await api('PATCH', '/channels', streamerToken, { stream_title: 'x'.repeat(141) });
    expect(long.statusCode).toBe(400);
    const cats = await h.app.inject({
      method: 'GET',
      url: '/kick/public/v2/categories?name=just',
      headers: { authorization: `Bearer ${streamerToken}` },
    });
    const justChatting = cats.json<{ data: unknown[] }>().data[0];
    expect(justChatting).toMatchObject({ id: 15, name: 'Just Chatting' });
    const res = await api('PATCH', '/channels', streamerToken, { stream_title: 'New title', category_id: 28 });
    expect(res.statusCode).toBe(204);
    expect(h.world.channel('kick', '1001')).toMatchObject({ title: 'New title', categoryId: '28', categoryName: 'Slots & Casino' });
    expect(h.world.actions.map((a) => a.type)).toEqual(['title', 'category']);
    expect((await api('GET', '/categories/999999', streamerToken)).statusCode).toBe(404);
  });
});

describe('Kick chat and moderation', () => {
  it('sends as user with a reply and as bot into the token owner channel', async () => {
    const parent = h.world.postChat(viewerMessage('hi streamer'));
    const res = await api('POST', '/chat', streamerToken, {
      content: 'hello back',
      type: 'user',
      broadcaster_user_id: 1001,
      reply_to_message_id: parent.id,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: { is_sent: boolean; message_id: string } }>();
    expect(body).toMatchObject({ data: { is_sent: true }, message: 'OK' });
    const sent = h.world.messages.get(body.data.message_id);
    expect(sent).toMatchObject({ authorId: '1001', replyToId: parent.id, origin: 'product', sentAs: 'user' });

    const bot = await api('POST', '/chat', streamerToken, { content: 'I am a bot', type: 'bot' });
    const botMessage = h.world.messages.get(bot.json<{ data: { message_id: string } }>().data.message_id);
    expect(botMessage).toMatchObject({ authorId: '3001', channelId: '1001', sentAs: 'bot' });

    const noChannel = await api('POST', '/chat', streamerToken, { content: 'x', type: 'user' });
    expect(noChannel.statusCode).toBe(400);
  });

  it('bans with minutes and a reason, validates limits, and unbans with a JSON body', async () => {
    // Timeouts are whole minutes, 1 to 10,080: no 30 s, no 1.5 min.
    for (const duration of [0, 0.5, 1.5]) {
      expect(
        (await api('POST', '/moderation/bans', streamerToken, { broadcaster_user_id: 1001, user_id: 2001, duration })).statusCode,
      ).toBe(400);
    }
    expect(
      (await api('POST', '/moderation/bans', streamerToken, { broadcaster_user_id: 1001, user_id: 2001, duration: 10081 })).statusCode,
    ).toBe(400);
    expect(
      (await api('POST', '/moderation/bans', streamerToken, { broadcaster_user_id: 1001, user_id: 2001, reason: 'r'.repeat(101) }))
        .statusCode,
    ).toBe(400);
    const viewerToken = token(h.world, 'kick', '2002', allScopes);
    expect((await api('POST', '/moderation/bans', viewerToken, { broadcaster_user_id: 1001, user_id: 2001 })).statusCode).toBe(403);

    const res = await api('POST', '/moderation/bans', streamerToken, {
      broadcaster_user_id: 1001,
      user_id: 2001,
      duration: 10,
      reason: 'spam',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: {}, message: 'OK' });
    const ban = h.world.channel('kick', '1001')!.bans.get('2001');
    expect(ban?.reason).toBe('spam');
    expect(ban!.expiresAt!.getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(h.world.actions.at(-1)).toMatchObject({ type: 'timeout', data: { userId: '2001', durationMinutes: 10, durationSeconds: 600 } });

    const unban = await api('DELETE', '/moderation/bans', streamerToken, { broadcaster_user_id: 1001, user_id: 2001 });
    expect(unban.statusCode).toBe(200);
    expect(h.world.channel('kick', '1001')!.bans.has('2001')).toBe(false);
  });

  it('deletes a viewer message with 204 and refuses non-moderators', async () => {
    const message = h.world.postChat(viewerMessage('bad words'));
    const viewerToken = token(h.world, 'kick', '2002', allScopes);
    expect((await api('DELETE', `/chat/${message.id}`, viewerToken)).statusCode).toBe(403);
    const res = await api('DELETE', `/chat/${message.id}`, streamerToken);
    expect(res.statusCode).toBe(204);
    expect(h.world.messages.get(message.id)?.deleted).toBe(true);
  });
});

describe('Kick webhooks', () => {
  async function subscribe(events: string[]) {
    const res = await api('POST', '/events/subscriptions', streamerToken, {
      events: events.map((name) => ({ name, version: 1 })),
      method: 'webhook',
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: { name: string; subscription_id: string; error?: string }[] }>().data;
  }

  it('signs deliveries so that the served public key verifies them', async () => {
    const receiver = await startReceiver();
    try {
      h.ctx.apps.kick!.webhookUrl = receiver.url;
      const [sub] = await subscribe(['chat.message.sent']);
      const listed = await api('GET', '/events/subscriptions', streamerToken);
      expect(listed.json<{ data: unknown[] }>().data).toEqual([
        objectContaining({
          id: sub!.subscription_id,
          event: 'chat.message.sent',
          broadcaster_user_id: 1001,
          method: 'webhook',
          version: 1,
        }),
      ]);

      const message = h.world.postChat({ ...viewerMessage('hello KEKW'), emotes: [{ id: '37226', name: 'KEKW', start: 6, end: 9 }] });
      await h.ctx.kick!.idle();

      expect(receiver.received).toHaveLength(1);
      const delivery = receiver.received[0]!;
      expect(delivery.headers['kick-event-type']).toBe('chat.message.sent');
      expect(delivery.headers['kick-event-version']).toBe('1');
      expect(delivery.headers['kick-event-subscription-id']).toBe(sub!.subscription_id);
      expect(delivery.headers['kick-event-message-id']).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);

      const pem = (await api('GET', '/public-key', null)).json<{ data: { public_key: string } }>().data.public_key;
      const signed = `${delivery.headers['kick-event-message-id'] as string}.${delivery.headers['kick-event-message-timestamp'] as string}.${delivery.body}`;
      const signature = Buffer.from(delivery.headers['kick-event-signature'] as string, 'base64');
      expect(verify('sha256', Buffer.from(signed), createPublicKey(pem), signature)).toBe(true);
      expect(verify('sha256', Buffer.from(signed + ' '), createPublicKey(pem), signature)).toBe(false);

      const payload: unknown = JSON.parse(delivery.body);
      expect(payload).toMatchObject({
        message_id: message.id,
        broadcaster: { user_id: 1001, channel_slug: 'streamer', is_anonymous: false },
        sender: { user_id: 2001, username: 'Viewer1', channel_slug: 'viewer1', identity: { username_color: '#FF5733', badges: [] } },
        content: 'hello [emote:37226:KEKW]',
        emotes: [{ emote_id: '37226', positions: [{ s: 6, e: 23 }] }],
      });
    } finally {
      await receiver.close();
    }
  });

  it('retries a failed delivery with the same message id, and duplicates on demand', async () => {
    const receiver = await startReceiver((_req, index) => (index === 0 ? 500 : 200));
    try {
      h.ctx.apps.kick!.webhookUrl = receiver.url;
      h.ctx.kick!.delivery.retryDelaysMs = [1];
      await subscribe(['channel.followed']);
      h.world.postEvent({
        id: newId(),
        platform: 'kick',
        channelId: '1001',
        type: 'follow',
        userId: '2001',
        data: {},
        createdAt: new Date(),
      });
      await h.ctx.kick!.idle();
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[0]!.headers['kick-event-message-id']).toBe(receiver.received[1]!.headers['kick-event-message-id']);
      expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({
        broadcaster: { user_id: 1001 },
        follower: { user_id: 2001, username: 'Viewer1' },
      });

      h.ctx.kick!.setDeliveryFault({ duplicate: true });
      h.world.postEvent({
        id: newId(),
        platform: 'kick',
        channelId: '1001',
        type: 'follow',
        userId: '2002',
        data: {},
        createdAt: new Date(),
      });
      await h.ctx.kick!.idle();
      expect(receiver.received).toHaveLength(4);
      expect(receiver.received[2]!.headers['kick-event-message-id']).toBe(receiver.received[3]!.headers['kick-event-message-id']);
      expect(receiver.received[2]!.body).toBe(receiver.received[3]!.body);
    } finally {
      await receiver.close();
    }
  });

  it('reads the webhook URL at delivery time, maps subs, gifts, kicks, bans and stream status', async () => {
    const receiver = await startReceiver();
    try {
      await subscribe([
        'channel.subscription.new',
        'channel.subscription.gifts',
        'kicks.gifted',
        'moderation.banned',
        'livestream.status.updated',
      ]);
      h.ctx.kick!.setDeliveryFault({ delayMs: 20 });
      h.world.postEvent({
        id: newId(),
        platform: 'kick',
        channelId: '1001',
        type: 'sub',
        userId: '2001',
        data: { months: 1 },
        createdAt: new Date(),
      });
      h.ctx.apps.kick!.webhookUrl = receiver.url; // set after the event was queued
      h.world.postEvent({
        id: newId(),
        platform: 'kick',
        channelId: '1001',
        type: 'gift',
        userId: null,
        data: { count: 2 },
        createdAt: new Date(),
      });
      h.world.postEvent({
        id: newId(),
        platform: 'kick',
        channelId: '1001',
        type: 'kicks',
        userId: '2002',
        data: { amount: 500, message: 'w' },
        createdAt: new Date(),
      });
      h.world.postEvent({
        id: newId(),
        platform: 'kick',
        channelId: '1001',
        type: 'raid',
        userId: '2002',
        data: {},
        createdAt: new Date(),
      });
      await api('POST', '/moderation/bans', streamerToken, { broadcaster_user_id: 1001, user_id: 2001, reason: 'spam' });
      h.world.postEvent({
        id: newId(),
        platform: 'kick',
        channelId: '1001',
        type: 'stream_offline',
        userId: null,
        data: {},
        createdAt: new Date(),
      });
      await h.ctx.kick!.idle();

      const byType = new Map(
        receiver.received.map((r) => [r.headers['kick-event-type'] as string, JSON.parse(r.body) as Record<string, unknown>]),
      );
      expect([...byType.keys()].sort()).toEqual([
        'channel.subscription.gifts',
        'channel.subscription.new',
        'kicks.gifted',
        'livestream.status.updated',
        'moderation.banned',
      ]);
      expect(byType.get('channel.subscription.new')).toMatchObject({ subscriber: { user_id: 2001 }, duration: 1 });
      expect(byType.get('channel.subscription.gifts')).toMatchObject({
        gifter: { is_anonymous: true, user_id: null },
        giftees: [{ user_id: 2001 }, { user_id: 2002 }],
      });
      expect(byType.get('kicks.gifted')).toMatchObject({ sender: { user_id: 2002 }, gift: { amount: 500, message: 'w' } });
      expect(byType.get('moderation.banned')).toMatchObject({
        banned_user: { user_id: 2001 },
        moderator: { user_id: 1001 },
        metadata: { reason: 'spam', expires_at: null },
      });
      expect(byType.get('livestream.status.updated')).toMatchObject({ is_live: false, title: 'Hello stream' });
    } finally {
      await receiver.close();
    }
  });

  it('rejects unknown events per entry and deletes subscriptions', async () => {
    const [bad] = await subscribe(['channel.raided']);
    expect(bad!.error).toBeTruthy();
    const [good] = await subscribe(['channel.followed']);
    const del = await api('DELETE', `/events/subscriptions?id=${good!.subscription_id}`, streamerToken);
    expect(del.statusCode).toBe(204);
    expect(h.ctx.kick!.subscriptions()).toHaveLength(0);
  });

  it('delivers nothing more for a deleted subscription: not new events, queued ones or retries; only the app deletes its own', async () => {
    const receiver = await startReceiver();
    try {
      h.ctx.apps.kick!.webhookUrl = receiver.url;
      const [chat, follow] = await subscribe(['chat.message.sent', 'channel.followed']);
      const otherApp = token(h.world, 'kick', '1001', allScopes, 'other-kick-app');
      expect((await api('DELETE', `/events/subscriptions?id=${chat!.subscription_id}`, otherApp)).statusCode).toBe(204);
      expect(h.ctx.kick!.subscriptions()).toHaveLength(2); // another app's ids are not this app's to delete
      expect((await api('DELETE', '/events/subscriptions', streamerToken)).statusCode).toBe(400);

      h.ctx.kick!.setDeliveryFault({ delayMs: 50 });
      h.world.postChat(viewerMessage('queued before the delete'));
      h.world.postEvent({
        id: newId(),
        platform: 'kick',
        channelId: '1001',
        type: 'follow',
        userId: '2001',
        data: {},
        createdAt: new Date(),
      });
      const del = await api(
        'DELETE',
        `/events/subscriptions?id=${chat!.subscription_id}&id=${follow!.subscription_id}&id=01UNKNOWN0000000000000000000`,
        streamerToken,
      );
      expect(del.statusCode).toBe(204);
      expect(del.body).toBe('');
      h.world.postChat(viewerMessage('sent after the delete'));
      await h.ctx.kick!.idle();
      h.ctx.kick!.setDeliveryFault({ delayMs: 0 });
      expect(receiver.received).toHaveLength(0);
      expect(h.ctx.kick!.subscriptions()).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});

describe('Kick categories, introspection and webhook retries', () => {
  it('serves categories v2 with explicit filters, a limit and a cursor; v1 still answers but is recorded as deprecated', async () => {
    const v2 = (query: string) =>
      h.app.inject({ method: 'GET', url: `/kick/public/v2/categories${query}`, headers: { authorization: `Bearer ${streamerToken}` } });
    const found = await v2('?name=counter');
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({
      data: [{ id: 10, name: 'Counter-Strike 2', thumbnail: expect.any(String), tags: ['FPS', 'Shooter'] }],
      message: 'OK',
      pagination: { next_cursor: '' },
    });
    const first = (await v2('?tag=fps&limit=2')).json<{ data: { id: number }[]; pagination: { next_cursor: string } }>();
    expect(first.data).toHaveLength(2);
    expect(first.pagination.next_cursor).not.toBe('');
    const second = (await v2(`?tag=fps&limit=2&cursor=${first.pagination.next_cursor}`)).json<{ data: { id: number }[] }>();
    expect(second.data.map((c) => c.id)).not.toContain(first.data[0]!.id);
    expect((await v2('?id=5&id=17')).json<{ data: { name: string }[] }>().data.map((c) => c.name)).toEqual(['Minecraft', 'Valorant']);
    for (const bad of ['?limit=0', '?limit=101', '?id=abc', '?cursor=nope']) expect((await v2(bad)).statusCode).toBe(400);
    expect((await h.app.inject({ method: 'GET', url: '/kick/public/v2/categories?name=x' })).statusCode).toBe(401);

    expect(h.world.actions.some((a) => a.type === 'deprecated_endpoint')).toBe(false);
    const v1 = await api('GET', '/categories?q=counter', streamerToken);
    expect(v1.json()).toEqual({ data: [{ id: 10, name: 'Counter-Strike 2', thumbnail: expect.any(String) }], message: 'OK' });
    expect(h.world.actions.at(-1)).toMatchObject({
      type: 'deprecated_endpoint',
      data: { path: '/kick/public/v1/categories', replacement: 'GET /public/v2/categories' },
    });
  });

  it('introspects a token on the OAuth host: active with its client and scopes, inactive once revoked', async () => {
    const introspect = (bearer: string | null) =>
      h.app.inject({
        method: 'POST',
        url: '/kick-id/oauth/token/introspect',
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      });
    const active = await introspect(streamerToken);
    expect(active.json()).toEqual({
      data: { active: true, client_id: 'kick-client', token_type: 'user', scope: allScopes.join(' '), exp: expect.any(Number) },
      message: 'OK',
    });
    expect((await introspect(null)).statusCode).toBe(401);
    h.world.revokeToken(h.world.tokens.get(streamerToken)!);
    expect((await introspect(streamerToken)).json()).toEqual({ data: { active: false }, message: 'OK' });
    expect(h.world.actions.some((a) => a.type === 'deprecated_endpoint')).toBe(false);
  });

  it("retries late with the first attempt's id, timestamp and signature, and unsubscribes an app failing for too long", async () => {
    let failing = true;
    const receiver = await startReceiver(() => (failing ? 503 : 200));
    try {
      h.ctx.apps.kick!.webhookUrl = receiver.url;
      h.ctx.kick!.delivery.retryDelaysMs = [1, 1];
      h.ctx.kick!.delivery.maxAttempts = 3;
      h.ctx.kick!.setDeliveryFault({ backdateMs: 30 * 60_000 });
      const [sub] = await api('POST', '/events/subscriptions', streamerToken, {
        events: [{ name: 'channel.followed', version: 1 }],
        method: 'webhook',
      }).then((r) => r.json<{ data: { subscription_id: string }[] }>().data);
      const follow = (userId: string) =>
        h.world.postEvent({ id: newId(), platform: 'kick', channelId: '1001', type: 'follow', userId, data: {}, createdAt: new Date() });
      follow('2001');
      await h.ctx.kick!.idle();
      expect(receiver.received).toHaveLength(3);
      const headers = receiver.received.map((r) => r.headers);
      for (const key of ['kick-event-message-id', 'kick-event-message-timestamp', 'kick-event-signature'])
        expect(new Set(headers.map((x) => x[key])).size).toBe(1);
      expect(Date.now() - Date.parse(headers[0]!['kick-event-message-timestamp'] as string)).toBeGreaterThan(29 * 60_000);

      // Failing since the first attempt: past the threshold, the next failure unsubscribes the app from that event.
      h.ctx.kick!.delivery.unsubscribeAfterMs = 0;
      follow('2002');
      await h.ctx.kick!.idle();
      expect(h.ctx.kick!.subscriptions()).toHaveLength(0);
      expect(h.world.actions.at(-1)).toMatchObject({
        type: 'unsubscribe',
        data: { subscriptionId: sub!.subscription_id, reason: 'webhook_failing' },
      });
      failing = false;
      const before = receiver.received.length;
      follow('2001');
      await h.ctx.kick!.idle();
      expect(receiver.received).toHaveLength(before);
    } finally {
      await receiver.close();
    }
  });

  it('keeps a subscription whose failures end in a success', async () => {
    let calls = 0;
    const receiver = await startReceiver(() => (++calls % 2 === 1 ? 500 : 200));
    try {
      h.ctx.apps.kick!.webhookUrl = receiver.url;
      h.ctx.kick!.delivery.retryDelaysMs = [1];
      h.ctx.kick!.delivery.unsubscribeAfterMs = 60_000;
      await api('POST', '/events/subscriptions', streamerToken, { events: [{ name: 'channel.followed', version: 1 }], method: 'webhook' });
      for (const userId of ['2001', '2002'])
        h.world.postEvent({ id: newId(), platform: 'kick', channelId: '1001', type: 'follow', userId, data: {}, createdAt: new Date() });
      await h.ctx.kick!.idle();
      expect(h.ctx.kick!.subscriptions()).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('Kick metadata webhook', () => {
  it('sends livestream.metadata.updated when the title changes after subscribing, not before', async () => {
    const receiver = await startReceiver();
    try {
      h.ctx.apps.kick!.webhookUrl = receiver.url;
      h.world.emit('channel.updated', h.world.channel('kick', '1001')!);
      await api('POST', '/events/subscriptions', streamerToken, {
        events: [{ name: 'livestream.metadata.updated', version: 1 }],
        method: 'webhook',
      });
      h.world.emit('channel.updated', h.world.channel('kick', '1001')!); // nothing changed
      expect((await api('PATCH', '/channels', streamerToken, { stream_title: 'Metadata title', category_id: 28 })).statusCode).toBe(204);
      await h.ctx.kick!.idle();
      expect(receiver.received).toHaveLength(1);
      expect(JSON.parse(receiver.received[0]!.body) as unknown).toMatchObject({
        broadcaster: { user_id: 1001 },
        metadata: { title: 'Metadata title', category: { id: 28, name: 'Slots & Casino' } },
      });
    } finally {
      await receiver.close();
    }
  });
});
