import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelProviderParamsSchema } from '@greenroom/contracts/api/channel-providers';
import {
  categoriesQuerySchema,
  categoryListSchema,
  categorySearchResultListSchema,
  streamInfoResultListSchema,
  streamInfoSchema,
  updateAllStreamInfoBodySchema,
  updateStreamInfoBodySchema,
} from '@greenroom/contracts/api/stream-info';
import { requireAuth } from '../../plugins/auth';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import type { StreamInfoService } from './stream-info-service';

export interface StreamInfoRouteDeps {
  streamInfo: StreamInfoService;
}

/** Stream title and category per connection, and on every platform at once (Editors and above). */
export function streamInfoRoutes(app: FastifyInstance, deps: StreamInfoRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { streamInfo } = deps;

  r.get('/api/2/channels/:channelId/providers/:channelProviderId/stream-info', {
    config: { access: channelAccess('stream.update') },
    schema: { tags: ['stream-info'], params: channelProviderParamsSchema, response: { 200: streamInfoSchema, ...errorResponses } },
    handler: async (request) => streamInfo.get(request.params),
  });

  r.patch('/api/2/channels/:channelId/providers/:channelProviderId/stream-info', {
    config: { access: channelAccess('stream.update') },
    schema: {
      tags: ['stream-info'],
      params: channelProviderParamsSchema,
      body: updateStreamInfoBodySchema,
      response: { 200: streamInfoSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { title, category_id: categoryId } = request.body;
      return streamInfo.update(
        request.params,
        { ...(title !== undefined ? { title } : {}), ...(categoryId !== undefined ? { categoryId } : {}) },
        { userId: requireAuth(request).user.id },
      );
    },
  });

  /** Title and/or category (by name) on every connected platform that has them; one result per platform. */
  r.patch('/api/2/channels/:channelId/stream-info', {
    config: { access: channelAccess('stream.update') },
    schema: {
      tags: ['stream-info'],
      params: z.object({ channelId: z.string().min(1).max(64) }),
      body: updateAllStreamInfoBodySchema,
      response: { 200: streamInfoResultListSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { title, category_name: categoryName, categories, channel_provider_ids: only } = request.body;
      const results = await streamInfo.updateAll(
        request.params.channelId,
        {
          ...(title !== undefined ? { title } : {}),
          ...(categoryName !== undefined ? { categoryName } : {}),
          ...(categories !== undefined ? { categoryIds: categories } : {}),
          ...(only !== undefined ? { only } : {}),
        },
        { userId: requireAuth(request).user.id },
      );
      return {
        results: results.map((result) => ({
          channel_provider_id: result.channelProviderId,
          provider: result.provider,
          ok: result.ok,
          info: result.ok ? result.info : null,
          error: result.ok ? null : { type: result.error.type, message: result.error.message },
        })),
      };
    },
  });

  /** Categories matching a query on every connection that has categories, each platform's own results. */
  r.get('/api/2/channels/:channelId/categories', {
    config: { access: channelAccess('stream.update') },
    schema: {
      tags: ['stream-info'],
      params: z.object({ channelId: z.string().min(1).max(64) }),
      querystring: categoriesQuerySchema,
      response: { 200: categorySearchResultListSchema, ...errorResponses },
    },
    handler: async (request) => ({
      results: (await streamInfo.searchCategoriesAll(request.params.channelId, request.query.query)).map((result) => ({
        channel_provider_id: result.channelProviderId,
        provider: result.provider,
        categories: result.ok ? result.categories.map((c) => ({ id: c.id, name: c.name, image_url: c.imageUrl })) : [],
        error: result.ok ? null : { type: result.error.type, message: result.error.message },
      })),
    }),
  });

  r.get('/api/2/channels/:channelId/providers/:channelProviderId/categories', {
    config: { access: channelAccess('stream.update') },
    schema: {
      tags: ['stream-info'],
      params: channelProviderParamsSchema,
      querystring: categoriesQuerySchema,
      response: { 200: categoryListSchema, ...errorResponses },
    },
    handler: async (request) =>
      (await streamInfo.searchCategories(request.params, request.query.query)).map((c) => ({
        id: c.id,
        name: c.name,
        image_url: c.imageUrl,
      })),
  });
}
