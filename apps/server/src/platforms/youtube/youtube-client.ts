/**
 * A typed fetch client for the YouTube Data API v3 subset Greenroom uses (live broadcasts, live chat
 * messages and bans, videos, video categories), on the configured `youtube.apiUrl`. Calls run as a
 * TokenSource's account; a 401 refreshes once and retries, then asks for reconnecting.
 */
import { z } from 'zod';
import type { TokenSource } from '../port';
import { isQuotaError, parseYoutubeError } from './youtube-errors';
import { youtubeQuotaCosts, type YoutubeMethod } from './youtube-quota';
import { readJsonBody, sendAuthorized } from '../authorized-call';
import { PlatformError, retryAfterSeconds, unreachable, unreadable } from '../platform-error';

export interface YoutubeClientOptions {
  apiUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Told of every request YouTube performed (each one is charged) and of quotaExceeded answers. */
  quota?: { spend(method: YoutubeMethod): void; exhausted(): void };
}

/** The API method (quota cost key) of a request. */
function methodOf(method: Method, path: string): YoutubeMethod | null {
  const resource: Record<string, string> = {
    liveBroadcasts: 'liveBroadcasts',
    'liveChat/messages': 'liveChatMessages',
    'liveChat/bans': 'liveChatBans',
    videos: 'videos',
    videoCategories: 'videoCategories',
    channels: 'channels',
  };
  const verb = { GET: 'list', POST: 'insert', PUT: 'update', DELETE: 'delete' }[method];
  const name = resource[path] ? `${resource[path]}.${verb}` : null;
  return name !== null && name in youtubeQuotaCosts ? (name as YoutubeMethod) : null;
}

const authorDetailsSchema = z.object({
  channelId: z.string(),
  displayName: z.string(),
  profileImageUrl: z.string().optional(),
  isVerified: z.boolean().optional(),
  isChatOwner: z.boolean().optional(),
  isChatSponsor: z.boolean().optional(),
  isChatModerator: z.boolean().optional(),
});

export const chatItemSchema = z.object({
  id: z.string(),
  snippet: z
    .object({
      type: z.string(),
      authorChannelId: z.string().optional(),
      publishedAt: z.string().optional(),
      displayMessage: z.string().optional(),
      textMessageDetails: z.object({ messageText: z.string() }).optional(),
      superChatDetails: z
        .object({
          amountMicros: z.string().optional(),
          currency: z.string().optional(),
          amountDisplayString: z.string(),
          userComment: z.string().optional(),
          tier: z.number().optional(),
        })
        .optional(),
      superStickerDetails: z
        .object({
          amountDisplayString: z.string(),
          tier: z.number().optional(),
          superStickerMetadata: z.object({ altText: z.string().optional(), stickerId: z.string().optional() }).optional(),
        })
        .optional(),
      newSponsorDetails: z.object({ memberLevelName: z.string().optional(), isUpgrade: z.boolean().optional() }).optional(),
      memberMilestoneChatDetails: z
        .object({ memberLevelName: z.string().optional(), memberMonth: z.number().optional(), userComment: z.string().optional() })
        .optional(),
      membershipGiftingDetails: z.object({ giftMembershipsCount: z.number(), giftMembershipsLevelName: z.string().optional() }).optional(),
      giftMembershipReceivedDetails: z
        .object({
          memberLevelName: z.string().optional(),
          gifterChannelId: z.string().optional(),
          associatedMembershipGiftingMessageId: z.string().optional(),
        })
        .optional(),
      messageDeletedDetails: z.object({ deletedMessageId: z.string() }).optional(),
      userBannedDetails: z
        .object({
          bannedUserDetails: z.object({ channelId: z.string(), displayName: z.string().optional() }),
          banType: z.string().optional(),
          banDurationSeconds: z.union([z.string(), z.number()]).optional(),
        })
        .optional(),
    })
    .loose(),
  authorDetails: authorDetailsSchema.optional(),
});
export type YoutubeChatItem = z.infer<typeof chatItemSchema>;

