/**
 * What the chatbot needs from the platform layer, shaped for the bot: send as the bot, moderate,
 * read and change stream info, list a channel's connections. `connectionsPlatform` implements it on
 * the connection manager's facets (the one platform port) and the stream-info module (title and
 * category on every platform at once); tests pass a fake.
 */
import { eq } from 'drizzle-orm';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders } from '../../db/schema';
import { AppError, unsupported } from '../../lib/errors';
import type { ConnectionActions, ConnectionActionsSource } from '../../platforms/connection-manager';
import { PlatformError } from '../../platforms/platform-error';
import type { PlatformEvent } from '../../platforms/port';
import { errorBodyOf } from '../../plugins/errors';

export interface BotConnection {
  id: string;
  provider: ChannelProviderId;
  /** The channel's name on the platform. */
  name: string;
  isLive: boolean;
}

/** One platform's outcome of a change made on every connected platform. */
export interface PlatformOutcome {
  provider: ChannelProviderId;
  ok: boolean;
  detail: string | null;
}

export interface ChatbotPlatform {
  connections(channelId: string): Promise<BotConnection[]>;
  /** Sends as the channel's bot (else the system bot), in a thread where `replyTo` is given and the platform allows it. */
  send(channelProviderId: string, input: { text: string; replyTo?: string }): Promise<void>;
  deleteMessage(channelProviderId: string, providerMessageId: string): Promise<void>;
  /** A timeout with `durationSeconds`, else a ban. */
  ban(channelProviderId: string, input: { providerViewerId: string; durationSeconds?: number; reason?: string }): Promise<void>;
  streamInfo(channelProviderId: string): Promise<{ title: string | null; category: string | null }>;
  /** The channel's follower count on that platform (YouTube: subscribers); null where the platform publishes none. */
  followerCount?(channelProviderId: string): Promise<number | null>;
  setTitle(channelId: string, title: string): Promise<PlatformOutcome[]>;
  /** Finds the category by name on each platform and sets it. */
  setCategory(channelId: string, name: string): Promise<PlatformOutcome[]>;
  /** Shows the bot's moderation on staff chat (a moderation event from Greenroom). */
  announceModeration?(channelProviderId: string, event: Extract<PlatformEvent, { kind: 'moderation' }>['event']): void;
}

/** What the bot uses of the stream-info module (StreamInfoService). */
export interface StreamInfoChanger {
  updateAll(
    channelId: string,
    change: { title?: string; categoryName?: string },
    actor: { userId: string | null },
  ): Promise<
    (
      | { provider: ChannelProviderId; ok: true; info: { category: { name: string } | null } }
      | { provider: ChannelProviderId; ok: false; error: { message: string } }
    )[]
  >;
}

/** A user-facing reason from whatever the platform layer threw. */
export function platformErrorMessage(provider: ChannelProviderId, error: unknown): string {
  const body = errorBodyOf(error);
  return body.status >= 500 && !(error instanceof PlatformError) ? `${providers[provider].name} did not accept it.` : body.message;
}

const FOLLOWER_COUNT_TTL_MS = 60_000;

export function connectionsPlatform(deps: {
  db: Db;
  source: () => ConnectionActionsSource;
  streamInfo: StreamInfoChanger;
  ingest?: (
    source: { channelId: string; channelProviderId: string; provider: ChannelProviderId; providerChannelId: string },
    event: PlatformEvent,
  ) => Promise<void>;
  log: { warn(obj: object, msg?: string): void };
}): ChatbotPlatform {
  const found = (id: string) => deps.source().actions(id);
  // Replies and timers look the connections up often: one query per channel per second at most.
  const cache = new Map<string, { at: number; list: Promise<BotConnection[]> }>();
  const connections = (channelId: string): Promise<BotConnection[]> => {
    const now = Date.now();
    const hit = cache.get(channelId);
    if (hit && now - hit.at < 1_000) return hit.list;
    const list = deps.db
      .select()
      .from(channelProviders)
      .where(eq(channelProviders.channelId, channelId))
      .then((rows) =>
        rows
          .filter((r) => r.provider in providers)
          .map((r) => ({ id: r.id, provider: r.provider as ChannelProviderId, name: r.providerChannelName, isLive: r.isLive })),
      );
    if (cache.size > 10_000) cache.clear();
    cache.set(channelId, { at: now, list });
    list.catch(() => cache.delete(channelId));
    return list;
  };
  // `$(followers)` asks the platform at most once a minute per connection (YouTube charges quota for each call).
  const followerCounts = new Map<string, { at: number; count: Promise<number | null> }>();
  const facet = async <F extends keyof ConnectionActions['actions']>(id: string, name: F, what: string) => {
    const c = await found(id);
    const f = c.actions[name];
    if (!f) throw unsupported(`${providers[c.provider].name} cannot ${what} through Greenroom.`);
    return f as NonNullable<ConnectionActions['actions'][F]>;
  };
  const outcomes = (results: Awaited<ReturnType<StreamInfoChanger['updateAll']>>): PlatformOutcome[] =>
    results.map((r) =>
      r.ok
        ? { provider: r.provider, ok: true, detail: r.info.category?.name ?? null }
        : { provider: r.provider, ok: false, detail: r.error.message },
    );
  return {
    connections,
    async send(id, input) {
      const chat = await facet(id, 'chat', 'send chat messages');
      await chat.sendMessage({ text: input.text, as: 'bot', ...(input.replyTo ? { replyToProviderMessageId: input.replyTo } : {}) });
    },
    async deleteMessage(id, providerMessageId) {
      await (await facet(id, 'moderation', 'delete messages')).deleteMessage({ providerMessageId });
    },
    async ban(id, input) {
      await (await facet(id, 'moderation', 'time out or ban')).ban(input);
    },
    async streamInfo(id) {
      const info = await (await facet(id, 'streamInfo', 'read the stream title')).get();
      return { title: info.title, category: info.category?.name ?? null };
    },
    followerCount(id) {
      const now = Date.now();
      const hit = followerCounts.get(id);
      if (hit && now - hit.at < FOLLOWER_COUNT_TTL_MS) return hit.count;
      const count = found(id).then((c) => c.actions.channelInfo?.followerCount() ?? null);
      if (followerCounts.size > 10_000) followerCounts.clear();
      followerCounts.set(id, { at: now, count });
      count.catch(() => followerCounts.delete(id));
      return count;
    },
    async setTitle(channelId, title) {
      try {
        return outcomes(await deps.streamInfo.updateAll(channelId, { title }, { userId: null }));
      } catch (error) {
        if (error instanceof AppError) return [];
        throw error;
      }
    },
    async setCategory(channelId, name) {
      try {
        return outcomes(await deps.streamInfo.updateAll(channelId, { categoryName: name }, { userId: null }));
      } catch (error) {
        if (error instanceof AppError) return [];
        throw error;
      }
    },
    announceModeration(id, event) {
      if (!deps.ingest) return;
      void found(id)
        .then((c) =>
          deps.ingest!(
            { channelId: c.channelId, channelProviderId: id, provider: c.provider, providerChannelId: c.providerChannelId },
            { kind: 'moderation', event },
          ),
        )
        .catch((error: unknown) => deps.log.warn({ err: error }, 'announcing a filter action failed'));
    },
  };
}
