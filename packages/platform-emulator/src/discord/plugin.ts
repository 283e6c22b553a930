/**
 * Discord REST subset under `/discord/api/*` (also `/discord/api/v10/*`): users/@me, webhook execute and edit of a
 * webhook's message, and bot channel messages. Every post is recorded as a `discord.message` action, every edit as
 * `discord.message_edited`.
 *
 * Webhooks follow Discord's documented behaviour: an unknown webhook answers 404 (code 10015), a wrong token 401
 * (50027), a message the webhook did not send 404 (10008); each webhook takes 5 requests per 2 seconds (its own
 * rate-limit bucket) and answers 429 past that with `retry_after` (seconds, a float), `global: false` and the
 * `Retry-After` header; role mentions (`<@&id>`) ping only as `allowed_mentions` permits (everything when it is
 * absent), reported as the message's `mention_roles`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import { newToken, type Account, type DiscordWebhook, type Token, type World } from '../world';

const discordEpoch = 1_420_070_400_000n;
/** Requests per webhook per window (Discord's webhook bucket). */
const WEBHOOK_LIMIT = 5;
const WEBHOOK_WINDOW_MS = 2_000;

export function snowflake(random: () => number = Math.random, at = Date.now()): string {
  const increment = BigInt(Math.floor(random() * 4096));
  const worker = BigInt(Math.floor(random() * 1024));
  return (((BigInt(at) - discordEpoch) << 22n) | (worker << 12n) | increment).toString();
}

/** The webhook object Discord returns in the OAuth token response for the `webhook.incoming` scope. */
export interface DiscordWebhookObject {
  type: 1;
  id: string;
  name: string;
  avatar: null;
  channel_id: string;
  guild_id: string;
  application_id: string;
  token: string;
  url: string;
}

/** Creates an incoming webhook for an account (what the consent screen does for `webhook.incoming`). */
export function createDiscordWebhook(
  world: World,
  input: {
    userId: string;
    applicationId: string;
    origin: string;
    channelId?: string;
    guildId?: string;
    name?: string;
    random?: () => number;
  },
): DiscordWebhookObject {
  const random = input.random ?? Math.random;
  const hook: DiscordWebhook = {
    id: snowflake(random),
    token: newToken(48),
    channelId: input.channelId ?? snowflake(random),
    guildId: input.guildId ?? snowflake(random),
    name: input.name ?? 'Greenroom',
    userId: input.userId,
    applicationId: input.applicationId,
    createdAt: new Date(),
  };
  world.discordWebhooks.set(hook.id, hook);
  return {
    type: 1,
    id: hook.id,
    name: hook.name,
    avatar: null,
    channel_id: hook.channelId,
    guild_id: hook.guildId,
    application_id: hook.applicationId,
    token: hook.token,
    url: `${input.origin}/discord/api/webhooks/${hook.id}/${hook.token}`,
  };
}

export interface DiscordPostedMessage {
  id: string;
  via: 'webhook' | 'bot';
  channelId: string;
  content: string;
  embeds: unknown[];
  allowedMentions: unknown;
  at: Date;
}

/** A message a webhook sent (kept so it can be edited). */
interface WebhookMessage {
  id: string;
  webhookId: string;
  channelId: string;
  username: string;
  content: string;
  embeds: unknown[];
  allowedMentions: unknown;
  tts: boolean;
  at: Date;
  editedAt: Date | null;
}

/** The role ids a message's content pings, as `allowed_mentions` permits (absent: every mention in the content pings). */
export function mentionedRoles(content: string, allowedMentions: unknown): string[] {
  const inContent = [...content.matchAll(/<@&(\d{17,20})>/g)].map((m) => m[1]!);
  if (allowedMentions === undefined || allowedMentions === null) return [...new Set(inContent)];
  if (!isRecord(allowedMentions)) return [];
  const parse = Array.isArray(allowedMentions.parse) ? allowedMentions.parse : [];
  const roles = Array.isArray(allowedMentions.roles) ? allowedMentions.roles.map(String) : [];
  return [...new Set(inContent.filter((id) => parse.includes('roles') || roles.includes(id)))];
}

