/**
 * YouTube Data API v3 subset under `/youtube/youtube/v3/*` (the real root is https://youtube.googleapis.com/youtube/v3/).
 *
 * Identity (channels?mine=true), liveBroadcasts.list, videos.list/update, videoCategories.list,
 * liveChatMessages.list/insert/delete, liveChatBans.insert/delete, with Google's error bodies,
 * scope checks and a per-project (client id) daily quota.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import { newId, type Channel, type ChatMessage, type Token } from '../world';
import { youtubeCategories, youtubeCategoryOwner } from './categories';
import { googleError, readScopes, requireGoogleToken, writeScopes } from './errors';
import { etag, rfc3339, YoutubeLive, type Broadcast, type BroadcastType, type LiveChatMessageResource } from './live-chat';
import { YoutubeStreamListServer, type StreamListMode } from './stream-list';

const base = '/youtube/youtube/v3';

/** Quota units per call (developers.google.com/youtube/v3/determine_quota_cost; live methods as documented on their pages). */
export const youtubeQuotaCosts = {
  'channels.list': 1,
  'liveBroadcasts.list': 1,
  'videos.list': 1,
  'videos.update': 50,
  'videoCategories.list': 1,
  'liveChatMessages.list': 5,
  'liveChatMessages.streamList': 5,
  'liveChatMessages.insert': 20,
  'liveChatMessages.delete': 50,
  'liveChatBans.insert': 50,
  'liveChatBans.delete': 50,
} as const;
export type YoutubeMethod = keyof typeof youtubeQuotaCosts;

export const youtubeTitleMaxLength = 100;
export const youtubeChatMaxLength = 200;

export interface YoutubeControls {
  /** Daily units per project (client id); default 10,000. */
  quotaLimit: number;
  /** Units used today by a project. */
  quotaUsed(clientId: string): number;
  /** Sets a project's usage (e.g. to the limit, to test quotaExceeded). */
  setQuotaUsed(clientId: string, units: number): void;
  resetQuota(): void;
  /** `pollingIntervalMillis` returned when the poller has caught up. */
  pollingIntervalMillis: number;
  /** liveChatMessages.insert: at most `max` messages per author per `windowMs`, then 403 rateLimitExceeded. */
  sendRateLimit: { max: number; windowMs: number };
  /** The live broadcast of a channel (assigning video / live chat ids if needed). */
  broadcastOf(channelId: string): { videoId: string; liveChatId: string } | null;
  /** The kind of broadcast the channel's next stream gets (default persistent, YouTube's "Stream now"). */
  setBroadcastType(channelId: string, type: BroadcastType): void;
  /** liveChatMessages.streamList over gRPC (its own port). */
  streamList: {
    /** host:port to dial (kept while the service is down). */
    address(): string | null;
    /** Streams open now. */
    openStreams(): number;
    mode(): StreamListMode;
    /** `unavailable`: stops listening (clients see UNAVAILABLE); `unimplemented`: answers UNIMPLEMENTED; `serving`. */
    setMode(mode: StreamListMode): Promise<void>;
  };
}

declare module '../context' {
  interface EmulatorContext {
    /** Set by youtubePlugin. */
    youtube?: YoutubeControls;
  }
}

type Query = Record<string, string | undefined>;

