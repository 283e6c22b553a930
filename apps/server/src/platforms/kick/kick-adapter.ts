/**
 * The Kick adapter: actions over the public API, and a "live connection" that keeps the channel's
 * webhook subscriptions in place and registers the channel with the KickWebhookReceiver, which
 * routes verified deliveries to `ctx.emit`. The subscriptions outlive restarts (Kick delivers to the
 * product's URL); `teardown` deletes them when the channel provider is disconnected.
 */
import { providers, timeoutProblem } from '@greenroom/contracts/providers';
import { AppError, badRequest } from '../../lib/errors';
import { Backoff, sleep } from '../backoff';
import type { PlatformEndpoints } from '../endpoints';
import { isReconnectNeeded, PlatformError } from '../platform-error';
import { OwnBans } from '../own-actions';
import type {
  ChannelActions,
  ChannelConnectionContext,
  ChatFacet,
  EmitOptions,
  LiveConnection,
  ModerationFacet,
  PlatformAdapter,
  PlatformEvent,
  StreamInfo,
  StreamInfoFacet,
  TokenSource,
} from '../port';
import { KickClient } from './kick-client';
import { kickSubscribedEvents } from './kick-events';
import type { KickWebhookReceiver } from './kick-webhook-receiver';

export interface KickAdapterDeps {
  endpoints: PlatformEndpoints['kick'];
  receiver: KickWebhookReceiver;
  client?: KickClient;
  /** How often the subscriptions are checked again (Kick drops them after a day of failed deliveries). Default 15 min. */
  resubscribeCheckMs?: number;
  /** Reconnect backoff (tests shorten it). */
  backoff?: { baseMs?: number; maxMs?: number };
  /** The bans Greenroom is making (shared with the cluster so another instance's bans are recognised too). */
  ownBans?: OwnBans;
}

type ActionsContext = Omit<ChannelConnectionContext, 'emit' | 'setHealth' | 'signal'>;

const kickInfo = providers.kick;
const stateKey = 'kickSubscriptions';