/** Discord refuses `parse: ["roles"]` together with a `roles` list (they are mutually exclusive). */
function invalidAllowedMentions(allowedMentions: unknown): boolean {
  if (allowedMentions === undefined || allowedMentions === null) return false;
  if (!isRecord(allowedMentions)) return true;
  const parse = Array.isArray(allowedMentions.parse) ? allowedMentions.parse : [];
  if (parse.includes('roles') && Array.isArray(allowedMentions.roles) && allowedMentions.roles.length > 0) return true;
  if (parse.includes('users') && Array.isArray(allowedMentions.users) && allowedMentions.users.length > 0) return true;
  return Array.isArray(allowedMentions.roles) && allowedMentions.roles.length > 100;
}

export interface DiscordControls {
  /** The bot token to configure in the product (`Authorization: Bot <token>`), for the first Discord bot account. */
  botToken(): string;
  /** Messages posted through webhooks and the bot, oldest first (bounded to 1,000). */
  messages(): readonly DiscordPostedMessage[];
  /** A webhook message as it is now (after edits), or null. */
  webhookMessage(id: string): { content: string; embeds: unknown[]; editedAt: Date | null; mentionRoles: string[] } | null;
}

declare module '../context' {
  interface EmulatorContext {
    /** Set by discordPlugin. */
    discord?: DiscordControls;
  }
}

type Body = Record<string, unknown>;

function discordError(reply: FastifyReply, status: number, code: number, message: string, errors?: unknown): FastifyReply {
  return reply.code(status).send({ message, code, ...(errors ? { errors } : {}) });
}

