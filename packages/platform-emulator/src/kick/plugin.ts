/**
 * Kick public API (`/kick/public/v1/*`, categories also `/kick/public/v2/categories`), token introspection on the
 * OAuth host (`/kick-id/oauth/token/introspect`) and webhook delivery.
 *
 * Shapes follow KickDevDocs and the OpenAPI file at api.kick.com/swagger/v1/doc.json: success bodies are
 * `{ data, message: "OK" }`, errors `{ data: {}, message }`. Ids are integers on the wire.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { newId, type Account, type Channel, type ChannelEvent, type ChatMessage, type Token } from '../world';
import { kickCategories, type KickCategory } from './categories';
import { bearerToken, kickError, kickId, requireKickToken, ulid } from './http';
import { bannedPayload, chatMessagePayload, eventPayload, kickEventNames, metadataPayload, type KickEventName } from './payloads';
import {
  createKickSigningKey,
  KickWebhookDispatcher,
  type KickDeliveryFault,
  type KickDeliveryOptions,
  type KickDeliveryRecord,
} from './webhooks';

const prefix = '/kick/public/v1';
/** Kick's title limit is unpublished; Greenroom and this emulator use 140. */
export const kickTitleMaxLength = 140;
export const kickChatMaxLength = 500;

export interface KickSubscription {
  id: string;
  appId: string;
  broadcasterUserId: string;
  event: KickEventName;
  version: number;
  method: 'webhook';
  createdAt: Date;
  updatedAt: Date;
}

/** What the core's control API can do with Kick (available as `ctx.kick` once the plugin is registered). */
export interface KickControls {
  /** Duplicate, late and/or back-dated webhook deliveries. `setDeliveryFault({ duplicate: false, delayMs: 0, backdateMs: 0 })` clears them. */
  setDeliveryFault(fault: Partial<KickDeliveryFault>): KickDeliveryFault;
  deliveryFault(): KickDeliveryFault;
  /** Every delivery attempt, oldest first (bounded to 5,000). */
  deliveries(): readonly KickDeliveryRecord[];
  subscriptions(): readonly KickSubscription[];
  /** Resolves once every queued webhook was delivered or gave up. */
  idle(): Promise<void>;
  /** PEM (SPKI) of the key that signs webhooks; also served at GET /kick/public/v1/public-key. */
  readonly publicKeyPem: string;
  /** The account that `type: "bot"` chat messages are sent as (default: the first Kick bot account). */
  setBotAccount(accountId: string | null): void;
  readonly delivery: KickDeliveryOptions;
}

declare module '../context' {
  interface EmulatorContext {
    /** Set by kickPlugin. */
    kick?: KickControls;
  }
}

type Query = Record<string, string | string[] | undefined>;

function many(query: Query, key: string): string[] {
  const value = query[key];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.flatMap((v) => v.split(',')).filter((v) => v !== '');
}

const intLike = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);

const patchChannelBody = z
  .object({
    category_id: intLike.optional(),
    custom_tags: z.array(z.string().max(20)).max(10).optional(),
    stream_title: z.string().optional(),
  })
  .strict();

const chatBody = z.object({
  content: z.string().min(1),
  type: z.enum(['user', 'bot']),
  broadcaster_user_id: intLike.optional(),
  reply_to_message_id: z.string().optional(),
});

const banBody = z.object({
  broadcaster_user_id: intLike,
  user_id: intLike,
  duration: z.number().int().min(1).max(10080).optional(),
  reason: z.string().max(100).optional(),
});

const unbanBody = z.object({ broadcaster_user_id: intLike, user_id: intLike });

const subscribeBody = z.object({
  broadcaster_user_id: intLike.optional(),
  events: z.array(z.object({ name: z.string(), version: z.number().int() })).min(1),
  method: z.literal('webhook'),
});

function metadataSignature(channel: Channel): string {
  return `${channel.title}\u0000${channel.categoryId}`;
}

function isKickEventName(name: string): name is KickEventName {
  return (kickEventNames as readonly string[]).includes(name);
}

function findCategory(id: number): KickCategory | undefined {
  return kickCategories.find((c) => c.id === id);
}

