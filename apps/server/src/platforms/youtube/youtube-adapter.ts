/**
 * The YouTube adapter. Live: finds the channel's live broadcast (polling with backoff while offline), then reads its
 * chat over the gRPC `liveChatMessages.streamList` stream (one call for as long as it stays open), or polls
 * `liveChat/messages` at YouTube's `pollingIntervalMillis` while the stream is unavailable; either way it resumes from
 * the `nextPageToken` stored with the messages, so nothing is lost across restarts. Once the daily quota is used up
 * it waits for the reset at midnight Pacific time. Actions: send (no replies), bans with the
 * returned ban id kept for unban (no reasons), delete, title/category via videos.update.
 */
import { providers } from '@greenroom/contracts/providers';
import { AppError, badRequest, conflict, unsupported } from '../../lib/errors';
import { Backoff, sleep } from '../backoff';
import type { PlatformEndpoints } from '../endpoints';
import { isReconnectNeeded, PlatformError } from '../platform-error';
import type {
  ChannelActions,
  ChannelConnectionContext,
  ChatFacet,
  ConnectionState,
  LiveConnection,
  ModerationFacet,
  PlatformAdapter,
  StreamInfo,
  StreamInfoFacet,
  TokenSource,
} from '../port';
import { YoutubeChatStream, isStreamUnavailable } from './youtube-chat-stream';
import { YoutubeClient, type YoutubeBroadcast, type YoutubeChatItem, type YoutubeClientOptions } from './youtube-client';
import { isChatGone, isQuotaError } from './youtube-errors';
import { mapYoutubeChatItem } from './youtube-events';
import { quotaResetsAt } from './youtube-quota';

export interface YoutubeAdapterDeps {
  endpoints: PlatformEndpoints['youtube'];
  client?: YoutubeClient;
  /** Counts the API quota every call spends. */
  quota?: YoutubeClientOptions['quota'];
  /** Region of the category list (default US). */
  regionCode?: string;
  /** Poll for a live broadcast while offline: first delay and cap (defaults 30 s → 5 min). */
  offlinePoll?: { baseMs?: number; maxMs?: number };
  /** The gRPC streamList client (null/omitted: endpoints.chatStream decides; no endpoint: polling only). */
  chatStream?: YoutubeChatStream | null;
  /** After the stream was unavailable, poll this long before trying it again (default 5 min). */
  streamRetryMs?: number;
  /** Wait after a quota error (default: until the quota resets at midnight Pacific time, plus up to `quotaResumeJitterMs`). */
  quotaWaitMs?: number;
  /** Spread of the resumption after the reset, so every channel does not call at the same second (default 60 s). */
  quotaResumeJitterMs?: number;
  now?: () => Date;
  /** Transient error backoff (defaults 2 s → 2 min). */
  backoff?: { baseMs?: number; maxMs?: number };
  /** Bounds on YouTube's pollingIntervalMillis (defaults 0 and 30 s). */
  minPollMs?: number;
  maxPollMs?: number;
}

type ActionsContext = Omit<ChannelConnectionContext, 'emit' | 'setHealth' | 'signal'>;

const info = providers.youtube;
export const YOUTUBE_WAITING_DETAIL = 'Waiting for a live broadcast';
/** Health detail while the quota is used up: when chat resumes, in Pacific time and UTC (the page shows local time). */
export function youtubeQuotaDetail(resetsAt: Date): string {
  const utc = resetsAt.toISOString().slice(11, 16);
  return `The YouTube API quota for today is used up: chat resumes when it resets at midnight Pacific time (${utc} UTC).`;
}

/** When to call YouTube again after quotaExceeded: its reset (midnight Pacific time) plus a random spread. */
export function quotaResumeAt(now: Date, jitterMs: number, random: () => number = Math.random): Date {
  return new Date(quotaResetsAt(now).getTime() + Math.floor(random() * jitterMs));
}

