/**
 * A typed fetch client for Kick's public API (`{kick.apiUrl}` = v1): chat, moderation, channels, event
 * subscriptions and the webhook public key; categories on v2 (`{kick.apiV2Url}`, v1's are deprecated). Calls
 * run as a TokenSource's account; a 401 refreshes the token once and retries, then asks for reconnecting.
 */
import { z } from 'zod';
import type { TokenSource } from '../port';
import { parseKickError } from './kick-errors';
import { readJsonBody, sendAuthorized } from '../authorized-call';
import { retryAfterSeconds, unreachable, unreadable } from '../platform-error';

export interface KickClientOptions {
  apiUrl: string;
  /** Public API v2 base (categories). Default: `apiUrl` with its trailing `/v1` replaced by `/v2`. */
  apiV2Url?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface CallInput {
  method: Method;
  path: string;
  /** Public API version of the path (default 1). */
  version?: 1 | 2;
  query?: Record<string, string | string[]>;
  body?: unknown;
  /** Words for error messages: "Kick refused to {what}". */
  what: string;
  scope: string | null;
}

const id = z.union([z.number(), z.string()]).transform(String);
const envelope = <T extends z.ZodType>(data: T) => z.object({ data, message: z.string().optional() });

const categorySchema = z.object({ id, name: z.string(), thumbnail: z.string().nullable().optional() });
export type KickCategory = z.infer<typeof categorySchema>;

const channelSchema = z.object({
  broadcaster_user_id: id,
  slug: z.string(),
  stream_title: z.string(),
  category: z.object({ id, name: z.string() }).nullable().optional(),
  stream: z
    .object({ is_live: z.boolean(), viewer_count: z.number().int().nullable().optional(), start_time: z.string().nullable().optional() })
    .nullable()
    .optional(),
});
export type KickChannel = z.infer<typeof channelSchema>;

const subscriptionSchema = z.object({
  id: z.string(),
  event: z.string(),
  version: z.number().int(),
  method: z.string().optional(),
  broadcaster_user_id: id,
});
export type KickSubscription = z.infer<typeof subscriptionSchema>;

const subscribeResultSchema = z.object({
  name: z.string(),
  version: z.number().int(),
  subscription_id: z.string(),
  error: z.string().optional(),
});

export class KickClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: KickClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  private url(path: string, query?: Record<string, string | string[]>, version: 1 | 2 = 1): string {
    const v1 = this.options.apiUrl.replace(/\/$/, '');
    const base = version === 2 ? (this.options.apiV2Url?.replace(/\/$/, '') ?? v1.replace(/\/v1$/, '/v2')) : v1;
    const url = new URL(`${base}/${path.replace(/^\//, '')}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, v);
    }
    return url.toString();
  }

  private async send(input: CallInput, accessToken: string | null): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    if (input.body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.fetch(this.url(input.path, input.query, input.version), {
        method: input.method,
        headers,
        body: input.body === undefined ? null : JSON.stringify(input.body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (cause) {
      throw unreachable('kick', input.what, cause);
    }
  }

  /** One call as `token`'s account (or anonymous when null); returns the parsed JSON body (null for 204). */
  async call(token: TokenSource | null, input: CallInput): Promise<unknown> {
    const response = token ? await sendAuthorized(token, (accessToken) => this.send(input, accessToken)) : await this.send(input, null);
    const body = await readJsonBody(response);
    if (!response.ok)
      throw parseKickError(
        { status: response.status, body, retryAfterSeconds: retryAfterSeconds(response.headers) },
        { what: input.what, scope: input.scope, tokenScopes: token?.scopes ?? [] },
      );
    return body;
  }

  private parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
    const result = schema.safeParse(body);
    if (!result.success) throw unreadable('kick', what);
    return result.data;
  }

  async sendChat(
    token: TokenSource,
    input: { content: string; type: 'user' | 'bot'; broadcasterUserId: string; replyToMessageId?: string },
  ): Promise<{ isSent: boolean; messageId: string }> {
    const what = 'send the message';
    const body: Record<string, unknown> = { content: input.content, type: input.type };
    if (input.type === 'user') body.broadcaster_user_id = Number(input.broadcasterUserId);
    if (input.replyToMessageId) body.reply_to_message_id = input.replyToMessageId;
    const result = await this.call(token, { method: 'POST', path: 'chat', body, what, scope: 'chat:write' });
    const data = this.parse(envelope(z.object({ is_sent: z.boolean(), message_id: z.string().nullable().optional() })), result, what).data;
    return { isSent: data.is_sent, messageId: data.message_id ?? '' };
  }

  async deleteChat(token: TokenSource, messageId: string): Promise<void> {
    await this.call(token, {
      method: 'DELETE',
      path: `chat/${encodeURIComponent(messageId)}`,
      what: 'delete the message',
      scope: 'moderation:chat_message:manage',
    });
  }

  async ban(
    token: TokenSource,
    input: { broadcasterUserId: string; userId: string; durationMinutes?: number; reason?: string },
  ): Promise<void> {
    const body: Record<string, unknown> = { broadcaster_user_id: Number(input.broadcasterUserId), user_id: Number(input.userId) };
    if (input.durationMinutes !== undefined) body.duration = input.durationMinutes;
    if (input.reason) body.reason = input.reason;
    await this.call(token, {
      method: 'POST',
      path: 'moderation/bans',
      body,
      what: input.durationMinutes === undefined ? 'ban the user' : 'time out the user',
      scope: 'moderation:ban',
    });
  }

  async unban(token: TokenSource, input: { broadcasterUserId: string; userId: string }): Promise<void> {
    const body = { broadcaster_user_id: Number(input.broadcasterUserId), user_id: Number(input.userId) };
    await this.call(token, { method: 'DELETE', path: 'moderation/bans', body, what: 'unban the user', scope: 'moderation:ban' });
  }

  async channel(token: TokenSource, broadcasterUserId: string): Promise<KickChannel | null> {
    const what = 'read the channel';
    const result = await this.call(token, {
      method: 'GET',
      path: 'channels',
      query: { broadcaster_user_id: broadcasterUserId },
      what,
      scope: 'channel:read',
    });
    return this.parse(envelope(z.array(channelSchema)), result, what).data[0] ?? null;
  }

  async updateChannel(token: TokenSource, input: { streamTitle?: string; categoryId?: string }): Promise<void> {
    const body: Record<string, unknown> = {};
    if (input.streamTitle !== undefined) body.stream_title = input.streamTitle;
    if (input.categoryId !== undefined) body.category_id = Number(input.categoryId);
    await this.call(token, {
      method: 'PATCH',
      path: 'channels',
      body,
      what: 'update the stream title and category',
      scope: 'channel:write',
    });
  }

  /** Categories whose name contains `query` (v2: `GET /public/v2/categories?name=…&limit=…`). */
  async searchCategories(token: TokenSource, query: string, limit = 25): Promise<KickCategory[]> {
    const what = 'search categories';
    const result = await this.call(token, {
      method: 'GET',
      path: 'categories',
      version: 2,
      query: { name: query, limit: String(limit) },
      what,
      scope: null,
    });
    return this.parse(envelope(z.array(categorySchema)), result, what).data;
  }

  async subscriptions(token: TokenSource, broadcasterUserId: string): Promise<KickSubscription[]> {
    const what = 'list event subscriptions';
    const result = await this.call(token, {
      method: 'GET',
      path: 'events/subscriptions',
      query: { broadcaster_user_id: broadcasterUserId },
      what,
      scope: 'events:subscribe',
    });
    return this.parse(envelope(z.array(subscriptionSchema)), result, what).data;
  }

  async subscribe(
    token: TokenSource,
    broadcasterUserId: string,
    events: readonly string[],
  ): Promise<{ name: string; subscriptionId: string | null; error: string | null }[]> {
    const what = 'subscribe to channel events';
    const body = {
      broadcaster_user_id: Number(broadcasterUserId),
      events: events.map((name) => ({ name, version: 1 })),
      method: 'webhook',
    };
    const result = await this.call(token, { method: 'POST', path: 'events/subscriptions', body, what, scope: 'events:subscribe' });
    return this.parse(envelope(z.array(subscribeResultSchema)), result, what).data.map((r) => ({
      name: r.name,
      subscriptionId: r.subscription_id || null,
      error: r.error ?? null,
    }));
  }

  /** `DELETE /events/subscriptions?id=…&id=…` (204), 50 ids per request (the limit is undocumented; a list of ~330 was seen refused with 400). */
  async unsubscribe(token: TokenSource, subscriptionIds: readonly string[]): Promise<void> {
    for (let i = 0; i < subscriptionIds.length; i += 50) {
      const ids = subscriptionIds.slice(i, i + 50);
      await this.call(token, {
        method: 'DELETE',
        path: 'events/subscriptions',
        query: { id: ids },
        what: 'remove event subscriptions',
        scope: 'events:subscribe',
      });
    }
  }

  /** The PEM public key Kick signs webhooks with (no token needed). */
  async publicKey(): Promise<string> {
    const what = 'read the webhook public key';
    const result = await this.call(null, { method: 'GET', path: 'public-key', what, scope: null });
    return this.parse(envelope(z.object({ public_key: z.string().min(1) })), result, what).data.public_key;
  }
}
