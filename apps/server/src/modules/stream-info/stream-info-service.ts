/**
 * Stream title and category: the rules in one place, for the REST routes, the chatbot (`!title`, `!game`,
 * `!settitle`, `!setgame`) and the dashboard ("update title and category on every connected platform at once").
 *
 *  - `get(target)` / `update(target, change, actor)` / `searchCategories(target, query)`: one connection.
 *    Refuses with 422 `unsupported` where the catalogue gives the platform no title or category, with 400 when a
 *    title is longer than the platform allows (counted in code points, as the platforms count); an update is
 *    recorded in the audit log (`stream.updated`) and answers the platform's state after it.
 *  - `updateAll(channelId, change, actor)`: every connection of the channel that can take the change, each with
 *    its own result — one platform may refuse while the others succeed. A category is given by name there
 *    (`categoryName`, as a chatbot command or one dashboard field would): each platform's own search picks its
 *    category (the exact name, ignoring case, else the first result).
 *
 * Errors are the server's one AppError and the platform layer's one PlatformError; the error plugin turns them
 * into `{ type, message }` bodies, and `updateAll` reports them per platform with the same type and message.
 */
import { pickCategory, type StreamInfoDto } from '@greenroom/contracts/api/stream-info';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { badRequest, notFound, unsupported } from '../../lib/errors';
import type { ConnectionActionsSource } from '../../platforms/connection-manager';
import type { Category, StreamInfo, StreamInfoFacet } from '../../platforms/port';
import { errorBodyOf, type ErrorBodyOf } from '../../plugins/errors';
import type { AuditRecorder } from '../audit';

export interface StreamInfoTarget {
  channelId: string;
  channelProviderId: string;
}

export interface StreamInfoChange {
  title?: string;
  /** One connection: the platform's category id (from `searchCategories`). */
  categoryId?: string;
}

export interface StreamInfoChangeAll {
  title?: string;
  /** Every platform: a category name, matched by each platform's own category search. */
  categoryName?: string;
  /** Per connection (channel provider id → the platform's category id): used instead of matching the name there. */
  categoryIds?: Record<string, string>;
  /** Only these connections (default: every connection of the channel that can take the change). */
  only?: string[];
}

export type CategorySearchResult =
  | { channelProviderId: string; provider: ChannelProviderId; ok: true; categories: Category[] }
  | { channelProviderId: string; provider: ChannelProviderId; ok: false; error: ErrorBodyOf };

/** Who changes it: a signed-in user (null for Greenroom itself, e.g. a chatbot command of a viewer). */
export interface StreamInfoActor {
  userId: string | null;
}

export type StreamInfoResult =
  | { channelProviderId: string; provider: ChannelProviderId; ok: true; info: StreamInfoDto }
  | { channelProviderId: string; provider: ChannelProviderId; ok: false; error: ErrorBodyOf };

export interface StreamInfoServiceDeps {
  connections: ConnectionActionsSource;
  audit: AuditRecorder;
}

export function toStreamInfoDto(info: StreamInfo): StreamInfoDto {
  return {
    title: info.title,
    category: info.category,
    is_live: info.isLive,
    viewer_count: info.viewerCount,
    live_stream_id: info.liveStreamId,
  };
}

export { pickCategory };

export class StreamInfoService {
  constructor(private readonly deps: StreamInfoServiceDeps) {}

  private async facet(target: StreamInfoTarget): Promise<{ facet: StreamInfoFacet | undefined; provider: ChannelProviderId }> {
    const found = await this.deps.connections.actions(target.channelProviderId);
    if (found.channelId !== target.channelId) throw notFound('This platform connection does not exist.');
    return { facet: found.actions.streamInfo, provider: found.provider };
  }

  async get(target: StreamInfoTarget): Promise<StreamInfoDto> {
    const { facet, provider } = await this.facet(target);
    const info = providers[provider];
    if (!facet || (!info.changeTitle && !info.changeCategory)) throw unsupported(`${info.name} has no stream title or category.`);
    return toStreamInfoDto(await facet.get());
  }

  async searchCategories(target: StreamInfoTarget, query: string): Promise<Category[]> {
    const { facet, provider } = await this.facet(target);
    const info = providers[provider];
    if (!facet || !info.changeCategory) throw unsupported(`${info.name} has no categories.`);
    return facet.searchCategories(query);
  }

  /** Checks a change against the platform's capabilities and limits (throws the error a user sees). */
  static check(provider: ChannelProviderId, change: { title?: string; category?: boolean }): void {
    const info = providers[provider];
    if (change.title !== undefined) {
      if (!info.changeTitle) throw unsupported(`${info.name} stream titles cannot be changed through Greenroom.`);
      const max = info.streamTitleMaxLength;
      const length = [...change.title].length;
      if (max !== null && length > max) {
        const message = `${info.name} titles are limited to ${max} characters (this one has ${length}).`;
        throw badRequest(message, { title: message });
      }
    }
    if (change.category && !info.changeCategory) throw unsupported(`${info.name} categories cannot be changed through Greenroom.`);
  }