function parts(query: Query): Set<string> {
  return new Set(
    (query.part ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  );
}

function pacificDay(date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(date);
}

function thumbnails(url: string): Record<string, { url: string; width: number; height: number }> {
  return { default: { url, width: 88, height: 88 }, medium: { url, width: 240, height: 240 }, high: { url, width: 800, height: 800 } };
}

function videoThumbnails(videoId: string): Record<string, { url: string; width: number; height: number }> {
  const u = (name: string): string => `https://i.ytimg.com/vi/${videoId}/${name}_live.jpg`;
  return {
    default: { url: u('default'), width: 120, height: 90 },
    medium: { url: u('mqdefault'), width: 320, height: 180 },
    high: { url: u('hqdefault'), width: 480, height: 360 },
  };
}

function encodePageToken(seq: number): string {
  return Buffer.from(`GR${seq}`).toString('base64url');
}

function decodePageToken(token: string): number | null {
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const match = /^GR(\d+)$/.exec(text);
  return match ? Number(match[1]) : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface YoutubePluginOptions {
  /** Port of the gRPC streamList service (default 0: any free port). */
  grpcPort?: number;
}

export async function youtubePlugin(app: FastifyInstance, ctx: EmulatorContext, options: YoutubePluginOptions = {}): Promise<void> {
  const { world } = ctx;
  if (world.getMaxListeners() < 100) world.setMaxListeners(100);
  const live = new YoutubeLive(world, () => ctx.random());
  const quota = new Map<string, number>();
  let quotaDay = pacificDay();
  const bans = new Map<string, { liveChatId: string; channelId: string; userId: string }>();
  const sends = new Map<string, number[]>();

  /** Charges one call of `method` to the token's project (client id); false when today's quota cannot pay for it. */
  function charge(token: Token, method: YoutubeMethod): boolean {
    const today = pacificDay();
    if (today !== quotaDay) {
      quota.clear();
      quotaDay = today;
    }
    const used = quota.get(token.clientId) ?? 0;
    const cost = youtubeQuotaCosts[method];
    if (used + cost > controls.quotaLimit) return false;
    quota.set(token.clientId, used + cost);
    return true;
  }

  const streamList = new YoutubeStreamListServer({
    ctx,
    live,
    charge: (token) => charge(token, 'liveChatMessages.streamList'),
    encodePageToken,
    decodePageToken,
  });
  await streamList.start(options.grpcPort ?? 0);

  const controls: YoutubeControls = {
    quotaLimit: 10_000,
    quotaUsed: (clientId) => quota.get(clientId) ?? 0,
    setQuotaUsed: (clientId, units) => void quota.set(clientId, units),
    resetQuota: () => quota.clear(),
    pollingIntervalMillis: 2000,
    sendRateLimit: { max: 60, windowMs: 30_000 },
    broadcastOf(channelId) {
      const b = live.active(channelId);
      return b ? { videoId: b.videoId, liveChatId: b.liveChatId } : null;
    },
    setBroadcastType: (channelId, type) => void live.broadcastTypes.set(channelId, type),
    streamList: {
      address: () => streamList.address(),
      openStreams: () => streamList.openStreams(),
      mode: () => streamList.getMode(),
      setMode: (mode) => streamList.setMode(mode),
    },
  };
  ctx.youtube = controls;
  const onReset = (): void => {
    quota.clear();
    bans.clear();
    sends.clear();
    streamList.dropAll();
    void streamList.setMode('serving');
  };
  world.on('reset', onReset);
  app.addHook('onClose', async () => {
    world.off('reset', onReset);
    live.dispose();
    await streamList.stop();
  });

  /** Authenticates, checks scopes and charges quota. Sends the error and returns null when the call must stop. */
  function begin(request: FastifyRequest, reply: FastifyReply, method: YoutubeMethod, scopes: string[]): Token | null {
    const token = requireGoogleToken(ctx, request, reply, scopes);
    if (!token) return null;
    if (!charge(token, method)) {
      googleError(
        reply,
        403,
        'quotaExceeded',
        'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
        'youtube.quota',
      );
      return null;
    }
    return token;
  }

  function requirePart(query: Query, reply: FastifyReply): Set<string> | null {
    const p = parts(query);
    if (p.size === 0) {
      googleError(reply, 400, 'required', 'Required parameter: part', 'global', { location: 'part', locationType: 'parameter' });
      return null;
    }
    return p;
  }

  function canModerate(channel: Channel, userId: string | null): boolean {
    if (!userId) return false;
    const login = world.account('youtube', userId)?.login;
    return userId === channel.id || channel.moderators.has(userId) || (login !== undefined && channel.moderators.has(login));
  }

  function forbidden(reply: FastifyReply, message = 'The request is not properly authorized.'): FastifyReply {
    return googleError(reply, 403, 'forbidden', message, 'youtube.liveChat');
  }

  function chatNotFound(reply: FastifyReply): FastifyReply {
    return googleError(
      reply,
      404,
      'liveChatNotFound',
      'The live chat that you are trying to retrieve cannot be found.',
      'youtube.liveChat',
    );
  }

  // ---- channels.list (identity) ----
  app.get(`${base}/channels`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = begin(request, reply, 'channels.list', readScopes);
    if (!token) return reply;
    const p = requirePart(request.query, reply);
    if (!p) return reply;
    const { mine, id } = request.query;
    let ids: string[];
    if (mine === 'true') ids = token.userId ? [token.userId] : [];
    else if (id) ids = id.split(',');
    else
      return googleError(
        reply,
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: mine, forUsername, managedByMe, mySubscribers, id, categoryId, forHandle',
        'youtube.parameter',
      );
    const items = ids
      .map((i) => world.account('youtube', i))
      .filter((a) => a !== undefined)
      .map((a) => {
        const item: Record<string, unknown> = { kind: 'youtube#channel', etag: etag(), id: a.id };
        if (p.has('snippet')) {
          item.snippet = {
            title: a.displayName,
            description: '',
            customUrl: `@${a.login}`,
            publishedAt: rfc3339(a.createdAt),
            thumbnails: thumbnails(a.avatarUrl),
            localized: { title: a.displayName, description: '' },
          };
        }
        if (p.has('contentDetails')) item.contentDetails = { relatedPlaylists: { likes: '', uploads: `UU${a.id.slice(2)}` } };
        if (p.has('statistics')) item.statistics = { viewCount: '0', subscriberCount: '0', hiddenSubscriberCount: false, videoCount: '0' };
        return item;
      });
    return { kind: 'youtube#channelListResponse', etag: etag(), pageInfo: { totalResults: items.length, resultsPerPage: 5 }, items };
  });

  // ---- liveBroadcasts.list ----
  function broadcastJson(b: Broadcast, p: Set<string>): Record<string, unknown> {
    const channel = world.channel('youtube', b.channelId);
    const active = live.isActive(b);
    const item: Record<string, unknown> = { kind: 'youtube#liveBroadcast', etag: etag(), id: b.videoId };
    if (p.has('snippet')) {
      const snippet: Record<string, unknown> = {
        publishedAt: rfc3339(b.startedAt),
        channelId: b.channelId,
        title: active && channel ? channel.title : b.title,
        description: b.description,
        thumbnails: videoThumbnails(b.videoId),
        scheduledStartTime: rfc3339(b.startedAt),
        actualStartTime: rfc3339(b.startedAt),
        isDefaultBroadcast: b.type === 'persistent',
      };
      if (b.endedAt) snippet.actualEndTime = rfc3339(b.endedAt);
      else snippet.liveChatId = b.liveChatId;
      item.snippet = snippet;
    }
    if (p.has('status')) {
      item.status = {
        lifeCycleStatus: active ? 'live' : 'complete',
        privacyStatus: 'public',
        recordingStatus: active ? 'recording' : 'recorded',
        madeForKids: false,
        selfDeclaredMadeForKids: false,
      };
    }
    return item;
  }

  app.get(`${base}/liveBroadcasts`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = begin(request, reply, 'liveBroadcasts.list', readScopes);
    if (!token) return reply;
    const p = requirePart(request.query, reply);
    if (!p) return reply;
    const { mine, id, broadcastStatus, broadcastType } = request.query;
    // Filters: exactly one of id, mine, broadcastStatus.
    const filters = (['id', 'mine', 'broadcastStatus'] as const).filter((f) => request.query[f] !== undefined);
    if (filters.length > 1) {
      return googleError(
        reply,
        400,
        'incompatibleParameters',
        `Incompatible parameters specified in the request: ${filters.join(', ')}`,
        'youtube.parameter',
        { location: filters[1]!, locationType: 'parameter' },
      );
    }
    if (broadcastType !== undefined && !['all', 'event', 'persistent'].includes(broadcastType)) {
      return googleError(
        reply,
        400,
        'invalidValue',
        `Invalid value '${broadcastType}'. Values must match the following regular expression: '(?i)(all|event|persistent)'`,
        'global',
        { location: 'broadcastType', locationType: 'parameter' },
      );
    }
    if (broadcastType !== undefined && id !== undefined) {
      return googleError(
        reply,
        400,
        'incompatibleParameters',
        'Incompatible parameters specified in the request: id, broadcastType',
        'youtube.parameter',
        { location: 'broadcastType', locationType: 'parameter' },
      );
    }
    if (broadcastStatus && !['active', 'all', 'completed', 'upcoming'].includes(broadcastStatus)) {
      return googleError(
        reply,
        400,
        'invalidValue',
        `Invalid value '${broadcastStatus}'. Values must match the following regular expression: '(?i)(active|all|completed|upcoming)'`,
        'global',
        { location: 'broadcastStatus', locationType: 'parameter' },
      );
    }
    let list: Broadcast[];
    if (id) {
      list = id
        .split(',')
        .map((v) => live.byVideoId(v))
        .filter((b): b is Broadcast => b !== undefined);
    } else if (mine === 'true' || broadcastStatus) {
      if (!token.userId)
        return googleError(
          reply,
          403,
          'insufficientLivePermissions',
          'The user is not enabled for live streaming.',
          'youtube.liveBroadcast',
        );
      const channel = world.channel('youtube', token.userId);
      if (!channel)
        return googleError(reply, 403, 'liveStreamingNotEnabled', 'The user is not enabled for live streaming.', 'youtube.liveBroadcast');
      live.sync(channel);
      list = [...live.broadcasts.values()].filter((b) => b.channelId === channel.id);
    } else {
      return googleError(
        reply,
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: id, mine, broadcastStatus',
        'youtube.parameter',
      );
    }
    const status = broadcastStatus ?? 'all';
    // With mine or broadcastStatus, only scheduled events unless broadcastType says otherwise.
    const type = id ? 'all' : (broadcastType ?? 'event');
    const filtered = list.filter(
      (b) =>
        (type === 'all' || b.type === type) &&
        (status === 'active' ? live.isActive(b) : status === 'completed' ? !live.isActive(b) : status !== 'upcoming'),
    );
    const items = filtered.reverse().map((b) => broadcastJson(b, p));
    return { kind: 'youtube#liveBroadcastListResponse', etag: etag(), pageInfo: { totalResults: items.length, resultsPerPage: 5 }, items };
  });

  // ---- videos.list / videos.update ----
  function videoJson(b: Broadcast, p: Set<string>): Record<string, unknown> {
    const channel = world.channel('youtube', b.channelId);
    const owner = world.account('youtube', b.channelId);
    const active = live.isActive(b);
    const title = active && channel ? channel.title : b.title;
    const categoryId = active && channel ? channel.categoryId : b.categoryId;
    const item: Record<string, unknown> = { kind: 'youtube#video', etag: etag(), id: b.videoId };
    if (p.has('snippet')) {
      const snippet: Record<string, unknown> = {
        publishedAt: rfc3339(b.startedAt),
        channelId: b.channelId,
        title,
        description: b.description,
        thumbnails: videoThumbnails(b.videoId),
        channelTitle: owner?.displayName ?? '',
        categoryId,
        liveBroadcastContent: active ? 'live' : 'none',
        localized: { title, description: b.description },
      };
      if (b.tags.length > 0) snippet.tags = b.tags;
      if (b.defaultLanguage) snippet.defaultLanguage = b.defaultLanguage;
      item.snippet = snippet;
    }
    if (p.has('liveStreamingDetails')) {
      const details: Record<string, unknown> = { actualStartTime: rfc3339(b.startedAt), scheduledStartTime: rfc3339(b.startedAt) };
      if (active) {
        details.concurrentViewers = String(channel?.viewerCount ?? 0);
        details.activeLiveChatId = b.liveChatId;
      } else if (b.endedAt) {
        details.actualEndTime = rfc3339(b.endedAt);
      }
      item.liveStreamingDetails = details;
    }
    if (p.has('status'))
      item.status = {
        uploadStatus: active ? 'uploaded' : 'processed',
        privacyStatus: 'public',
        license: 'youtube',
        embeddable: true,
        publicStatsViewable: true,
        madeForKids: false,
      };
    if (p.has('statistics'))
      item.statistics = { viewCount: String(channel?.viewerCount ?? 0), likeCount: '0', favoriteCount: '0', commentCount: '0' };
    return item;
  }

  app.get(`${base}/videos`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = begin(request, reply, 'videos.list', readScopes);
    if (!token) return reply;
    const p = requirePart(request.query, reply);
    if (!p) return reply;
    if (!request.query.id)
      return googleError(
        reply,
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: id, chart, myRating',
        'youtube.parameter',
      );
    const items = request.query.id
      .split(',')
      .map((v) => live.byVideoId(v))
      .filter((b): b is Broadcast => b !== undefined)
      .map((b) => videoJson(b, p));
    return {
      kind: 'youtube#videoListResponse',
      etag: etag(),
      items,
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
    };
  });

  app.put(`${base}/videos`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = begin(request, reply, 'videos.update', writeScopes);
    if (!token) return reply;
    const p = requirePart(request.query, reply);
    if (!p) return reply;
    const body = request.body;
    if (!isRecord(body) || typeof body.id !== 'string')
      return googleError(reply, 400, 'required', 'Required', 'global', { location: 'id', locationType: 'other' });
    const b = live.byVideoId(body.id);
    if (!b)
      return googleError(
        reply,
        404,
        'videoNotFound',
        'The video that you are trying to update cannot be found. Check the value of the <code>id</code> field in the request body to ensure that it is correct.',
        'youtube.video',
      );
    if (b.channelId !== token.userId)
      return googleError(reply, 403, 'forbidden', 'The video that you are trying to update cannot be updated.', 'youtube.video');
    if (!p.has('snippet')) return { ...videoJson(b, p) };
    const snippet = body.snippet;
    if (!isRecord(snippet))
      return googleError(reply, 400, 'invalidSnippet', 'The request metadata specifies an invalid or empty snippet.', 'youtube.video');
    const title = snippet.title;
    if (typeof title !== 'string' || title.trim() === '' || title.length > youtubeTitleMaxLength || /[<>]/.test(title)) {
      return googleError(reply, 400, 'invalidTitle', 'The request metadata specifies an invalid video title.', 'youtube.video');
    }
    const categoryId = snippet.categoryId;
    if (typeof categoryId !== 'string' && typeof categoryId !== 'number') {
      return googleError(reply, 400, 'invalidCategoryId', 'The request metadata does not specify a valid video category.', 'youtube.video');
    }
    const category = youtubeCategories.find((c) => c.id === String(categoryId));
    if (!category?.assignable)
      return googleError(reply, 400, 'invalidCategoryId', 'The request metadata specifies an invalid video category.', 'youtube.video');
    const description = typeof snippet.description === 'string' ? snippet.description : '';
    if (Buffer.byteLength(description) > 5000 || /[<>]/.test(description))
      return googleError(reply, 400, 'invalidDescription', 'The request metadata specifies an invalid video description.', 'youtube.video');
    const tags = Array.isArray(snippet.tags) ? snippet.tags.filter((t): t is string => typeof t === 'string') : [];
    if (tags.join(',').length > 500)
      return googleError(reply, 400, 'invalidTags', 'The request metadata specifies invalid video keywords.', 'youtube.video');

    // videos.update replaces the whole snippet: fields left out are cleared.
    const channel = world.channel('youtube', b.channelId);
    const active = live.isActive(b);
    const previousTitle = active && channel ? channel.title : b.title;
    const previousCategory = active && channel ? channel.categoryId : b.categoryId;
    b.description = description;
    b.tags = tags;
    b.defaultLanguage = typeof snippet.defaultLanguage === 'string' ? snippet.defaultLanguage : null;
    b.title = title;
    b.categoryId = category.id;
    if (active && channel) {
      channel.title = title;
      channel.categoryId = category.id;
      channel.categoryName = category.title;
      world.emit('channel.updated', channel);
    }
    if (title !== previousTitle)
      world.record({
        platform: 'youtube',
        type: 'title',
        channelId: b.channelId,
        actorId: token.userId,
        data: { videoId: b.videoId, title, previous: previousTitle },
      });
    if (category.id !== previousCategory) {
      world.record({
        platform: 'youtube',
        type: 'category',
        channelId: b.channelId,
        actorId: token.userId,
        data: { videoId: b.videoId, categoryId: category.id, categoryName: category.title, previous: previousCategory },
      });
    }
    world.record({
      platform: 'youtube',
      type: 'video.update',
      channelId: b.channelId,
      actorId: token.userId,
      data: { videoId: b.videoId, snippet },
    });
    return videoJson(b, p);
  });

  // ---- videoCategories.list ----
  app.get(`${base}/videoCategories`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = begin(request, reply, 'videoCategories.list', readScopes);
    if (!token) return reply;
    const p = requirePart(request.query, reply);
    if (!p) return reply;
    const { regionCode, id } = request.query;
    if (!regionCode && !id)
      return googleError(
        reply,
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: id, regionCode',
        'youtube.parameter',
      );
    const wanted = id ? new Set(id.split(',')) : null;
    const items = youtubeCategories
      .filter((c) => !wanted || wanted.has(c.id))
      .map((c) => ({
        kind: 'youtube#videoCategory',
        etag: etag(),
        id: c.id,
        snippet: { title: c.title, assignable: c.assignable, channelId: youtubeCategoryOwner },
      }));
    return { kind: 'youtube#videoCategoryListResponse', etag: etag(), items };
  });

  // ---- liveChatMessages ----
  function projectItem(item: LiveChatMessageResource, p: Set<string>): Record<string, unknown> {
    const out: Record<string, unknown> = { kind: item.kind, etag: item.etag, id: item.id };
    if (p.has('snippet')) out.snippet = item.snippet;
    if (p.has('authorDetails')) out.authorDetails = item.authorDetails;
    return out;
  }

  app.get(`${base}/liveChat/messages`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = begin(request, reply, 'liveChatMessages.list', readScopes);
    if (!token) return reply;
    const p = requirePart(request.query, reply);
    if (!p) return reply;
    const { liveChatId, pageToken } = request.query;
    if (!liveChatId)
      return googleError(reply, 400, 'required', 'Required parameter: liveChatId', 'global', {
        location: 'liveChatId',
        locationType: 'parameter',
      });
    const b = live.byLiveChatId(liveChatId);
    if (!b) return chatNotFound(reply);
    // 200-2000, default 500; anything else is refused.
    const maxResults = request.query.maxResults === undefined ? 500 : Number(request.query.maxResults);
    if (!Number.isInteger(maxResults) || maxResults < 200 || maxResults > 2000)
      return googleError(
        reply,
        400,
        'invalidValue',
        `Invalid value '${request.query.maxResults}'. Values must be within the range: [200, 2000]`,
        'global',
        { location: 'maxResults', locationType: 'parameter' },
      );
    let from: number | null = null;
    if (pageToken) {
      from = decodePageToken(pageToken);
      if (from === null)
        return googleError(reply, 400, 'pageTokenInvalid', 'The request specifies an invalid page token.', 'youtube.liveChat');
    }
    const active = live.isActive(b);
    const page = live.page(b, from, maxResults);
    const response: Record<string, unknown> = {
      kind: 'youtube#liveChatMessageListResponse',
      etag: etag(),
      pollingIntervalMillis: page.more ? 0 : controls.pollingIntervalMillis,
      pageInfo: { totalResults: page.items.length, resultsPerPage: page.items.length },
      nextPageToken: encodePageToken(page.next),
      items: page.items.map((item) => projectItem(item, p)),
    };
    if (!active && b.endedAt) response.offlineAt = rfc3339(b.endedAt);
    return response;
  });

  app.post(`${base}/liveChat/messages`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = begin(request, reply, 'liveChatMessages.insert', writeScopes);
    if (!token) return reply;
    const p = requirePart(request.query, reply);
    if (!p) return reply;
    const body = request.body;
    const snippet = isRecord(body) && isRecord(body.snippet) ? body.snippet : null;
    if (!snippet || typeof snippet.liveChatId !== 'string')
      return googleError(
        reply,
        400,
        'liveChatIdRequired',
        'You must specify a liveChatId in the snippet.liveChatId property.',
        'youtube.liveChat',
      );
    const b = live.byLiveChatId(snippet.liveChatId);
    if (!b) return chatNotFound(reply);
    if (!live.isActive(b))
      return googleError(reply, 403, 'liveChatEnded', 'The specified live chat is no longer live.', 'youtube.liveChat');
    if (snippet.type !== 'textMessageEvent')
      return googleError(
        reply,
        400,
        'invalidValue',
        'Invalid value for snippet.type; only textMessageEvent can be inserted.',
        'youtube.liveChat',
      );
    const details = isRecord(snippet.textMessageDetails) ? snippet.textMessageDetails : null;
    const text = details && typeof details.messageText === 'string' ? details.messageText : '';
    if (text.trim() === '' || [...text].length > youtubeChatMaxLength)
      return googleError(reply, 400, 'messageTextInvalid', 'The message text is invalid or too long.', 'youtube.liveChat');
    const authorId = token.userId;
    if (!authorId || !world.account('youtube', authorId)) return forbidden(reply);
    const channel = world.channel('youtube', b.channelId);
    const ban = channel?.bans.get(authorId);
    if (ban && (ban.expiresAt === null || ban.expiresAt.getTime() > Date.now()))
      return forbidden(reply, 'The user is banned from this live chat.');
    const now = Date.now();
    const window = (sends.get(authorId) ?? []).filter((t) => now - t < controls.sendRateLimit.windowMs);
    if (window.length >= controls.sendRateLimit.max) {
      sends.set(authorId, window);
      return googleError(
        reply,
        403,
        'rateLimitExceeded',
        'The message was not sent because the user has sent too many messages in a short period of time.',
        'youtube.liveChat',
      );
    }
    window.push(now);
    sends.set(authorId, window);
    const message: ChatMessage = {
      id: `LCC.${newId().replace(/-/g, '')}`,
      platform: 'youtube',
      channelId: b.channelId,
      authorId,
      text,
      emotes: [],
      replyToId: null,
      origin: 'product',
      deleted: false,
      createdAt: new Date(),
    };
    world.postChat(message);
    world.record({
      platform: 'youtube',
      type: 'chat.send',
      channelId: b.channelId,
      actorId: authorId,
      data: { messageId: message.id, text, liveChatId: b.liveChatId },
    });
    return {
      kind: 'youtube#liveChatMessage',
      etag: etag(),
      id: message.id,
      snippet: {
        type: 'textMessageEvent',
        liveChatId: b.liveChatId,
        authorChannelId: authorId,
        publishedAt: rfc3339(message.createdAt),
        hasDisplayContent: true,
        displayMessage: text,
        textMessageDetails: { messageText: text },
      },
    };
  });

  app.delete(`${base}/liveChat/messages`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = begin(request, reply, 'liveChatMessages.delete', writeScopes);
    if (!token) return reply;
    const id = request.query.id;
    if (!id) return googleError(reply, 400, 'required', 'Required parameter: id', 'global', { location: 'id', locationType: 'parameter' });
    const message = world.messages.get(id);
    if (!message || message.platform !== 'youtube')
      return googleError(
        reply,
        404,
        'liveChatMessageNotFound',
        'The live chat message that you are trying to delete cannot be found.',
        'youtube.liveChat',
      );
    const channel = world.channel('youtube', message.channelId);
    if (!channel || !canModerate(channel, token.userId)) return forbidden(reply);
    const login = world.account('youtube', message.authorId)?.login;
    const authorIsMod =
      message.authorId === channel.id || channel.moderators.has(message.authorId) || (login !== undefined && channel.moderators.has(login));
    if (authorIsMod && message.authorId !== token.userId) {
      return googleError(
        reply,
        403,
        'modificationNotAllowed',
        'The message could not be deleted: messages from the channel owner or moderators cannot be deleted.',
        'youtube.liveChat',
      );
    }
    world.deleteChat(message.id);
    world.record({
      platform: 'youtube',
      type: 'chat.delete',
      channelId: channel.id,
      actorId: token.userId,
      data: { messageId: message.id, userId: message.authorId },
    });
    return reply.code(204).send();
  });

  // ---- liveChatBans ----
  app.post(`${base}/liveChat/bans`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = begin(request, reply, 'liveChatBans.insert', writeScopes);
    if (!token) return reply;
    const p = requirePart(request.query, reply);
    if (!p) return reply;
    const body = request.body;
    const snippet = isRecord(body) && isRecord(body.snippet) ? body.snippet : null;
    if (!snippet || typeof snippet.liveChatId !== 'string')
      return googleError(
        reply,
        400,
        'liveChatIdRequired',
        'You must specify a liveChatId in the snippet.liveChatId property.',
        'youtube.liveChat',
      );
    const type = snippet.type;
    if (type !== 'permanent' && type !== 'temporary')
      return googleError(reply, 400, 'invalidValue', 'The snippet.type property must be permanent or temporary.', 'youtube.liveChat');
    const banned = isRecord(snippet.bannedUserDetails) ? snippet.bannedUserDetails.channelId : undefined;
    if (typeof banned !== 'string' || banned === '')
      return googleError(
        reply,
        400,
        'bannedUserChannelIdRequired',
        'You must specify a channel ID for the banned user.',
        'youtube.liveChat',
      );
    const b = live.byLiveChatId(snippet.liveChatId);
    if (!b) return chatNotFound(reply);
    const channel = world.channel('youtube', b.channelId);
    if (!channel || !canModerate(channel, token.userId)) return forbidden(reply);
    if (banned === channel.id) return forbidden(reply, 'The channel owner cannot be banned.');
    let seconds: number | null = null;
    if (type === 'temporary') {
      const raw = snippet.banDurationSeconds;
      seconds = raw === undefined ? 300 : Number(raw);
      if (!Number.isInteger(seconds) || seconds <= 0)
        return googleError(reply, 400, 'invalidValue', 'Invalid banDurationSeconds.', 'youtube.liveChat');
    }
    const banId = Buffer.from(`${b.liveChatId}:${banned}:${newId()}`).toString('base64url');
    const expiresAt = seconds === null ? null : new Date(Date.now() + seconds * 1000);
    channel.bans.set(banned, { expiresAt, reason: '', banId });
    bans.set(banId, { liveChatId: b.liveChatId, channelId: channel.id, userId: banned });
    const moderatorId = token.userId ?? channel.id;
    world.emit('ban', { platform: 'youtube', channelId: channel.id, userId: banned, moderatorId, expiresAt, reason: '' });
    world.record({
      platform: 'youtube',
      type: seconds === null ? 'ban' : 'timeout',
      channelId: channel.id,
      actorId: token.userId,
      data: { userId: banned, banId, durationSeconds: seconds },
    });
    const target = live.authorDetails(undefined, banned);
    const out: Record<string, unknown> = {
      liveChatId: b.liveChatId,
      type,
      bannedUserDetails: {
        channelId: banned,
        channelUrl: target.channelUrl,
        displayName: target.displayName,
        profileImageUrl: target.profileImageUrl,
      },
    };
    if (seconds !== null) out.banDurationSeconds = String(seconds);
    return { kind: 'youtube#liveChatBan', etag: etag(), id: banId, snippet: out };
  });

  app.delete(`${base}/liveChat/bans`, async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
    const token = begin(request, reply, 'liveChatBans.delete', writeScopes);
    if (!token) return reply;
    const id = request.query.id;
    if (!id) return googleError(reply, 400, 'required', 'Required parameter: id', 'global', { location: 'id', locationType: 'parameter' });
    const ban = bans.get(id);
    if (!ban)
      return googleError(reply, 404, 'liveChatBanNotFound', 'The ban that you are trying to remove cannot be found.', 'youtube.liveChat');
    const channel = world.channel('youtube', ban.channelId);
    if (!channel || !canModerate(channel, token.userId)) return forbidden(reply);
    bans.delete(id);
    if (channel.bans.get(ban.userId)?.banId === id) channel.bans.delete(ban.userId);
    world.emit('unban', { platform: 'youtube', channelId: channel.id, userId: ban.userId, moderatorId: token.userId ?? channel.id });
    world.record({
      platform: 'youtube',
      type: 'unban',
      channelId: channel.id,
      actorId: token.userId,
      data: { userId: ban.userId, banId: id },
    });
    return reply.code(204).send();
  });
}