function isRecord(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function allowedMentionsError(reply: FastifyReply): FastifyReply {
  return discordError(reply, 400, 50035, 'Invalid Form Body', {
    allowed_mentions: {
      _errors: [{ code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE', message: 'parse:["roles"] and roles: [ids] are mutually exclusive.' }],
    },
  });
}

/** Discord's form-body validation: returns the `errors` object, or null when valid. */
function validateMessage(body: Body): { status: number; code: number; message: string; errors?: unknown } | null {
  const content = body.content;
  const embeds = body.embeds;
  if (content !== undefined && content !== null && typeof content !== 'string') {
    return {
      status: 400,
      code: 50035,
      message: 'Invalid Form Body',
      errors: { content: { _errors: [{ code: 'BASE_TYPE_STRING', message: 'Must be a string.' }] } },
    };
  }
  if (typeof content === 'string' && content.length > 2000) {
    return {
      status: 400,
      code: 50035,
      message: 'Invalid Form Body',
      errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } },
    };
  }
  if (embeds !== undefined && (!Array.isArray(embeds) || embeds.length > 10)) {
    return {
      status: 400,
      code: 50035,
      message: 'Invalid Form Body',
      errors: { embeds: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' }] } },
    };
  }
  const hasContent = typeof content === 'string' && content.trim() !== '';
  const hasEmbeds = Array.isArray(embeds) && embeds.length > 0;
  if (!hasContent && !hasEmbeds) return { status: 400, code: 50006, message: 'Cannot send an empty message' };
  return null;
}

export async function discordPlugin(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { world } = ctx;
  const posted: DiscordPostedMessage[] = [];
  const webhookMessages = new Map<string, WebhookMessage>();
  const windows = new Map<string, { start: number; count: number }>();
  let bot: Token | null = null;

  function botAccount(): Account {
    for (const a of world.accounts.values()) if (a.platform === 'discord' && a.kind === 'bot') return a;
    return world.addAccount({
      id: snowflake(() => ctx.random()),
      platform: 'discord',
      kind: 'bot',
      login: 'greenroom',
      displayName: 'Greenroom',
      color: '#5865F2',
      avatarUrl: '',
      email: '',
      createdAt: new Date(),
    });
  }

  const controls: DiscordControls = {
    botToken() {
      if (!bot || !world.checkToken('discord', bot.accessToken).ok) {
        const account = botAccount();
        bot = world.issueToken({
          platform: 'discord',
          clientId: ctx.apps.discord?.clientId ?? 'discord-bot',
          userId: account.id,
          scopes: ['bot'],
          ttlSeconds: 10 * 365 * 24 * 3600,
          refreshable: false,
        });
      }
      return bot.accessToken;
    },
    messages: () => posted,
    webhookMessage(id) {
      const m = webhookMessages.get(id);
      return m
        ? { content: m.content, embeds: m.embeds, editedAt: m.editedAt, mentionRoles: mentionedRoles(m.content, m.allowedMentions) }
        : null;
    },
  };
  ctx.discord = controls;
  const onReset = (): void => {
    posted.length = 0;
    webhookMessages.clear();
    windows.clear();
    bot = null;
  };
  world.on('reset', onReset);
  app.addHook('onClose', async () => void world.off('reset', onReset));

  function rateLimitHeaders(reply: FastifyReply, bucket: string): void {
    reply
      .header('x-ratelimit-limit', '5')
      .header('x-ratelimit-remaining', '4')
      .header('x-ratelimit-reset', ((Date.now() + 1000) / 1000).toFixed(3))
      .header('x-ratelimit-reset-after', '1.000')
      .header('x-ratelimit-bucket', bucket);
  }

  /**
   * Counts a request against the webhook's bucket and sets the rate-limit headers; false (the 429 sent) past the limit.
   */
  function takeWebhookRequest(reply: FastifyReply, hookId: string): boolean {
    const now = Date.now();
    let w = windows.get(hookId);
    if (!w || now - w.start >= WEBHOOK_WINDOW_MS) {
      w = { start: now, count: 0 };
      windows.set(hookId, w);
    }
    const resetAfter = (w.start + WEBHOOK_WINDOW_MS - now) / 1000;
    reply
      .header('x-ratelimit-limit', String(WEBHOOK_LIMIT))
      .header('x-ratelimit-reset', ((w.start + WEBHOOK_WINDOW_MS) / 1000).toFixed(3))
      .header('x-ratelimit-reset-after', resetAfter.toFixed(3))
      .header('x-ratelimit-bucket', `webhook-${hookId}`);
    if (w.count >= WEBHOOK_LIMIT) {
      reply
        .header('x-ratelimit-remaining', '0')
        .header('x-ratelimit-scope', 'user')
        .header('retry-after', String(Math.max(1, Math.ceil(resetAfter))));
      void reply.code(429).send({ message: 'You are being rate limited.', retry_after: Number(resetAfter.toFixed(3)), global: false });
      return false;
    }
    w.count += 1;
    reply.header('x-ratelimit-remaining', String(WEBHOOK_LIMIT - w.count));
    return true;
  }

  function webhookMessageJson(m: WebhookMessage, hook: DiscordWebhook): Body {
    const author = { bot: true, id: hook.id, username: m.username, avatar: null, discriminator: '0000' };
    return {
      ...messageJson(
        m.id,
        m.channelId,
        author,
        { content: m.content, embeds: m.embeds, tts: m.tts },
        {
          webhook_id: hook.id,
          application_id: hook.applicationId,
        },
      ),
      timestamp: m.at.toISOString(),
      edited_timestamp: m.editedAt ? m.editedAt.toISOString() : null,
      mention_roles: mentionedRoles(m.content, m.allowedMentions),
      mention_everyone: false,
    };
  }

  function userJson(a: Account, withEmail: boolean): Body {
    const body: Body = {
      id: a.id,
      username: a.login,
      avatar: null,
      discriminator: '0',
      public_flags: 0,
      flags: 0,
      banner: null,
      accent_color: null,
      global_name: a.kind === 'bot' ? null : a.displayName,
      avatar_decoration_data: null,
      banner_color: null,
      mfa_enabled: false,
      locale: 'en-US',
      premium_type: 0,
    };
    if (a.kind === 'bot') body.bot = true;
    if (withEmail) {
      body.email = a.email;
      body.verified = true;
    }
    return body;
  }

  function record(message: DiscordPostedMessage, actorId: string | null): void {
    posted.push(message);
    if (posted.length > 1000) posted.splice(0, posted.length - 1000);
    world.record({
      platform: 'discord',
      type: 'discord.message',
      channelId: message.channelId,
      actorId,
      data: {
        messageId: message.id,
        via: message.via,
        content: message.content,
        embeds: message.embeds,
        allowedMentions: message.allowedMentions,
      },
    });
  }

  function messageJson(id: string, channelId: string, author: Body, body: Body, extra: Body): Body {
    return {
      type: 0,
      channel_id: channelId,
      content: typeof body.content === 'string' ? body.content : '',
      attachments: [],
      embeds: Array.isArray(body.embeds) ? body.embeds : [],
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      flags: 0,
      components: [],
      id,
      author,
      mentions: [],
      mention_roles: [],
      pinned: false,
      mention_everyone: false,
      tts: body.tts === true,
      ...extra,
    };
  }

  // ---- users/@me ----
  const me = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const botMatch = /^Bot\s+(\S+)$/i.exec(header);
    const bearerMatch = /^Bearer\s+(\S+)$/i.exec(header);
    const checked = world.checkToken('discord', botMatch?.[1] ?? bearerMatch?.[1]);
    if (!checked.ok || !checked.token.userId) return discordError(reply, 401, 0, '401: Unauthorized');
    const isBot = botMatch !== null && checked.token.scopes.includes('bot');
    if (!isBot && !checked.token.scopes.includes('identify')) return discordError(reply, 401, 0, '401: Unauthorized');
    const account = world.account('discord', checked.token.userId);
    if (!account) return discordError(reply, 401, 0, '401: Unauthorized');
    rateLimitHeaders(reply, 'users-me');
    return userJson(account, checked.token.scopes.includes('email'));
  };
  app.get('/discord/api/users/@me', me);
  app.get('/discord/api/v10/users/@me', me);

  // ---- webhook execute ----
  const executeWebhook = async (
    request: FastifyRequest<{ Params: { id: string; token: string }; Querystring: { wait?: string; thread_id?: string } }>,
    reply: FastifyReply,
  ) => {
    const hook = world.discordWebhooks.get(request.params.id);
    if (!hook) return discordError(reply, 404, 10015, 'Unknown Webhook');
    if (hook.token !== request.params.token) return discordError(reply, 401, 50027, 'Invalid Webhook Token');
    if (!takeWebhookRequest(reply, hook.id)) return reply;
    const body = isRecord(request.body) ? request.body : {};
    const invalid = validateMessage(body);
    if (invalid) return discordError(reply, invalid.status, invalid.code, invalid.message, invalid.errors);
    if (invalidAllowedMentions(body.allowed_mentions)) return allowedMentionsError(reply);
    const id = snowflake(() => ctx.random());
    const name = typeof body.username === 'string' && body.username !== '' ? body.username : hook.name;
    const stored: WebhookMessage = {
      id,
      webhookId: hook.id,
      channelId: hook.channelId,
      username: name,
      content: typeof body.content === 'string' ? body.content : '',
      embeds: Array.isArray(body.embeds) ? body.embeds : [],
      allowedMentions: body.allowed_mentions,
      tts: body.tts === true,
      at: new Date(),
      editedAt: null,
    };
    webhookMessages.set(id, stored);
    if (webhookMessages.size > 10_000) webhookMessages.delete(webhookMessages.keys().next().value!);
    record(
      {
        id,
        via: 'webhook',
        channelId: hook.channelId,
        content: typeof body.content === 'string' ? body.content : '',
        embeds: Array.isArray(body.embeds) ? body.embeds : [],
        allowedMentions: body.allowed_mentions ?? null,
        at: new Date(),
      },
      hook.userId,
    );
    if (request.query.wait !== 'true') return reply.code(204).send();
    return webhookMessageJson(stored, hook);
  };
  app.post('/discord/api/webhooks/:id/:token', executeWebhook);
  app.post('/discord/api/v10/webhooks/:id/:token', executeWebhook);

  // ---- edit a webhook's message ----
  const editWebhookMessage = async (
    request: FastifyRequest<{ Params: { id: string; token: string; message_id: string } }>,
    reply: FastifyReply,
  ) => {
    const hook = world.discordWebhooks.get(request.params.id);
    if (!hook) return discordError(reply, 404, 10015, 'Unknown Webhook');
    if (hook.token !== request.params.token) return discordError(reply, 401, 50027, 'Invalid Webhook Token');
    if (!takeWebhookRequest(reply, hook.id)) return reply;
    const message = webhookMessages.get(request.params.message_id);
    if (!message || message.webhookId !== hook.id) return discordError(reply, 404, 10008, 'Unknown Message');
    const body = isRecord(request.body) ? request.body : {};
    // Only the fields sent change; null clears one.
    const content = 'content' in body ? (body.content ?? '') : message.content;
    const embeds = 'embeds' in body ? (body.embeds ?? []) : message.embeds;
    const invalid = validateMessage({ content, embeds });
    if (invalid) return discordError(reply, invalid.status, invalid.code, invalid.message, invalid.errors);
    if (invalidAllowedMentions(body.allowed_mentions)) return allowedMentionsError(reply);
    message.content = content as string;
    message.embeds = embeds as unknown[];
    if ('allowed_mentions' in body) message.allowedMentions = body.allowed_mentions;
    message.editedAt = new Date();
    world.record({
      platform: 'discord',
      type: 'discord.message_edited',
      channelId: message.channelId,
      actorId: hook.userId,
      data: { messageId: message.id, content: message.content, embeds: message.embeds, allowedMentions: message.allowedMentions ?? null },
    });
    return webhookMessageJson(message, hook);
  };
  app.patch('/discord/api/webhooks/:id/:token/messages/:message_id', editWebhookMessage);
  app.patch('/discord/api/v10/webhooks/:id/:token/messages/:message_id', editWebhookMessage);

  // ---- control: webhooks made in a Discord server's settings (Integrations → Webhooks) ----
  app.post('/_emulator/discord/webhooks', async (request) => {
    const body = isRecord(request.body) ? request.body : {};
    const owner = [...world.accounts.values()].find((a) => a.platform === 'discord' && a.kind !== 'bot');
    const hook = createDiscordWebhook(world, {
      userId: owner?.id ?? botAccount().id,
      applicationId: ctx.apps.discord?.clientId ?? 'discord-app',
      origin: 'https://discord.com',
      ...(typeof body.name === 'string' ? { name: body.name } : {}),
      random: () => ctx.random(),
    });
    return { ...hook, url: `https://discord.com/api/webhooks/${hook.id}/${hook.token}` };
  });
  app.delete('/_emulator/discord/webhooks/:id', async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    world.discordWebhooks.delete(request.params.id);
    return reply.code(204).send();
  });

  // ---- bot channel messages ----
  const createMessage = async (request: FastifyRequest<{ Params: { channel_id: string } }>, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const botMatch = /^Bot\s+(\S+)$/i.exec(header);
    const checked = world.checkToken('discord', botMatch?.[1]);
    if (!botMatch || !checked.ok || !checked.token.userId || !checked.token.scopes.includes('bot'))
      return discordError(reply, 401, 0, '401: Unauthorized');
    const account = world.account('discord', checked.token.userId);
    if (!account) return discordError(reply, 401, 0, '401: Unauthorized');
    const channelId = request.params.channel_id;
    if (!/^\d{17,20}$/.test(channelId)) return discordError(reply, 404, 10003, 'Unknown Channel');
    const body = isRecord(request.body) ? request.body : {};
    const invalid = validateMessage(body);
    if (invalid) return discordError(reply, invalid.status, invalid.code, invalid.message, invalid.errors);
    const id = snowflake(() => ctx.random());
    record(
      {
        id,
        via: 'bot',
        channelId,
        content: typeof body.content === 'string' ? body.content : '',
        embeds: Array.isArray(body.embeds) ? body.embeds : [],
        allowedMentions: body.allowed_mentions ?? null,
        at: new Date(),
      },
      account.id,
    );
    rateLimitHeaders(reply, `channel-${channelId}`);
    const author = {
      id: account.id,
      username: account.login,
      avatar: null,
      discriminator: '0',
      public_flags: 0,
      flags: 0,
      bot: true,
      global_name: null,
    };
    return messageJson(id, channelId, author, body, {});
  };
  app.post('/discord/api/channels/:channel_id/messages', createMessage);
  app.post('/discord/api/v10/channels/:channel_id/messages', createMessage);
}