const chatPageSchema = z.object({
  items: z.array(chatItemSchema).default([]),
  nextPageToken: z.string().optional(),
  pollingIntervalMillis: z.number().optional(),
  offlineAt: z.string().optional(),
});
export type YoutubeChatPage = z.infer<typeof chatPageSchema>;

const broadcastListSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string(),
        snippet: z
          .object({ title: z.string().optional(), liveChatId: z.string().optional(), actualStartTime: z.string().optional() })
          .optional(),
        status: z.object({ lifeCycleStatus: z.string().optional() }).optional(),
      }),
    )
    .default([]),
});

const videoSnippetSchema = z
  .object({
    title: z.string(),
    description: z.string().optional(),
    tags: z.array(z.string()).optional(),
    categoryId: z.string().optional(),
    defaultLanguage: z.string().optional(),
    defaultAudioLanguage: z.string().optional(),
  })
  .loose();
export type YoutubeVideoSnippet = z.infer<typeof videoSnippetSchema>;

const videoListSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string(),
        snippet: videoSnippetSchema.optional(),
        liveStreamingDetails: z
          .object({
            concurrentViewers: z.string().optional(),
            activeLiveChatId: z.string().optional(),
            actualStartTime: z.string().optional(),
          })
          .optional(),
      }),
    )
    .default([]),
});
export type YoutubeVideo = z.infer<typeof videoListSchema>['items'][number];

const categoryListSchema = z.object({
  items: z.array(z.object({ id: z.string(), snippet: z.object({ title: z.string(), assignable: z.boolean().optional() }) })).default([]),
});