function savedSubscriptions(state: Record<string, unknown>): Record<string, string> {
  const value = state[stateKey];
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

export function createKickAdapter(deps: KickAdapterDeps): PlatformAdapter {
  const client = deps.client ?? new KickClient({ apiUrl: deps.endpoints.apiUrl, apiV2Url: deps.endpoints.apiV2Url });
  const ownBans = deps.ownBans ?? new OwnBans();

  /** Makes sure every wanted event is subscribed (creating only the missing ones); persists the ids. */
  async function ensureSubscriptions(ctx: ChannelConnectionContext): Promise<void> {
    const token = ctx.broadcaster;
    const existing = await client.subscriptions(token, ctx.providerChannelId);
    const ids: Record<string, string> = {};
    for (const sub of existing) {
      if (
        sub.version === 1 &&
        sub.broadcaster_user_id === ctx.providerChannelId &&
        (kickSubscribedEvents as readonly string[]).includes(sub.event)
      )
        ids[sub.event] = sub.id;
    }
    const missing = kickSubscribedEvents.filter((event) => !ids[event]);
    if (missing.length > 0) {
      const created = await client.subscribe(token, ctx.providerChannelId, missing);
      for (const result of created) {
        if (result.subscriptionId) ids[result.name] = result.subscriptionId;
        else ctx.log.warn({ event: result.name, error: result.error }, 'Kick refused an event subscription');
      }
    }
    if (!sameMap(ids, savedSubscriptions(ctx.state))) await ctx.saveState({ [stateKey]: ids });
  }

  async function emitStreamStatus(ctx: ChannelConnectionContext): Promise<void> {
    const channel = await client.channel(ctx.broadcaster, ctx.providerChannelId);
    if (!channel) return;
    const live = channel.stream?.is_live ?? false;
    const start = channel.stream?.start_time;
    void ctx.emit({
      kind: 'stream',
      status: {
        is_live: live,
        viewer_count: live ? (channel.stream?.viewer_count ?? null) : null,
        title: channel.stream_title,
        category: channel.category?.name ?? null,
        started_at: live && start && !start.startsWith('0001-') ? new Date(start).toISOString() : null,
      },
    });
  }

  function connect(ctx: ChannelConnectionContext): LiveConnection {
    const stop = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stop.signal]);
    const emit = (events: readonly PlatformEvent[], options: EmitOptions): Promise<void> =>
      // Kick's moderation.banned echo of a ban Greenroom made is already published (source greenroom).
      ctx.emit(
        events.filter(
          (event) =>
            !(
              event.kind === 'moderation' &&
              event.event.target &&
              (event.event.kind === 'ban' || event.event.kind === 'timeout') &&
              ownBans.takeEcho(ctx.providerChannelId, event.event.target.provider_user_id)
            ),
        ),
        options,
      );
    const unregister = deps.receiver.register(ctx.providerChannelId, { channelProviderId: ctx.channelProviderId, emit });
    const backoff = new Backoff({ baseMs: deps.backoff?.baseMs ?? 1000, maxMs: deps.backoff?.maxMs ?? 5 * 60_000 });

    const run = async (): Promise<void> => {
      ctx.setHealth('connecting', null);
      let first = true;
      while (!signal.aborted) {
        try {
          await ensureSubscriptions(ctx);
          if (first) await emitStreamStatus(ctx);
          first = false;
          backoff.reset();
          ctx.setHealth('connected', null);
          await sleep(deps.resubscribeCheckMs ?? 15 * 60_000, signal);
        } catch (error) {
          if (signal.aborted) return;
          if (isReconnectNeeded(error)) {
            ctx.setHealth('needs_reauth', error.message);
            return;
          }
          const detail = error instanceof Error ? error.message : String(error);
          ctx.log.warn({ err: error }, 'Kick subscription check failed');
          ctx.setHealth('reconnecting', detail);
          await backoff.wait(signal);
        }
      }
    };
    const loop = run();
    return {
      async close() {
        unregister();
        stop.abort();
        await loop;
      },
    };
  }

  /**
   * Disconnect: deletes the channel's webhook subscriptions at Kick (the stored ids and any Kick still
   * lists for the broadcaster), so Kick stops sending its events. Best effort: logs, never throws.
   */
  async function teardown(ctx: ActionsContext): Promise<void> {
    const ids = new Set(Object.values(savedSubscriptions(ctx.state)));
    try {
      for (const sub of await client.subscriptions(ctx.broadcaster, ctx.providerChannelId)) {
        if (sub.broadcaster_user_id === ctx.providerChannelId) ids.add(sub.id);
      }
    } catch (error) {
      ctx.log.warn(
        { err: error, channelProviderId: ctx.channelProviderId },
        'listing Kick event subscriptions to remove failed; removing the stored ones',
      );
    }
    if (ids.size === 0) return;
    try {
      await client.unsubscribe(ctx.broadcaster, [...ids]);
    } catch (error) {
      ctx.log.warn(
        { err: error, channelProviderId: ctx.channelProviderId, subscriptions: ids.size },
        'removing Kick event subscriptions failed',
      );
    }
  }

  function actions(ctx: ActionsContext): ChannelActions {
    const broadcasterId = ctx.providerChannelId;
    const moderator = (): TokenSource => ctx.broadcaster;

    const chat: ChatFacet = {
      async sendMessage({ text, replyToProviderMessageId, as }) {
        const content = text.trim();
        if (content === '') throw badRequest('The message is empty.');
        if (content.length > 500) throw new AppError(400, 'validation_error', 'Kick chat messages are limited to 500 characters.');
        const reply = replyToProviderMessageId ? { replyToMessageId: replyToProviderMessageId } : {};
        let result: { isSent: boolean; messageId: string };
        if (as === 'bot' && ctx.bot) {
          // The channel's own bot (or the system bot): a user message from that account in the streamer's channel.
          result = await client.sendChat(ctx.bot, { content, type: 'user', broadcasterUserId: broadcasterId, ...reply });
        } else if (as === 'bot') {
          // No bot account: the app's Kick bot posts into the token owner's channel.
          result = await client.sendChat(ctx.broadcaster, { content, type: 'bot', broadcasterUserId: broadcasterId, ...reply });
        } else {
          result = await client.sendChat(ctx.broadcaster, { content, type: 'user', broadcasterUserId: broadcasterId, ...reply });
        }
        if (!result.isSent)
          throw new PlatformError(
            'refused',
            'kick',
            'Kick did not post the message: the sender is banned, timed out or restricted in this chat.',
          );
        return { providerMessageId: result.messageId || null };
      },
    };

    const moderation: ModerationFacet = {
      async ban({ providerViewerId, durationSeconds, reason }) {
        const max = kickInfo.banReasonMaxLength ?? 100;
        if (reason && reason.length > max)
          throw new AppError(400, 'validation_error', `Kick ban reasons are limited to ${max} characters.`);
        // Kick takes whole minutes (1 to 10,080): any other duration is refused, never rounded behind the moderator's back.
        let durationMinutes: number | undefined;
        if (durationSeconds !== undefined) {
          const problem = timeoutProblem('kick', durationSeconds);
          if (problem) throw new AppError(400, 'validation_error', problem);
          durationMinutes = durationSeconds / 60;
        }
        ownBans.mark(broadcasterId, providerViewerId);
        try {
          await client.ban(moderator(), {
            broadcasterUserId: broadcasterId,
            userId: providerViewerId,
            ...(durationMinutes !== undefined ? { durationMinutes } : {}),
            ...(reason ? { reason } : {}),
          });
        } catch (error) {
          ownBans.forget(broadcasterId, providerViewerId);
          throw error;
        }
        // Kick answers `{ data: {} }`: it applied the whole minutes sent.
        return { durationSeconds: durationMinutes === undefined ? null : durationMinutes * 60 };
      },

      async unban({ providerViewerId }) {
        await client.unban(moderator(), { broadcasterUserId: broadcasterId, userId: providerViewerId });
      },

      async deleteMessage({ providerMessageId }) {
        await client.deleteChat(moderator(), providerMessageId);
      },
    };

    const streamInfo: StreamInfoFacet = {
      async get(): Promise<StreamInfo> {
        const channel = await client.channel(ctx.broadcaster, broadcasterId);
        if (!channel) throw new PlatformError('not_found', 'kick', 'Kick did not find this channel.');
        const live = channel.stream?.is_live ?? false;
        return {
          title: channel.stream_title,
          category: channel.category ? { id: channel.category.id, name: channel.category.name } : null,
          isLive: live,
          viewerCount: live ? (channel.stream?.viewer_count ?? null) : null,
          liveStreamId: null,
        };
      },

      async update({ title, categoryId }) {
        if (title === undefined && categoryId === undefined) return;
        const max = kickInfo.streamTitleMaxLength ?? 140;
        if (title !== undefined) {
          if (title.trim() === '') throw new AppError(400, 'validation_error', 'The stream title cannot be empty.');
          if (title.length > max) throw new AppError(400, 'validation_error', `Kick stream titles are limited to ${max} characters.`);
        }
        if (categoryId !== undefined && !/^\d+$/.test(categoryId)) throw new AppError(400, 'validation_error', 'Unknown Kick category.');
        await client.updateChannel(ctx.broadcaster, {
          ...(title !== undefined ? { streamTitle: title } : {}),
          ...(categoryId !== undefined ? { categoryId } : {}),
        });
      },

      async searchCategories(query) {
        const q = query.trim();
        if (q === '') return [];
        const found = await client.searchCategories(ctx.broadcaster, q);
        return found.map((c) => ({ id: c.id, name: c.name, imageUrl: c.thumbnail || null }));
      },
    };
    return { chat, moderation, streamInfo };
  }

  return { provider: 'kick', connect, actions, teardown };
}
