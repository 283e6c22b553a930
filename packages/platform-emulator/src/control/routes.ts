/** The control API under /_emulator (documented in the package README). */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z } from 'zod';
import { createAccount, setChannelLive } from '../accounts';
import { stringRecord } from '../http/params';
import type { EmulatorServices } from '../services';
import { findTwitchEmotes } from '../twitch/emotes';
import { newId, platforms, type Account, type Platform } from '../world';
import { accountJson, channelJson, findAccount, findChannel } from './lookup';
import {
  accountBody,
  appBody,
  chatBody,
  chattersBody,
  crowdRateBody,
  eventBody,
  faultBody,
  liveBody,
  moderationBanBody,
  moderationDeleteBody,
  platformSchema,
  tokenBody,
} from './schemas';

function parse<T extends z.ZodType>(schema: T, body: unknown, reply: FastifyReply): z.infer<T> | null {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    void reply.code(400).send({ error: 'invalid_body', message: result.error.message });
    return null;
  }
  return result.data;
}

function notFound(reply: FastifyReply, what: string): FastifyReply {
  return reply.code(404).send({ error: 'not_found', message: `${what} not found` });
}

function randomViewer(s: EmulatorServices, platform: Platform): Account | undefined {
  const viewers = s.ctx.world.accountsOf(platform, 'viewer');
  return viewers.length ? s.random.pick(viewers) : undefined;
}

/** `since`: an action seq number or an ISO timestamp. */
function sinceFilter(since: string | undefined): (seq: number, at: Date) => boolean {
  if (!since) return () => true;
  if (/^\d+$/.test(since)) {
    const n = Number(since);
    return (seq) => seq > n;
  }
  const t = Date.parse(since);
  return Number.isNaN(t) ? () => true : (_seq, at) => at.getTime() > t;
}