function stateString(state: Record<string, unknown>, key: string): string | null {
  const value = state[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

export function createYoutubeAdapter(deps: YoutubeAdapterDeps): PlatformAdapter {
  const client = deps.client ?? new YoutubeClient({ apiUrl: deps.endpoints.apiUrl, ...(deps.quota ? { quota: deps.quota } : {}) });
  const chatStream =
    deps.chatStream !== undefined
      ? deps.chatStream
      : deps.endpoints.chatStream
        ? new YoutubeChatStream(deps.endpoints.chatStream, deps.quota)
        : null;
  const regionCode = deps.regionCode ?? 'US';
  let categoryCache: { at: number; list: Promise<{ id: string; title: string; assignable: boolean }[]> } | null = null;

  function categories(token: TokenSource): Promise<{ id: string; title: string; assignable: boolean }[]> {
    if (!categoryCache || Date.now() - categoryCache.at > 24 * 3_600_000) {
      const list = client.categories(token, regionCode);
      categoryCache = { at: Date.now(), list };
      list.catch(() => {
        categoryCache = null;
      });
    }
    return categoryCache.list;
  }

  function connect(ctx: ChannelConnectionContext): LiveConnection {
    const stop = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stop.signal]);
    const errors = new Backoff({ baseMs: deps.backoff?.baseMs ?? 2000, maxMs: deps.backoff?.maxMs ?? 120_000 });
    const offline = new Backoff({ baseMs: deps.offlinePoll?.baseMs ?? 30_000, maxMs: deps.offlinePoll?.maxMs ?? 300_000 });
    let health: { state: ConnectionState; detail: string | null } | null = null;
    const setHealth = (state: ConnectionState, detail: string | null): void => {
      if (health?.state === state && health.detail === detail) return;
      health = { state, detail };
      ctx.setHealth(state, detail);
    };

    const run = async (): Promise<void> => {
      setHealth('connecting', null);
      const savedChat = stateString(ctx.state, 'liveChatId');
      const savedVideo = stateString(ctx.state, 'videoId');
      let chat: Pick<YoutubeBroadcast, 'liveChatId' | 'videoId'> | null =
        savedChat && savedVideo ? { liveChatId: savedChat, videoId: savedVideo } : null;
      let pageToken = chat ? stateString(ctx.state, 'pageToken') : null;
      /** Last stream status emitted (null: none yet). */
      const stream: { live: boolean | null } = { live: null };
      /** When the gRPC stream may be tried again after it was unavailable (polling meanwhile). */
      let streamAfter = 0;

      const goOffline = async (): Promise<void> => {
        chat = null;
        pageToken = null;
        await ctx.saveState({ liveChatId: null, videoId: null, pageToken: null });
        if (stream.live !== false)
          void ctx.emit({
            kind: 'stream',
            status: { is_live: false, viewer_count: null, title: null, category: null, started_at: null, live_stream_id: null },
          });
        stream.live = false;
      };

      /**
       * Stores one page of chat (polled or streamed) with the token that moves past it, in one transaction: a restart
       * resumes exactly after what was stored. False when the chat log cannot take it now (the same position is read
       * again after a backoff; not YouTube's fault, so health stays as it is).
       */
      const take = async (page: { items: YoutubeChatItem[]; nextPageToken?: string | null | undefined }): Promise<boolean> => {
        const receivedAt = new Date().toISOString();
        const events = page.items.flatMap((item) => mapYoutubeChatItem(item, receivedAt));
        const next = page.nextPageToken && page.nextPageToken !== pageToken ? page.nextPageToken : null;
        if (events.length > 0 || next) {
          try {
            await ctx.emit(events, { retryable: true, ...(next ? { state: { pageToken: next } } : {}) });
          } catch {
            return false;
          }
        }
        if (next) pageToken = next;
        errors.reset();
        setHealth('connected', null);
        return true;
      };

      /** Reads the live chat over the gRPC stream until it ends: 'offline' (the broadcast ended), 'ended' or 'refused'. */
      const readStream = async (
        chatStream: YoutubeChatStream,
        liveChatId: string,
      ): Promise<{ outcome: 'offline' | 'ended' | 'refused'; pages: number }> => {
        const local = new AbortController();
        let pages = 0;
        try {
          for await (const page of chatStream.stream(ctx.broadcaster, liveChatId, pageToken, AbortSignal.any([signal, local.signal]))) {
            if (!(await take(page))) return { outcome: 'refused', pages };
            pages++;
            if (page.offlineAt) return { outcome: 'offline', pages };
          }
          return { outcome: 'ended', pages };
        } finally {
          local.abort();
        }
      };

      while (!signal.aborted) {
        try {
          if (!chat) {
            const broadcast = await client.activeBroadcast(ctx.broadcaster);
            if (!broadcast) {
              if (stream.live !== false) await goOffline();
              setHealth('offline', YOUTUBE_WAITING_DETAIL);
              errors.reset();
              await offline.wait(signal);
              continue;
            }
            offline.reset();
            chat = broadcast;
            pageToken = null;
            await ctx.saveState({ liveChatId: broadcast.liveChatId, videoId: broadcast.videoId, pageToken: null });
            // The video id is the channel provider's live_stream_id: the web embeds the player with it.
            void ctx.emit({
              kind: 'stream',
              status: {
                is_live: true,
                viewer_count: null,
                title: broadcast.title || null,
                category: null,
                started_at: broadcast.startedAt,
                live_stream_id: broadcast.videoId,
              },
            });
            stream.live = true;
          } else if (stream.live === null) {
            stream.live = true;
          }

          // The gRPC stream first: one call (5 units) for as long as it stays open.
          if (chatStream && Date.now() >= streamAfter) {
            const read = await readStream(chatStream, chat.liveChatId);
            if (read.outcome === 'offline') await goOffline();
            // Refused by the chat log, or closed by YouTube before anything came: wait before opening it again.
            else if (read.outcome === 'refused' || read.pages === 0) await errors.wait(signal);
            continue;
          }

          const page = await client.chatMessages(ctx.broadcaster, chat.liveChatId, pageToken);
          if (!(await take(page))) {
            await errors.wait(signal);
            continue;
          }
          if (page.offlineAt) {
            await goOffline();
            continue;
          }
          let delay = Math.min(Math.max(page.pollingIntervalMillis ?? 5000, deps.minPollMs ?? 0), deps.maxPollMs ?? 30_000);
          if (page.items.length === 0) delay = Math.max(delay, 500);
          if (delay > 0) await sleep(delay, signal);
        } catch (error) {
          if (signal.aborted) return;
          if (isReconnectNeeded(error)) {
            setHealth('needs_reauth', error.message);
            return;
          }
          if (isStreamUnavailable(error)) {
            // Unreachable or not served: poll liveChatMessages.list meanwhile, and try the stream again later.
            ctx.log.warn({ err: error }, 'YouTube live chat stream unavailable, polling instead');
            streamAfter = Date.now() + (deps.streamRetryMs ?? 5 * 60_000);
            continue;
          }
          if (isQuotaError(error)) {
            // YouTube refuses every call until the quota resets at midnight Pacific time: wait until then.
            const now = (deps.now ?? (() => new Date()))();
            const resumeAt = quotaResumeAt(now, deps.quotaResumeJitterMs ?? 60_000);
            setHealth('error', youtubeQuotaDetail(quotaResetsAt(now)));
            await sleep(deps.quotaWaitMs ?? resumeAt.getTime() - now.getTime(), signal);
            continue;
          }
          if (error instanceof PlatformError && error.reason === 'pageTokenInvalid') {
            // A token YouTube no longer accepts: read from the chat's recent history (duplicates are dropped by id).
            pageToken = null;
            await ctx.saveState({ pageToken: null });
            continue;
          }
          if (isChatGone(error)) {
            await goOffline();
            continue;
          }
          ctx.log.warn({ err: error }, 'YouTube live chat read failed');
          setHealth('reconnecting', error instanceof Error ? error.message : String(error));
          await errors.wait(signal);
        }
      }
    };
    const loop = run();
    return {
      async close() {
        stop.abort();
        await loop;
      },
    };
  }

  function actions(ctx: ActionsContext): ChannelActions {
    /** The live chat to act in: the connection's, else looked up (and refreshed once if it ended). */
    async function withChat<T>(what: string, fn: (chat: { liveChatId: string; videoId: string }) => Promise<T>): Promise<T> {
      const saved = stateString(ctx.state, 'liveChatId');
      const video = stateString(ctx.state, 'videoId');
      if (saved && video) {
        try {
          return await fn({ liveChatId: saved, videoId: video });
        } catch (error) {
          if (!isChatGone(error)) throw error;
        }
      }
      const broadcast = await client.activeBroadcast(ctx.broadcaster);
      if (!broadcast) throw conflict(`YouTube has no live broadcast on this channel, so there is no live chat to ${what}.`);
      return fn(broadcast);
    }

    const chat: ChatFacet = {
      async sendMessage({ text, replyToProviderMessageId, as }) {
        if (replyToProviderMessageId) throw unsupported('YouTube live chat does not support replies to a message.');
        const content = text.trim();
        if (content === '') throw badRequest('The message is empty.');
        if ([...content].length > 200) throw new AppError(400, 'validation_error', 'YouTube chat messages are limited to 200 characters.');
        // "As bot" never falls back to the streamer's account: who a message goes out as is decided by the caller.
        if (as === 'bot' && !ctx.bot) throw unsupported('No bot account is connected for this YouTube channel.');
        const token = as === 'bot' && ctx.bot ? ctx.bot : ctx.broadcaster;
        const id = await withChat('send to', (chat) => client.insertMessage(token, chat.liveChatId, content));
        return { providerMessageId: id || null };
      },
    };

    const moderation: ModerationFacet = {
      async ban({ providerViewerId, durationSeconds, reason }) {
        if (reason !== undefined && reason.trim() !== '')
          throw unsupported('YouTube does not support ban reasons: leave the reason empty.');
        if (durationSeconds !== undefined) {
          if (!Number.isInteger(durationSeconds) || durationSeconds <= 0)
            throw new AppError(400, 'validation_error', 'The timeout duration must be a positive number of seconds.');
          const max = info.maxTimeoutSeconds ?? 86_400;
          if (durationSeconds > max) throw new AppError(400, 'validation_error', `YouTube timeouts last at most ${max / 3600} hours.`);
        }
        const ban = await withChat('ban in', (chat) =>
          client.insertBan(ctx.broadcaster, {
            liveChatId: chat.liveChatId,
            channelId: providerViewerId,
            ...(durationSeconds !== undefined ? { durationSeconds } : {}),
          }),
        );
        await ctx.bans.set(providerViewerId, ban.id);
        return { durationSeconds: durationSeconds === undefined ? null : (ban.durationSeconds ?? durationSeconds) };
      },

      async unban({ providerViewerId }) {
        const banId = await ctx.bans.get(providerViewerId);
        if (!banId) {
          throw unsupported(
            'Greenroom has no YouTube ban of this viewer to lift (YouTube unbans by the id of a ban made through Greenroom); lift it in the YouTube live chat instead.',
          );
        }
        try {
          await client.deleteBan(ctx.broadcaster, banId);
        } catch (error) {
          // Already expired or lifted on YouTube: the viewer is not banned any more.
          if (!(error instanceof PlatformError && error.reason === 'liveChatBanNotFound')) throw error;
        }
        await ctx.bans.delete(providerViewerId);
      },

      async deleteMessage({ providerMessageId }) {
        await client.deleteMessage(ctx.broadcaster, providerMessageId);
      },
    };

    const streamInfo: StreamInfoFacet = {
      async get(): Promise<StreamInfo> {
        const broadcast = await client.activeBroadcast(ctx.broadcaster);
        if (!broadcast) return { title: '', category: null, isLive: false, viewerCount: null, liveStreamId: null };
        const video = await client.video(ctx.broadcaster, broadcast.videoId);
        const categoryId = video?.snippet?.categoryId ?? null;
        const name = categoryId ? (await categories(ctx.broadcaster)).find((c) => c.id === categoryId)?.title : undefined;
        const viewers = video?.liveStreamingDetails?.concurrentViewers;
        return {
          title: video?.snippet?.title ?? broadcast.title,
          category: categoryId ? { id: categoryId, name: name ?? categoryId } : null,
          isLive: true,
          viewerCount: viewers !== undefined && /^\d+$/.test(viewers) ? Number(viewers) : null,
          liveStreamId: broadcast.videoId,
        };
      },

      async update({ title, categoryId }) {
        if (title === undefined && categoryId === undefined) return;
        const max = info.streamTitleMaxLength ?? 100;
        if (title !== undefined) {
          if (title.trim() === '') throw new AppError(400, 'validation_error', 'The stream title cannot be empty.');
          if (title.length > max) throw new AppError(400, 'validation_error', `YouTube stream titles are limited to ${max} characters.`);
          if (/[<>]/.test(title)) throw new AppError(400, 'validation_error', 'YouTube stream titles cannot contain < or >.');
        }
        if (categoryId !== undefined) {
          const known = (await categories(ctx.broadcaster)).find((c) => c.id === categoryId);
          if (!known?.assignable) throw new AppError(400, 'validation_error', 'Unknown YouTube category.');
        }
        const broadcast = (await client.activeBroadcast(ctx.broadcaster)) ?? (await client.activeBroadcast(ctx.broadcaster, 'upcoming'));
        if (!broadcast) throw conflict('There is no live or scheduled YouTube broadcast to update: create one in YouTube Studio first.');
        const video = await client.video(ctx.broadcaster, broadcast.videoId);
        if (!video?.snippet) throw new PlatformError('not_found', 'youtube', 'YouTube did not find the broadcast video.');
        // videos.update replaces the whole snippet: send back everything we keep.
        const current = video.snippet;
        await client.updateVideoSnippet(ctx.broadcaster, broadcast.videoId, {
          title: title ?? current.title,
          categoryId: categoryId ?? current.categoryId ?? '20',
          description: current.description ?? '',
          ...(current.tags ? { tags: current.tags } : {}),
          ...(current.defaultLanguage ? { defaultLanguage: current.defaultLanguage } : {}),
          ...(current.defaultAudioLanguage ? { defaultAudioLanguage: current.defaultAudioLanguage } : {}),
        });
      },

      async searchCategories(query) {
        const q = query.trim().toLowerCase();
        const list = await categories(ctx.broadcaster);
        return list
          .filter((c) => c.assignable && (q === '' || c.title.toLowerCase().includes(q)))
          .map((c) => ({ id: c.id, name: c.title, imageUrl: null }));
      },
    };
    return { chat, moderation, streamInfo };
  }

  return { provider: 'youtube', connect, actions };
}
