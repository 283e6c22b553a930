/**
 * What the chatbot needs from the platform layer, shaped for the bot: send as the bot, moderate,
 * read and change stream info, list a channel's connections. `connectionsPlatform` implements it on
 * the connection manager's actions (the one platform port); tests pass a fake.
 */
import { eq } from 'drizzle-orm';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { ChannelActions, PlatformEvent } from '../../platforms/port';

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
  setTitle(channelId: string, title: string): Promise<PlatformOutcome[]>;
  /** Finds the category by name on each platform and sets it. */
  setCategory(channelId: string, name: string): Promise<PlatformOutcome[]>;
  /** Shows the bot's moderation on staff chat (a moderation event from Greenroom). */
  announceModeration?(channelProviderId: string, event: Extract<PlatformEvent, { kind: 'moderation' }>['event']): void;
}

interface ActionsSource {
  actions(
    channelProviderId: string,
  ): Promise<{ actions: ChannelActions; channelId: string; provider: ChannelProviderId; providerChannelId: string }>;
}

/** A user-facing reason from whatever the platform layer threw. */
export function platformErrorMessage(provider: ChannelProviderId, error: unknown): string {
  if (error instanceof AppError) return error.message;
  return `${providers[provider].name} did not accept it.`;
}

export function connectionsPlatform(deps: {
  db: Db;
  source: () => ActionsSource;
  ingest?: (
    source: { channelId: string; channelProviderId: string; provider: ChannelProviderId; providerChannelId: string },
    event: PlatformEvent,
  ) => void;
  log: { warn(obj: object, msg?: string): void };
}): ChatbotPlatform {
  const actions = async (id: string) => (await deps.source().actions(id)).actions;
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
  const onEvery = async (
    channelId: string,
    can: (p: ChannelProviderId) => boolean,
    work: (a: ChannelActions, provider: ChannelProviderId) => Promise<string | null>,
  ): Promise<PlatformOutcome[]> => {
    const list = (await connections(channelId)).filter((c) => can(c.provider));
    return Promise.all(
      list.map(async (c) => {
        try {
          const detail = await work(await actions(c.id), c.provider);
          return { provider: c.provider, ok: true, detail };
        } catch (error) {
          return { provider: c.provider, ok: false, detail: platformErrorMessage(c.provider, error) };
        }
      }),
    );
  };
  return {
    connections,
    async send(id, input) {
      await (
        await actions(id)
      ).sendMessage({ text: input.text, as: 'bot', ...(input.replyTo ? { replyToProviderMessageId: input.replyTo } : {}) });
    },
    async deleteMessage(id, providerMessageId) {
      await (await actions(id)).deleteMessage({ providerMessageId });
    },
    async ban(id, input) {
      await (await actions(id)).ban(input);
    },
    async streamInfo(id) {
      const info = await (await actions(id)).getStreamInfo();
      return { title: info.title, category: info.category?.name ?? null };
    },
    setTitle(channelId, title) {
      return onEvery(
        channelId,
        (p) => providers[p].changeTitle,
        async (a, provider) => {
          const max = providers[provider].streamTitleMaxLength;
          if (max !== null && [...title].length > max) throw new AppError(400, 'bad_request', `titles are limited to ${max} characters`);
          await a.updateStreamInfo({ title });
          return null;
        },
      );
    },
    setCategory(channelId, name) {
      return onEvery(
        channelId,
        (p) => providers[p].changeCategory,
        async (a) => {
          const found = await a.searchCategories(name);
          const exact = found.find((c) => c.name.toLowerCase() === name.toLowerCase()) ?? found[0];
          if (!exact) throw new AppError(404, 'not_found', `no category "${name}"`);
          await a.updateStreamInfo({ categoryId: exact.id });
          return exact.name;
        },
      );
    },
    announceModeration(id, event) {
      if (!deps.ingest) return;
      void deps
        .source()
        .actions(id)
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