export async function controlRoutes(app: FastifyInstance, s: EmulatorServices): Promise<void> {
  const world = s.ctx.world;
  const hub = s.twitch.hub;

  app.get('/_emulator/config', async () => s.config());

  app.post('/_emulator/reset', async () => {
    s.reset();
    return { ok: true };
  });

  // ── accounts & channels ─────────────────────────────────────────────────
  app.get('/_emulator/accounts', async (request) => {
    const q = stringRecord(request.query);
    return {
      data: [...world.accounts.values()]
        .filter((a) => (!q.platform || a.platform === q.platform) && (!q.kind || a.kind === q.kind))
        .map(accountJson),
    };
  });

  app.post('/_emulator/accounts', async (request, reply) => {
    const b = parse(accountBody, request.body, reply);
    if (!b) return reply;
    if (b.login && world.accountByLogin(b.platform, b.login))
      return reply.code(409).send({ error: 'conflict', message: `login ${b.login} exists` });
    const account = createAccount(world, s.random, s.ctx.origin(), {
      platform: b.platform,
      kind: b.kind,
      displayName: b.displayName,
      ...(b.login ? { login: b.login } : {}),
      ...(b.premium !== undefined ? { premium: b.premium } : {}),
    });
    return reply.code(201).send(accountJson(account));
  });

  app.get('/_emulator/channels', async (request) => {
    const q = stringRecord(request.query);
    const platform = platformSchema.safeParse(q.platform);
    return { data: world.channelsOf(platform.success ? platform.data : undefined).map((c) => channelJson(world, c)) };
  });

  app.get('/_emulator/channels/:platform/:channel', async (request, reply) => {
    const p = stringRecord(request.params);
    const platform = platformSchema.safeParse(p.platform);
    const channel = platform.success ? findChannel(world, platform.data, p.channel ?? '') : undefined;
    return channel ? channelJson(world, channel) : notFound(reply, 'channel');
  });

  app.post('/_emulator/channels/:platform/:channel/live', async (request, reply) => {
    const p = stringRecord(request.params);
    const platform = platformSchema.safeParse(p.platform);
    const channel = platform.success ? findChannel(world, platform.data, p.channel ?? '') : undefined;
    if (!channel) return notFound(reply, 'channel');
    const b = parse(liveBody, request.body, reply);
    if (!b) return reply;
    if (b.broadcastType && channel.platform === 'youtube') s.ctx.youtube?.setBroadcastType(channel.id, b.broadcastType);
    setChannelLive(world, s.random, channel, b.live, b.viewerCount);
    return channelJson(world, channel);
  });

  /** Who is connected to a channel's chat (Twitch's Get Chatters): join or part users by id or login. */
  app.post('/_emulator/channels/:platform/:channel/chatters', async (request, reply) => {
    const p = stringRecord(request.params);
    const platform = platformSchema.safeParse(p.platform);
    const channel = platform.success ? findChannel(world, platform.data, p.channel ?? '') : undefined;
    if (!channel) return notFound(reply, 'channel');
    const b = parse(chattersBody, request.body, reply);
    if (!b) return reply;
    for (const [list, join] of [
      [b.join ?? [], true],
      [b.part ?? [], false],
    ] as const) {
      for (const who of list) {
        const account = findAccount(world, channel.platform, who);
        if (!account) return notFound(reply, `user ${who}`);
        if (join) channel.chatters.add(account.id);
        else channel.chatters.delete(account.id);
      }
    }
    if (b.clear) channel.chatters.clear();
    return { chatters: [...channel.chatters] };
  });

  // ── inject chat and events ──────────────────────────────────────────────
  app.post('/_emulator/chat', async (request, reply) => {
    const b = parse(chatBody, request.body, reply);
    if (!b) return reply;
    const channel = findChannel(world, b.platform, b.channel);
    if (!channel) return notFound(reply, 'channel');
    const author = b.user ? findAccount(world, b.platform, b.user) : randomViewer(s, b.platform);
    if (!author) return notFound(reply, 'user');
    if (b.replyTo && !world.messages.has(b.replyTo)) return notFound(reply, 'replyTo message');
    const message = world.postChat({
      id: newId(),
      platform: b.platform,
      channelId: channel.id,
      authorId: author.id,
      text: b.text,
      emotes: b.platform === 'twitch' ? findTwitchEmotes(b.text) : [],
      replyToId: b.replyTo ?? null,
      origin: 'control',
      deleted: false,
      createdAt: new Date(),
    });
    return reply.code(201).send({ ...message, createdAt: message.createdAt.toISOString() });
  });

  app.post('/_emulator/events', async (request, reply) => {
    const b = parse(eventBody, request.body, reply);
    if (!b) return reply;
    const channel = findChannel(world, b.platform, b.channel);
    if (!channel) return notFound(reply, 'channel');
    if (b.type === 'stream_online' || b.type === 'stream_offline') {
      setChannelLive(world, s.random, channel, b.type === 'stream_online');
      return reply.code(201).send(world.events[world.events.length - 1] ?? null);
    }
    let userId: string | null;
    if (b.user === null) userId = null;
    else if (b.user === undefined) {
      if (b.type === 'raid') {
        const raider = world.accountsOf(b.platform, 'streamer').find((a) => a.id !== channel.id);
        userId = raider?.id ?? randomViewer(s, b.platform)?.id ?? null;
      } else userId = randomViewer(s, b.platform)?.id ?? null;
    } else {
      const user = findAccount(world, b.platform, b.user);
      if (!user) return notFound(reply, 'user');
      userId = user.id;
    }
    const event = world.postEvent({
      id: newId(),
      platform: b.platform,
      channelId: channel.id,
      type: b.type,
      userId,
      data: b.data ?? {},
      createdAt: new Date(),
    });
    return reply.code(201).send(event);
  });

  // ── a moderator acting in the platform's own chat (not through the product) ──
  // The world reports it like any deletion or ban; each platform plugin turns it into its own wire event
  // (Twitch EventSub, YouTube liveChat/messages items, Kick webhooks where Kick has one). Not recorded in /actions.
  app.post('/_emulator/moderation/delete', async (request, reply) => {
    const b = parse(moderationDeleteBody, request.body, reply);
    if (!b) return reply;
    const channel = findChannel(world, b.platform, b.channel);
    if (!channel) return notFound(reply, 'channel');
    const message = world.messages.get(b.messageId);
    if (!message || message.platform !== b.platform || message.channelId !== channel.id) return notFound(reply, 'message');
    if (b.moderator && !findAccount(world, b.platform, b.moderator)) return notFound(reply, 'moderator');
    if (message.deleted) return reply.code(409).send({ error: 'conflict', message: 'message already deleted' });
    world.deleteChat(message.id);
    return { ...message, createdAt: message.createdAt.toISOString() };
  });

  app.post('/_emulator/moderation/ban', async (request, reply) => {
    const b = parse(moderationBanBody, request.body, reply);
    if (!b) return reply;
    const channel = findChannel(world, b.platform, b.channel);
    if (!channel) return notFound(reply, 'channel');
    const target = findAccount(world, b.platform, b.user);
    if (!target) return notFound(reply, 'user');
    const moderator = b.moderator ? findAccount(world, b.platform, b.moderator) : world.account(b.platform, channel.id);
    if (!moderator) return notFound(reply, 'moderator');
    if (target.id === channel.id) return reply.code(400).send({ error: 'invalid_body', message: 'the broadcaster cannot be banned' });
    const now = new Date();
    const expiresAt = b.durationSeconds === undefined ? null : new Date(now.getTime() + b.durationSeconds * 1000);
    const reason = b.reason ?? '';
    channel.bans.set(target.id, { expiresAt, reason, banId: `${channel.id}:${target.id}:${now.getTime()}` });
    world.emit('ban', { platform: b.platform, channelId: channel.id, userId: target.id, moderatorId: moderator.id, expiresAt, reason });
    return reply.code(201).send({
      platform: b.platform,
      channelId: channel.id,
      userId: target.id,
      moderatorId: moderator.id,
      expiresAt: expiresAt?.toISOString() ?? null,
      reason,
    });
  });

  // ── what the product did ────────────────────────────────────────────────
  app.get('/_emulator/actions', async (request) => {
    const q = stringRecord(request.query);
    const since = sinceFilter(q.since);
    return {
      data: world.actions.filter(
        (a) =>
          (!q.platform || a.platform === q.platform) &&
          (!q.type || a.type === q.type) &&
          (!q.channel || a.channelId === q.channel) &&
          since(a.seq, a.at),
      ),
    };
  });

  app.get('/_emulator/messages', async (request) => {
    const q = stringRecord(request.query);
    const limit = Math.min(Number(q.limit ?? 500) || 500, 5000);
    const since = q.since ? Date.parse(q.since) : NaN;
    const out = [];
    for (const m of world.messages.values()) {
      if (q.platform && m.platform !== q.platform) continue;
      if (q.channel && m.channelId !== q.channel) continue;
      if (q.origin && m.origin !== q.origin) continue;
      if (!Number.isNaN(since) && m.createdAt.getTime() <= since) continue;
      out.push(m);
    }
    return { data: out.slice(-limit) };
  });

  app.get('/_emulator/events', async (request) => {
    const q = stringRecord(request.query);
    return {
      data: world.events.filter(
        (e) => (!q.platform || e.platform === q.platform) && (!q.type || e.type === q.type) && (!q.channel || e.channelId === q.channel),
      ),
    };
  });

  // ── faults ──────────────────────────────────────────────────────────────
  app.get('/_emulator/faults', async () => ({ data: world.faults }));

  app.post('/_emulator/faults', async (request, reply) => {
    const b = parse(faultBody, request.body, reply);
    if (!b) return reply;
    const fault = {
      id: newId(),
      platform: b.platform,
      match: b.match,
      kind: b.kind,
      ...(b.status !== undefined ? { status: b.status } : {}),
      ...(b.delayMs !== undefined ? { delayMs: b.delayMs } : {}),
      remaining: b.count ?? null,
    };
    world.faults.push(fault);
    return reply.code(201).send(fault);
  });

  app.delete('/_emulator/faults', async (_request, reply) => {
    world.faults.length = 0;
    return reply.code(204).send();
  });

  app.delete('/_emulator/faults/:id', async (request, reply) => {
    const id = stringRecord(request.params).id;
    const index = world.faults.findIndex((f) => f.id === id);
    if (index < 0) return notFound(reply, 'fault');
    world.faults.splice(index, 1);
    return reply.code(204).send();
  });

  // ── tokens ──────────────────────────────────────────────────────────────
  const selectTokens = (b: z.infer<typeof tokenBody>) =>
    [...world.tokens.values()].filter(
      (t) =>
        t.platform === b.platform &&
        !t.revoked &&
        (!b.token || t.accessToken === b.token || t.refreshToken === b.token) &&
        (!b.userId || t.userId === b.userId) &&
        (!b.clientId || t.clientId === b.clientId),
    );

  app.post('/_emulator/tokens/expire', async (request, reply) => {
    const b = parse(tokenBody, request.body, reply);
    if (!b) return reply;
    const tokens = selectTokens(b);
    for (const t of tokens) t.expiresAt = new Date(Date.now() - 1000);
    return { expired: tokens.length };
  });

  app.post('/_emulator/tokens/revoke', async (request, reply) => {
    const b = parse(tokenBody, request.body, reply);
    if (!b) return reply;
    const tokens = selectTokens(b);
    if (b.platform === 'twitch' && b.status && b.status !== 'authorization_revoked' && b.userId)
      hub.revokeFor(b.clientId, b.userId, b.status);
    for (const t of tokens) world.revokeToken(t);
    return { revoked: tokens.length };
  });

  // ── Twitch EventSub sockets ─────────────────────────────────────────────
  app.get('/_emulator/twitch/eventsub', async () => ({
    sessions: [...hub.sessions.values()].map((x) => ({
      id: x.id,
      connectedAt: x.connectedAt,
      keepaliveSeconds: x.keepaliveSeconds,
      clientId: x.clientId,
      userId: x.userId,
      subscriptions: [...x.subscriptions],
    })),
    subscriptions: [...hub.subscriptions.values()].map((x) => hub.subscriptionJson(x)),
    settings: hub.settings,
    stats: hub.stats,
  }));

  app.post('/_emulator/twitch/eventsub/drop', async (request) => {
    const b = stringRecord(request.body);
    return { dropped: hub.drop(b.sessionId, b.code ? Number(b.code) : undefined) };
  });

  app.post('/_emulator/twitch/eventsub/reconnect', async (request) => ({
    reconnecting: hub.reconnect(stringRecord(request.body).sessionId),
  }));

  app.post('/_emulator/twitch/eventsub/duplicate', async (request) => {
    const count = Number(stringRecord(request.body).count ?? 1);
    hub.duplicateNext(Number.isInteger(count) && count > 0 ? count : 1);
    return { ok: true };
  });

  app.put('/_emulator/twitch/eventsub/settings', async (request) => {
    const b = stringRecord(request.body);
    if (b.keepaliveSeconds) hub.settings.defaultKeepaliveSeconds = Math.max(1, Math.min(600, Number(b.keepaliveSeconds)));
    if (b.unusedTimeoutMs) hub.settings.unusedTimeoutMs = Math.max(100, Number(b.unusedTimeoutMs));
    if (b.reconnectGraceMs) hub.settings.reconnectGraceMs = Math.max(100, Number(b.reconnectGraceMs));
    if (b.pingIntervalMs !== undefined && Number.isFinite(Number(b.pingIntervalMs)))
      hub.settings.pingIntervalMs = Math.max(0, Number(b.pingIntervalMs));
    if (b.maxConnectionsPerUser) hub.settings.maxConnectionsPerUser = Math.max(1, Number(b.maxConnectionsPerUser));
    return hub.settings;
  });

  app.put('/_emulator/twitch/rate-limit', async (request) => {
    const limit = Number(stringRecord(request.body).limit);
    if (Number.isInteger(limit) && limit > 0) {
      s.twitch.rateLimiter.limit = limit;
      s.twitch.rateLimiter.clear();
    }
    return { limit: s.twitch.rateLimiter.limit };
  });

  // ── crowd ───────────────────────────────────────────────────────────────
  // YouTube's gRPC liveChatMessages.streamList: its address, open streams, and whether it serves.
  app.get('/_emulator/youtube/stream-list', async () => {
    const streamList = s.ctx.youtube!.streamList;
    return { address: streamList.address(), mode: streamList.mode(), openStreams: streamList.openStreams() };
  });
  app.put('/_emulator/youtube/stream-list', async (request, reply) => {
    const mode = (request.body as { mode?: unknown } | undefined)?.mode;
    if (mode !== 'serving' && mode !== 'unavailable' && mode !== 'unimplemented')
      return reply.code(400).send({ error: 'invalid_body', message: 'mode must be serving, unavailable or unimplemented' });
    await s.ctx.youtube!.streamList.setMode(mode);
    return { mode };
  });

  app.get('/_emulator/crowd', async () => s.crowd.status());
  app.post('/_emulator/crowd/start', async () => {
    s.crowd.start();
    return s.crowd.status();
  });
  app.post('/_emulator/crowd/stop', async () => {
    s.crowd.stop();
    return s.crowd.status();
  });
  app.put('/_emulator/crowd/rate', async (request, reply) => {
    const b = parse(crowdRateBody, request.body, reply);
    if (!b) return reply;
    if (b.channel) {
      const channel = findChannel(world, b.platform ?? 'twitch', b.channel);
      if (!channel) return notFound(reply, 'channel');
      s.crowd.setRate(`${channel.platform}:${channel.id}`, b.rate);
    } else s.crowd.setRate(b.rate ?? 0);
    if (b.eventRate !== undefined) s.crowd.setEventRate(b.eventRate);
    return s.crowd.status();
  });
  app.post('/_emulator/crowd/burst', async (request, reply) => {
    const b = stringRecord(request.body);
    const count = Math.min(Math.max(Number(b.count ?? 100) || 0, 0), 1_000_000);
    let channel;
    if (b.channel) {
      const platform = platformSchema.safeParse(b.platform ?? 'twitch');
      channel = platform.success ? findChannel(world, platform.data, b.channel) : undefined;
      if (!channel) return notFound(reply, 'channel');
    }
    return {
      messages: b.events === 'true' ? 0 : s.crowd.burst(count, channel),
      events: b.events === 'true' ? s.crowd.burstEvents(count, channel) : 0,
    };
  });

  // ── registered apps ─────────────────────────────────────────────────────
  app.get('/_emulator/apps', async () => s.ctx.apps);
  app.put('/_emulator/apps/:platform', async (request, reply) => {
    const platform = platformSchema.safeParse(stringRecord(request.params).platform);
    if (!platform.success) return notFound(reply, 'platform');
    const b = parse(appBody, request.body, reply);
    if (!b) return reply;
    const current = s.ctx.apps[platform.data];
    if (!current) return notFound(reply, 'app');
    s.ctx.apps[platform.data] = {
      ...current,
      ...(b.clientId !== undefined ? { clientId: b.clientId } : {}),
      ...(b.clientSecret !== undefined ? { clientSecret: b.clientSecret } : {}),
      ...(b.redirectUris !== undefined ? { redirectUris: b.redirectUris } : {}),
      ...(b.webhookUrl !== undefined ? { webhookUrl: b.webhookUrl } : {}),
      ...(b.accessTokenTtlSeconds !== undefined ? { accessTokenTtlSeconds: b.accessTokenTtlSeconds } : {}),
    };
    return s.ctx.apps[platform.data];
  });

  // ── avatars ─────────────────────────────────────────────────────────────
  app.get('/_emulator/avatar/:platform/:file', async (request, reply) => {
    const p = stringRecord(request.params);
    const platform = (platforms as string[]).includes(p.platform ?? '') ? (p.platform as Platform) : 'twitch';
    const account = world.account(platform, (p.file ?? '').replace(/\.svg$/, ''));
    const letter = (account?.displayName ?? '?')
      .charAt(0)
      .toUpperCase()
      .replace(/[<>&"']/g, '?');
    const color = account?.color ?? '#555555';
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .send(
        `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300"><rect width="300" height="300" fill="${color}"/><text x="150" y="195" font-size="150" text-anchor="middle" fill="#fff" font-family="sans-serif">${letter}</text></svg>`,
      );
  });
}