  async update(target: StreamInfoTarget, change: StreamInfoChange, actor: StreamInfoActor): Promise<StreamInfoDto> {
    const { facet, provider } = await this.facet(target);
    StreamInfoService.check(provider, {
      ...(change.title !== undefined ? { title: change.title } : {}),
      category: change.categoryId !== undefined,
    });
    if (!facet) throw unsupported(`${providers[provider].name} has no stream title or category.`);
    return this.apply(target, provider, facet, change, actor);
  }

  private async apply(
    target: StreamInfoTarget,
    provider: ChannelProviderId,
    facet: StreamInfoFacet,
    change: StreamInfoChange,
    actor: StreamInfoActor,
  ): Promise<StreamInfoDto> {
    const { title, categoryId } = change;
    await facet.update({ ...(title !== undefined ? { title } : {}), ...(categoryId !== undefined ? { categoryId } : {}) });
    // The change is made: it is recorded even when reading it back fails (the answer is then that error).
    const after = await facet.get().then(
      (info) => ({ ok: true as const, info }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await this.deps.audit.record({
      channelId: target.channelId,
      actorUserId: actor.userId,
      action: 'stream.updated',
      data: {
        provider,
        channel_provider_id: target.channelProviderId,
        title: title ?? null,
        category_id: categoryId ?? null,
        category_name: categoryId !== undefined && after.ok ? (after.info.category?.name ?? null) : null,
      },
    });
    if (!after.ok) throw after.error;
    return toStreamInfoDto(after.info);
  }

  /**
   * The change on every connection of the channel whose platform can take it (a title where titles can be
   * changed, a category where categories can), one result per connection in connection order. Platforms that
   * can take neither part are left out, and so are connections outside `only` when it is given. A connection's
   * entry in `categoryIds` is used as is; elsewhere `categoryName` is matched by the platform's search. Nothing is
   * thrown for one platform's failure.
   */
  async updateAll(channelId: string, change: StreamInfoChangeAll, actor: StreamInfoActor): Promise<StreamInfoResult[]> {
    const wantsTitle = change.title !== undefined;
    const name = change.categoryName?.trim() ?? '';
    const ids = change.categoryIds ?? {};
    const wantsCategoryOn = (id: string) => ids[id] !== undefined || name !== '';
    if (!wantsTitle && name === '' && Object.keys(ids).length === 0) throw badRequest('Give a title or a category to change.');
    const only = change.only ? new Set(change.only) : null;
    const connections = (await this.deps.connections.connectionsOf(channelId)).filter(
      (c) =>
        (only === null || only.has(c.id)) &&
        ((wantsTitle && providers[c.provider].changeTitle) || (wantsCategoryOn(c.id) && providers[c.provider].changeCategory)),
    );
    if (connections.length === 0) throw unsupported('No connected platform has a stream title or category.');
    return Promise.all(
      connections.map(async ({ id, provider }): Promise<StreamInfoResult> => {
        try {
          const info = providers[provider];
          const target = { channelId, channelProviderId: id };
          const { facet } = await this.facet(target);
          if (!facet) throw unsupported(`${info.name} has no stream title or category.`);
          const title = wantsTitle && info.changeTitle ? change.title : undefined;
          if (title !== undefined) StreamInfoService.check(provider, { title });
          let categoryId: string | undefined;
          if (info.changeCategory && ids[id] !== undefined) categoryId = ids[id];
          else if (info.changeCategory && name !== '') {
            const category = pickCategory(await facet.searchCategories(name), name);
            if (!category) throw badRequest(`${info.name} has no category matching "${name}".`);
            categoryId = category.id;
          }
          const dto = await this.apply(
            target,
            provider,
            facet,
            { ...(title !== undefined ? { title } : {}), ...(categoryId !== undefined ? { categoryId } : {}) },
            actor,
          );
          return { channelProviderId: id, provider, ok: true, info: dto };
        } catch (error) {
          return { channelProviderId: id, provider, ok: false, error: errorBodyOf(error) };
        }
      }),
    );
  }

  /** Categories matching `query` on every connection with categories, each from its platform's own search. */
  async searchCategoriesAll(channelId: string, query: string): Promise<CategorySearchResult[]> {
    const connections = (await this.deps.connections.connectionsOf(channelId)).filter((c) => providers[c.provider].changeCategory);
    return Promise.all(
      connections.map(async ({ id, provider }): Promise<CategorySearchResult> => {
        try {
          const categories = await this.searchCategories({ channelId, channelProviderId: id }, query);
          return { channelProviderId: id, provider, ok: true, categories };
        } catch (error) {
          return { channelProviderId: id, provider, ok: false, error: errorBodyOf(error) };
        }
      }),
    );
  }
}
