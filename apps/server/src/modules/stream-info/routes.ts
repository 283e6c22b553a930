import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AccessLevel } from '@greenroom/contracts/access';
import { channelProviderParamsSchema } from '@greenroom/contracts/api/channel-providers';
import {
  categoriesQuerySchema,
  categoryListSchema,
  streamInfoSchema,
  updateStreamInfoBodySchema,
  type StreamInfoDto,
} from '@greenroom/contracts/api/stream-info';
import { providers } from '@greenroom/contracts/providers';
import { requireAuth } from '../../plugins/auth';
import { badRequest, notFound, unsupported } from '../../lib/errors';
import { errorResponses } from '../../lib/http';
import type { AppServices } from '../../services';
import type { StreamInfo } from '../../platforms/port';

function toDto(info: StreamInfo): StreamInfoDto {
  return {
    title: info.title,
    category: info.category,
    is_live: info.isLive,
    viewer_count: info.viewerCount,
    live_stream_id: info.liveStreamId,
  };
}

/** Stream title and category per connection (spec §6: Editor updates the title; limits of spec §5). */
export function streamInfoRoutes(app: FastifyInstance, s: AppServices): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const connection = async (channelId: string, channelProviderId: string) => {
    const found = await s.connections.actions(channelProviderId);
    if (found.channelId !== channelId) throw notFound('This platform connection does not exist.');
    return found;
  };

  r.get('/api/2/channels/:channelId/providers/:channelProviderId/stream-info', {
    config: { access: { channel: AccessLevel.EDITOR } },
    schema: { tags: ['stream-info'], params: channelProviderParamsSchema, response: { 200: streamInfoSchema, ...errorResponses } },
    handler: async (request) => {
      const { actions, provider } = await connection(request.params.channelId, request.params.channelProviderId);
      const info = providers[provider];
      if (!info.changeTitle && !info.changeCategory) throw unsupported(`${info.name} has no stream title or category.`);
      return toDto(await actions.getStreamInfo());
    },
  });

  r.patch('/api/2/channels/:channelId/providers/:channelProviderId/stream-info', {
    config: { access: { channel: AccessLevel.EDITOR } },
    schema: {
      tags: ['stream-info'],
      params: channelProviderParamsSchema,
      body: updateStreamInfoBodySchema,
      response: { 200: streamInfoSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { channelId, channelProviderId } = request.params;
      const { actions, provider } = await connection(channelId, channelProviderId);
      const info = providers[provider];
      const { title, category_id: categoryId } = request.body;
      if (title !== undefined) {
        if (!info.changeTitle) throw unsupported(`${info.name} stream titles cannot be changed through Greenroom.`);
        const max = info.streamTitleMaxLength;
        if (max !== null && [...title].length > max)
          throw badRequest(`${info.name} titles are limited to ${max} characters (this one has ${[...title].length}).`);
      }
      if (categoryId !== undefined && !info.changeCategory)
        throw unsupported(`${info.name} categories cannot be changed through Greenroom.`);
      await actions.updateStreamInfo({ ...(title !== undefined ? { title } : {}), ...(categoryId !== undefined ? { categoryId } : {}) });
      // The change is made: it is recorded even when reading it back fails (the answer is then an error).
      const after = await actions.getStreamInfo().then(
        (info) => ({ ok: true as const, info }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      await s.audit.record({
        channelId,
        actorUserId: requireAuth(request).user.id,
        action: 'stream.updated',
        data: {
          provider,
          channel_provider_id: channelProviderId,
          title: title ?? null,
          category_id: categoryId ?? null,
          category_name: categoryId !== undefined && after.ok ? (after.info.category?.name ?? null) : null,
        },
      });
      if (!after.ok) throw after.error;
      return toDto(after.info);
    },
  });

  r.get('/api/2/channels/:channelId/providers/:channelProviderId/categories', {
    config: { access: { channel: AccessLevel.EDITOR } },
    schema: {
      tags: ['stream-info'],
      params: channelProviderParamsSchema,
      querystring: categoriesQuerySchema,
      response: { 200: categoryListSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { actions, provider } = await connection(request.params.channelId, request.params.channelProviderId);
      if (!providers[provider].changeCategory) throw unsupported(`${providers[provider].name} has no categories.`);
      const found = await actions.searchCategories(request.query.query);
      return found.map((c) => ({ id: c.id, name: c.name, image_url: c.imageUrl }));
    },
  });
}