/** A category as v1 endpoints and channels show it (v2 adds `tags`). */
function v1Category(c: KickCategory): { id: number; name: string; thumbnail: string } {
  return { id: c.id, name: c.name, thumbnail: c.thumbnail };
}

function canModerate(channel: Channel, actor: Account | undefined, actorId: string): boolean {
  return actorId === channel.id || channel.moderators.has(actorId) || (actor !== undefined && channel.moderators.has(actor.login));
}

export async function kickPlugin(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { world } = ctx;
  if (world.getMaxListeners() < 100) world.setMaxListeners(100);

  const key = await createKickSigningKey();
  const subscriptions = new Map<string, KickSubscription>();
  const customTags = new Map<string, string[]>();
  const lastMetadata = new Map<string, string>();
  let botAccountId: string | null = null;

  const resolveUrl = (appClientId: string): string | null | undefined => {
    const apps = Object.values(ctx.apps);
    const owner = apps.find((a) => a.clientId === appClientId && a.webhookUrl) ?? ctx.apps.kick;
    return owner?.webhookUrl;
  };
  // Kick retries "over a period of time" without a published schedule: exponential backoff for a day.
  const delivery: KickDeliveryOptions = {
    concurrency: 16,
    maxAttempts: Number.POSITIVE_INFINITY,
    retryBaseMs: 1000,
    maxRetryDelayMs: 5 * 60_000,
    retryDelaysMs: null,
    retryForMs: 24 * 3_600_000,
    timeoutMs: 10_000,
    unsubscribeAfterMs: 24 * 3_600_000,
  };
  const dispatcher = new KickWebhookDispatcher(
    key,
    resolveUrl,
    delivery,
    () => ctx.random(),
    (subscriptionId) => {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) return;
      subscriptions.delete(subscriptionId);
      dispatcher.cancel([subscriptionId]);
      world.record({
        platform: 'kick',
        type: 'unsubscribe',
        channelId: sub.broadcasterUserId,
        actorId: null,
        data: { event: sub.event, subscriptionId, reason: 'webhook_failing' },
      });
    },
  );

  const controls: KickControls = {
    setDeliveryFault(fault) {
      if (fault.duplicate !== undefined) dispatcher.fault.duplicate = fault.duplicate;
      if (fault.delayMs !== undefined) dispatcher.fault.delayMs = Math.max(0, fault.delayMs);
      if (fault.backdateMs !== undefined) dispatcher.fault.backdateMs = Math.max(0, fault.backdateMs);
      return { ...dispatcher.fault };
    },
    deliveryFault: () => ({ ...dispatcher.fault }),
    deliveries: () => dispatcher.log,
    subscriptions: () => [...subscriptions.values()],
    idle: () => dispatcher.idle(),
    publicKeyPem: key.publicKeyPem,
    setBotAccount(accountId) {
      botAccountId = accountId;
    },
    delivery,
  };
  ctx.kick = controls;

  function botAccount(): Account {
    if (botAccountId) {
      const configured = world.account('kick', botAccountId);
      if (configured) return configured;
    }
    for (const account of world.accounts.values()) if (account.platform === 'kick' && account.kind === 'bot') return account;
    const created: Account = {
      id: '90000001',
      platform: 'kick',
      kind: 'bot',
      login: 'greenroombot',
      displayName: 'GreenroomBot',
      color: '#53FC18',
      avatarUrl: '',
      email: 'bot@greenroom.local',
      createdAt: new Date(),
    };
    return world.addAccount(created);
  }

  // ---- delivery of world activity to subscribed apps ----
  function deliver(channelId: string, event: KickEventName, payload: () => unknown): void {
    let body: unknown;
    for (const sub of subscriptions.values()) {
      if (sub.event !== event || sub.broadcasterUserId !== channelId) continue;
      body ??= payload();
      dispatcher.enqueue({ subscriptionId: sub.id, appClientId: sub.appId, eventType: event, eventVersion: sub.version, payload: body });
    }
  }

  const onChat = (message: ChatMessage): void => {
    if (message.platform !== 'kick' || subscriptions.size === 0) return;
    deliver(message.channelId, 'chat.message.sent', () => chatMessagePayload(world, message));
  };
  const onEvent = (event: ChannelEvent): void => {
    if (event.platform !== 'kick' || subscriptions.size === 0) return;
    const mapped = eventPayload(world, event);
    if (mapped) deliver(event.channelId, mapped.name, () => mapped.payload);
  };
  const onBan = (ban: {
    platform: string;
    channelId: string;
    userId: string;
    moderatorId: string;
    expiresAt: Date | null;
    reason: string;
  }): void => {
    if (ban.platform !== 'kick') return;
    deliver(ban.channelId, 'moderation.banned', () => bannedPayload(world, ban));
  };
  const onChannelUpdated = (channel: Channel): void => {
    if (channel.platform !== 'kick') return;
    const signature = metadataSignature(channel);
    const previous = lastMetadata.get(channel.id);
    lastMetadata.set(channel.id, signature);
    // Only a change since the subscription was made (or since the last update) is a metadata event.
    if (previous === undefined || previous === signature) return;
    const thumbnail = findCategory(kickId(channel.categoryId))?.thumbnail ?? '';
    deliver(channel.id, 'livestream.metadata.updated', () => metadataPayload(world, channel, thumbnail));
  };
  const onReset = (): void => {
    subscriptions.clear();
    customTags.clear();
    lastMetadata.clear();
    dispatcher.clear();
    dispatcher.fault.duplicate = false;
    dispatcher.fault.delayMs = 0;
    dispatcher.fault.backdateMs = 0;
  };
  world.on('chat', onChat);
  world.on('event', onEvent);
  world.on('ban', onBan);
  world.on('channel.updated', onChannelUpdated);
  world.on('reset', onReset);
  app.addHook('onClose', async () => {
    world.off('chat', onChat);
    world.off('event', onEvent);
    world.off('ban', onBan);
    world.off('channel.updated', onChannelUpdated);
    world.off('reset', onReset);
    dispatcher.stop();
  });

  // ---- helpers ----
  function channelJson(channel: Channel): Record<string, unknown> {
    const account = world.account('kick', channel.id);
    const categoryId = kickId(channel.categoryId);
    const known = findCategory(categoryId);
    const category = known ? v1Category(known) : { id: categoryId, name: channel.categoryName, thumbnail: '' };
    return {
      banner_picture: '',
      broadcaster_user_id: kickId(channel.id),
      category,
      channel_description: '',
      slug: account?.login ?? channel.id,
      stream: {
        custom_tags: customTags.get(channel.id) ?? [],
        is_live: channel.live,
        is_mature: false,
        key: '',
        language: 'en',
        start_time: channel.live && channel.startedAt ? channel.startedAt.toISOString() : '0001-01-01T00:00:00Z',
        thumbnail: '',
        url: '',
        viewer_count: channel.live ? channel.viewerCount : 0,
      },
      stream_title: channel.title,
    };
  }

  function parseBody<T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply): T | null {
    const parsed = schema.safeParse(body ?? {});
    if (!parsed.success) {
      kickError(reply, 400, 'Invalid request');
      return null;
    }
    return parsed.data;
  }

  function userToken(token: Token, reply: FastifyReply): string | null {
    if (!token.userId) {
      kickError(reply, 403, 'Forbidden');
      return null;
    }
    return token.userId;
  }

  // ---- routes ----
  app.get(`${prefix}/public-key`, async () => ({ data: { public_key: key.publicKeyPem }, message: 'OK' }));

  /** Token introspection (Bearer token): `{ data: { active, client_id, token_type, scope, exp } }`, `active: false` when it is not usable. */
  function introspect(request: FastifyRequest, reply: FastifyReply): FastifyReply | Record<string, unknown> {
    const checked = world.checkToken('kick', bearerToken(request));
    if (!checked.ok) {
      if (checked.reason === 'missing') return kickError(reply, 401, 'Unauthorized');
      return { data: { active: false }, message: 'OK' };
    }
    const token = checked.token;
    return {
      data: {
        active: true,
        client_id: token.clientId,
        exp: Math.floor(token.expiresAt.getTime() / 1000),
        scope: token.scopes.join(' '),
        token_type: token.userId ? 'user' : 'app',
      },
      message: 'OK',
    };
  }

  /** Kick keeps deprecated endpoints working; the emulator records each use so tests can show the product avoids them. */
  function deprecated(request: FastifyRequest, replacement: string): void {
    world.record({
      platform: 'kick',
      type: 'deprecated_endpoint',
      channelId: null,
      actorId: null,
      data: { path: request.url.split('?')[0], replacement },
    });
  }

  // Introspection moved to the OAuth host (changelog 15/01/2026); the /public/v1 one is deprecated.
  app.post('/kick-id/oauth/token/introspect', async (request, reply) => introspect(request, reply));
  app.post(`${prefix}/token/introspect`, async (request, reply) => {
    deprecated(request, 'POST https://id.kick.com/oauth/token/introspect');
    return introspect(request, reply);
  });

  app.get(`${prefix}/users`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = requireKickToken(ctx, request, reply, 'user:read');
    if (!token) return reply;
    const ids = many(request.query, 'id');
    const wanted = ids.length > 0 ? ids : token.userId ? [token.userId] : [];
    if (ids.some((id) => !/^\d+$/.test(id))) return kickError(reply, 400, 'Invalid request');
    const data = wanted
      .map((id) => world.account('kick', id))
      .filter((a): a is Account => a !== undefined)
      .map((a) => ({
        email: a.id === token.userId ? a.email : '',
        name: a.displayName,
        profile_picture: a.avatarUrl,
        user_id: kickId(a.id),
      }));
    return { data, message: 'OK' };
  });

  app.get(`${prefix}/channels`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = requireKickToken(ctx, request, reply);
    if (!token) return reply;
    const ids = many(request.query, 'broadcaster_user_id');
    const slugs = many(request.query, 'slug');
    if ((ids.length > 0 && slugs.length > 0) || ids.length > 50 || slugs.length > 50) return kickError(reply, 400, 'Invalid request');
    let channels: (Channel | undefined)[];
    if (ids.length > 0) channels = ids.map((id) => world.channel('kick', id));
    else if (slugs.length > 0)
      channels = slugs.map((slug) => world.accountByLogin('kick', slug)).map((a) => (a ? world.channel('kick', a.id) : undefined));
    else channels = token.userId ? [world.channel('kick', token.userId)] : [];
    return { data: channels.filter((c): c is Channel => c !== undefined).map(channelJson), message: 'OK' };
  });

  app.patch(`${prefix}/channels`, async (request, reply) => {
    const token = requireKickToken(ctx, request, reply, 'channel:write');
    if (!token) return reply;
    const userId = userToken(token, reply);
    if (!userId) return reply;
    const body = parseBody(patchChannelBody, request.body, reply);
    if (!body) return reply;
    if (body.category_id === undefined && body.stream_title === undefined && body.custom_tags === undefined)
      return kickError(reply, 400, 'Invalid request');
    const channel = world.channel('kick', userId);
    if (!channel) return kickError(reply, 404, 'Not Found');
    if (body.stream_title !== undefined && (body.stream_title.length > kickTitleMaxLength || body.stream_title.trim() === '')) {
      return kickError(reply, 400, 'Invalid request');
    }
    let category: KickCategory | undefined;
    if (body.category_id !== undefined) {
      category = findCategory(body.category_id);
      if (!category) return kickError(reply, 404, 'Not Found');
    }
    if (body.stream_title !== undefined) {
      const previous = channel.title;
      channel.title = body.stream_title;
      world.record({
        platform: 'kick',
        type: 'title',
        channelId: channel.id,
        actorId: userId,
        data: { title: body.stream_title, previous },
      });
    }
    if (category) {
      const previous = channel.categoryId;
      channel.categoryId = String(category.id);
      channel.categoryName = category.name;
      world.record({
        platform: 'kick',
        type: 'category',
        channelId: channel.id,
        actorId: userId,
        data: { categoryId: String(category.id), categoryName: category.name, previous },
      });
    }
    if (body.custom_tags) customTags.set(channel.id, body.custom_tags);
    world.emit('channel.updated', channel);
    return reply.code(204).send();
  });

  // Categories v1 (deprecated since 15/01/2026 in favour of v2): `q` substring, pages of 100.
  app.get(`${prefix}/categories`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = requireKickToken(ctx, request, reply);
    if (!token) return reply;
    deprecated(request, 'GET /public/v2/categories');
    const q = many(request.query, 'q')[0];
    if (!q) return kickError(reply, 400, 'Invalid request');
    const page = Math.max(1, Number(many(request.query, 'page')[0] ?? 1) || 1);
    const matches = kickCategories.filter((c) => c.name.toLowerCase().includes(q.toLowerCase()));
    return { data: matches.slice((page - 1) * 100, page * 100).map(v1Category), message: 'OK' };
  });

  // Categories v2: explicit filters (`name`, `id`, `tag`, each repeatable), `limit` 1-100 (default 25) and an opaque cursor.
  app.get('/kick/public/v2/categories', async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = requireKickToken(ctx, request, reply);
    if (!token) return reply;
    const query = request.query;
    const names = [...many(query, 'name'), ...many(query, 'name[]')].map((n) => n.toLowerCase());
    const ids = [...many(query, 'id'), ...many(query, 'id[]')];
    const tags = [...many(query, 'tag'), ...many(query, 'tag[]')].map((t) => t.toLowerCase());
    const rawLimit = many(query, 'limit')[0];
    const limit = rawLimit === undefined ? 25 : Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100 || ids.some((id) => !/^\d+$/.test(id)))
      return kickError(reply, 400, 'Invalid request');
    const cursor = many(query, 'cursor')[0];
    let offset = 0;
    if (cursor) {
      const decoded = /^o(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
      if (!decoded) return kickError(reply, 400, 'Invalid request');
      offset = Number(decoded[1]);
    }
    const matches = kickCategories.filter(
      (c) =>
        (names.length === 0 || names.some((n) => c.name.toLowerCase().includes(n))) &&
        (ids.length === 0 || ids.includes(String(c.id))) &&
        (tags.length === 0 || c.tags.some((t) => tags.includes(t.toLowerCase()))),
    );
    const page = matches.slice(offset, offset + limit);
    const next = offset + limit < matches.length ? Buffer.from(`o${offset + limit}`).toString('base64url') : '';
    return { data: page, message: 'OK', pagination: { next_cursor: next } };
  });

  app.get(`${prefix}/categories/:category_id`, async (request: FastifyRequest<{ Params: { category_id: string } }>, reply) => {
    const token = requireKickToken(ctx, request, reply);
    if (!token) return reply;
    if (!/^\d+$/.test(request.params.category_id)) return kickError(reply, 400, 'Invalid request');
    const category = findCategory(Number(request.params.category_id));
    if (!category) return kickError(reply, 404, 'Not Found');
    return { data: v1Category(category), message: 'OK' };
  });

  app.post(`${prefix}/chat`, async (request, reply) => {
    const token = requireKickToken(ctx, request, reply, 'chat:write');
    if (!token) return reply;
    const body = parseBody(chatBody, request.body, reply);
    if (!body) return reply;
    if (body.content.length > kickChatMaxLength) return kickError(reply, 400, 'Invalid request');
    let channel: Channel | undefined;
    let author: Account;
    if (body.type === 'bot') {
      // A bot message goes into the token owner's channel, as the app's bot account.
      const userId = userToken(token, reply);
      if (!userId) return reply;
      channel = world.channel('kick', userId);
      author = botAccount();
    } else {
      if (body.broadcaster_user_id === undefined) return kickError(reply, 400, 'Invalid request');
      const userId = userToken(token, reply);
      if (!userId) return reply;
      const account = world.account('kick', userId);
      if (!account) return kickError(reply, 401, 'Unauthorized');
      author = account;
      channel = world.channel('kick', String(body.broadcaster_user_id));
    }
    if (!channel) return kickError(reply, 404, 'Not Found');
    let replyToId: string | null = null;
    if (body.reply_to_message_id) {
      const parent = world.messages.get(body.reply_to_message_id);
      if (!parent || parent.platform !== 'kick' || parent.channelId !== channel.id) return kickError(reply, 400, 'Invalid request');
      replyToId = parent.id;
    }
    const ban = channel.bans.get(author.id);
    if (ban && (ban.expiresAt === null || ban.expiresAt.getTime() > Date.now())) {
      world.record({
        platform: 'kick',
        type: 'chat.send',
        channelId: channel.id,
        actorId: author.id,
        data: { text: body.content, type: body.type, replyToId, isSent: false },
      });
      return { data: { is_sent: false, message_id: '' }, message: 'OK' };
    }
    const message: ChatMessage = {
      id: newId(),
      platform: 'kick',
      channelId: channel.id,
      authorId: author.id,
      text: body.content,
      emotes: [],
      replyToId,
      origin: 'product',
      sentAs: body.type,
      deleted: false,
      createdAt: new Date(),
    };
    world.postChat(message);
    world.record({
      platform: 'kick',
      type: 'chat.send',
      channelId: channel.id,
      actorId: author.id,
      data: { messageId: message.id, text: body.content, type: body.type, replyToId, isSent: true },
    });
    return { data: { is_sent: true, message_id: message.id }, message: 'OK' };
  });

  app.delete(`${prefix}/chat/:message_id`, async (request: FastifyRequest<{ Params: { message_id: string } }>, reply) => {
    const token = requireKickToken(ctx, request, reply, 'moderation:chat_message:manage');
    if (!token) return reply;
    const userId = userToken(token, reply);
    if (!userId) return reply;
    const message = world.messages.get(request.params.message_id);
    if (!message || message.platform !== 'kick') return kickError(reply, 404, 'Not Found');
    const channel = world.channel('kick', message.channelId);
    if (!channel || !canModerate(channel, world.account('kick', userId), userId)) return kickError(reply, 403, 'Forbidden');
    world.deleteChat(message.id);
    world.record({
      platform: 'kick',
      type: 'chat.delete',
      channelId: channel.id,
      actorId: userId,
      data: { messageId: message.id, userId: message.authorId },
    });
    return reply.code(204).send();
  });

  app.post(`${prefix}/moderation/bans`, async (request, reply) => {
    const token = requireKickToken(ctx, request, reply, 'moderation:ban');
    if (!token) return reply;
    const userId = userToken(token, reply);
    if (!userId) return reply;
    const body = parseBody(banBody, request.body, reply);
    if (!body) return reply;
    const channel = world.channel('kick', String(body.broadcaster_user_id));
    if (!channel) return kickError(reply, 404, 'Not Found');
    if (!canModerate(channel, world.account('kick', userId), userId)) return kickError(reply, 403, 'Forbidden');
    const target = String(body.user_id);
    if (!world.account('kick', target)) return kickError(reply, 404, 'Not Found');
    if (target === channel.id) return kickError(reply, 400, 'Invalid request');
    const expiresAt = body.duration ? new Date(Date.now() + body.duration * 60_000) : null;
    const reason = body.reason ?? '';
    channel.bans.set(target, { expiresAt, reason, banId: newId() });
    world.emit('ban', { platform: 'kick', channelId: channel.id, userId: target, moderatorId: userId, expiresAt, reason });
    world.record({
      platform: 'kick',
      type: body.duration ? 'timeout' : 'ban',
      channelId: channel.id,
      actorId: userId,
      data: { userId: target, durationMinutes: body.duration ?? null, durationSeconds: body.duration ? body.duration * 60 : null, reason },
    });
    return { data: {}, message: 'OK' };
  });

  app.delete(`${prefix}/moderation/bans`, async (request, reply) => {
    const token = requireKickToken(ctx, request, reply, 'moderation:ban');
    if (!token) return reply;
    const userId = userToken(token, reply);
    if (!userId) return reply;
    const body = parseBody(unbanBody, request.body, reply);
    if (!body) return reply;
    const channel = world.channel('kick', String(body.broadcaster_user_id));
    if (!channel) return kickError(reply, 404, 'Not Found');
    if (!canModerate(channel, world.account('kick', userId), userId)) return kickError(reply, 403, 'Forbidden');
    const target = String(body.user_id);
    channel.bans.delete(target);
    world.emit('unban', { platform: 'kick', channelId: channel.id, userId: target, moderatorId: userId });
    world.record({ platform: 'kick', type: 'unban', channelId: channel.id, actorId: userId, data: { userId: target } });
    return { data: {}, message: 'OK' };
  });

  function subscriptionToken(request: FastifyRequest, reply: FastifyReply): Token | null {
    const token = requireKickToken(ctx, request, reply);
    if (!token) return null;
    if (token.userId && !token.scopes.includes('events:subscribe')) {
      kickError(reply, 403, 'Forbidden');
      return null;
    }
    return token;
  }

  app.get(`${prefix}/events/subscriptions`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = subscriptionToken(request, reply);
    if (!token) return reply;
    const broadcaster = many(request.query, 'broadcaster_user_id')[0];
    const data = [...subscriptions.values()]
      .filter((s) => s.appId === token.clientId && (broadcaster === undefined || s.broadcasterUserId === broadcaster))
      .map((s) => ({
        app_id: s.appId,
        broadcaster_user_id: kickId(s.broadcasterUserId),
        created_at: s.createdAt.toISOString(),
        event: s.event,
        id: s.id,
        method: s.method,
        updated_at: s.updatedAt.toISOString(),
        version: s.version,
      }));
    return { data, message: 'OK' };
  });

  app.post(`${prefix}/events/subscriptions`, async (request, reply) => {
    const token = subscriptionToken(request, reply);
    if (!token) return reply;
    const body = parseBody(subscribeBody, request.body, reply);
    if (!body) return reply;
    const broadcasterId = body.broadcaster_user_id !== undefined ? String(body.broadcaster_user_id) : token.userId;
    if (!broadcasterId) return kickError(reply, 400, 'Invalid request');
    if (!world.channel('kick', broadcasterId)) return kickError(reply, 404, 'Not Found');
    const data = body.events.map((wanted) => {
      if (!isKickEventName(wanted.name) || wanted.version !== 1) {
        return { error: 'invalid event name or version', name: wanted.name, subscription_id: '', version: wanted.version };
      }
      const existing = [...subscriptions.values()].find(
        (s) =>
          s.appId === token.clientId && s.broadcasterUserId === broadcasterId && s.event === wanted.name && s.version === wanted.version,
      );
      if (existing) return { name: existing.event, subscription_id: existing.id, version: existing.version };
      const now = new Date();
      const sub: KickSubscription = {
        id: ulid(Date.now(), () => ctx.random()),
        appId: token.clientId,
        broadcasterUserId: broadcasterId,
        event: wanted.name,
        version: wanted.version,
        method: 'webhook',
        createdAt: now,
        updatedAt: now,
      };
      subscriptions.set(sub.id, sub);
      const subscribed = world.channel('kick', broadcasterId);
      if (sub.event === 'livestream.metadata.updated' && subscribed && !lastMetadata.has(broadcasterId))
        lastMetadata.set(broadcasterId, metadataSignature(subscribed));
      world.record({
        platform: 'kick',
        type: 'subscribe',
        channelId: broadcasterId,
        actorId: token.userId,
        data: { event: sub.event, version: sub.version, subscriptionId: sub.id },
      });
      return { name: sub.event, subscription_id: sub.id, version: sub.version };
    });
    return { data, message: 'OK' };
  });

  app.delete(`${prefix}/events/subscriptions`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = subscriptionToken(request, reply);
    if (!token) return reply;
    const ids = many(request.query, 'id');
    if (ids.length === 0) return kickError(reply, 400, 'Invalid request');
    const removed: string[] = [];
    for (const id of ids) {
      const sub = subscriptions.get(id);
      // Only the app's own subscriptions; unknown ids are ignored (still 204).
      if (!sub || sub.appId !== token.clientId) continue;
      subscriptions.delete(id);
      removed.push(id);
      world.record({
        platform: 'kick',
        type: 'unsubscribe',
        channelId: sub.broadcasterUserId,
        actorId: token.userId,
        data: { event: sub.event, subscriptionId: id },
      });
    }
    // A deleted subscription gets no further webhook, not even one already queued or being retried.
    dispatcher.cancel(removed);
    return reply.code(204).send();
  });
}