export interface YoutubeBroadcast {
  videoId: string;
  liveChatId: string;
  title: string;
  startedAt: string | null;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export class YoutubeClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: YoutubeClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  private async send(
    method: Method,
    path: string,
    query: Record<string, string>,
    body: unknown,
    accessToken: string,
    what: string,
  ): Promise<Response> {
    const url = new URL(`${this.options.apiUrl.replace(/\/$/, '')}/${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${accessToken}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetch(url, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (cause) {
      throw unreachable('youtube', what, cause);
    }
    return response;
  }

  private async call<T>(
    token: TokenSource,
    input: { method: Method; path: string; query?: Record<string, string>; body?: unknown; what: string; schema: z.ZodType<T> | null },
  ): Promise<T | null> {
    const query = input.query ?? {};
    const response = await sendAuthorized(token, (access) => this.send(input.method, input.path, query, input.body, access, input.what));
    const json = await readJsonBody(response);
    // Every request YouTube performed is charged, failed ones too; one refused for quota is not performed.
    const error = response.ok
      ? null
      : parseYoutubeError({ status: response.status, body: json, retryAfterSeconds: retryAfterSeconds(response.headers) }, input.what);
    const charged = methodOf(input.method, input.path);
    if (error && isQuotaError(error)) this.options.quota?.exhausted();
    else if (charged) this.options.quota?.spend(charged);
    if (error) throw error;
    if (!input.schema) return null;
    const parsed = input.schema.safeParse(json);
    if (!parsed.success) throw unreadable('youtube', input.what);
    return parsed.data;
  }

  /**
   * The channel's live broadcast with its chat, or null when it is not live. liveBroadcasts.list takes exactly one
   * filter (broadcastStatus implies the token's channel), and without `broadcastType=all` it lists only scheduled
   * events, leaving out the persistent "Stream now" broadcast most streamers use.
   */
  async activeBroadcast(token: TokenSource, status: 'active' | 'upcoming' = 'active'): Promise<YoutubeBroadcast | null> {
    const list = await this.call(token, {
      method: 'GET',
      path: 'liveBroadcasts',
      query: { part: 'snippet,status', broadcastStatus: status, broadcastType: 'all' },
      what: 'find the live broadcast',
      schema: broadcastListSchema,
    });
    const found = list?.items.find((b) => b.snippet?.liveChatId);
    if (!found?.snippet?.liveChatId) return null;
    return {
      videoId: found.id,
      liveChatId: found.snippet.liveChatId,
      title: found.snippet.title ?? '',
      startedAt: found.snippet.actualStartTime ?? null,
    };
  }

  async chatMessages(token: TokenSource, liveChatId: string, pageToken: string | null): Promise<YoutubeChatPage> {
    const query: Record<string, string> = { liveChatId, part: 'snippet,authorDetails', maxResults: '2000' };
    if (pageToken) query.pageToken = pageToken;
    const page = await this.call(token, {
      method: 'GET',
      path: 'liveChat/messages',
      query,
      what: 'read the live chat',
      schema: chatPageSchema,
    });
    return page ?? { items: [] };
  }

  async insertMessage(token: TokenSource, liveChatId: string, text: string): Promise<string> {
    const body = { snippet: { liveChatId, type: 'textMessageEvent', textMessageDetails: { messageText: text } } };
    const sent = await this.call(token, {
      method: 'POST',
      path: 'liveChat/messages',
      query: { part: 'snippet' },
      body,
      what: 'send the message',
      schema: z.object({ id: z.string() }),
    });
    return sent?.id ?? '';
  }

  async deleteMessage(token: TokenSource, messageId: string): Promise<void> {
    await this.call(token, {
      method: 'DELETE',
      path: 'liveChat/messages',
      query: { id: messageId },
      what: 'delete the message',
      schema: null,
    });
  }

  /** liveChatBans.insert: the ban id (kept for unban) and the `banDurationSeconds` YouTube applied. */
  async insertBan(
    token: TokenSource,
    input: { liveChatId: string; channelId: string; durationSeconds?: number },
  ): Promise<{ id: string; durationSeconds: number | null }> {
    const snippet: Record<string, unknown> = {
      liveChatId: input.liveChatId,
      type: input.durationSeconds === undefined ? 'permanent' : 'temporary',
      bannedUserDetails: { channelId: input.channelId },
    };
    if (input.durationSeconds !== undefined) snippet.banDurationSeconds = input.durationSeconds;
    const what = input.durationSeconds === undefined ? 'ban the user' : 'time out the user';
    const ban = await this.call(token, {
      method: 'POST',
      path: 'liveChat/bans',
      query: { part: 'snippet' },
      body: { snippet },
      what,
      schema: z.object({
        id: z.string(),
        snippet: z.object({ banDurationSeconds: z.union([z.string(), z.number()]).optional() }).optional(),
      }),
    });
    if (!ban) throw new PlatformError('temporary', 'youtube', 'YouTube returned no ban id.');
    const applied = Number(ban.snippet?.banDurationSeconds);
    return { id: ban.id, durationSeconds: Number.isFinite(applied) && applied > 0 ? applied : null };
  }

  async deleteBan(token: TokenSource, banId: string): Promise<void> {
    await this.call(token, { method: 'DELETE', path: 'liveChat/bans', query: { id: banId }, what: 'unban the user', schema: null });
  }

  async video(token: TokenSource, videoId: string): Promise<YoutubeVideo | null> {
    const list = await this.call(token, {
      method: 'GET',
      path: 'videos',
      query: { part: 'snippet,liveStreamingDetails', id: videoId },
      what: 'read the broadcast',
      schema: videoListSchema,
    });
    return list?.items[0] ?? null;
  }

  /** videos.update replaces the whole snippet: pass every field to keep. */
  async updateVideoSnippet(token: TokenSource, videoId: string, snippet: YoutubeVideoSnippet): Promise<void> {
    await this.call(token, {
      method: 'PUT',
      path: 'videos',
      query: { part: 'snippet' },
      body: { id: videoId, snippet },
      what: 'update the title and category',
      schema: null,
    });
  }

  async categories(token: TokenSource, regionCode: string): Promise<{ id: string; title: string; assignable: boolean }[]> {
    const list = await this.call(token, {
      method: 'GET',
      path: 'videoCategories',
      query: { part: 'snippet', regionCode },
      what: 'list the categories',
      schema: categoryListSchema,
    });
    return (list?.items ?? []).map((c) => ({ id: c.id, title: c.snippet.title, assignable: c.snippet.assignable ?? true }));
  }
}
