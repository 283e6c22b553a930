import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccessLevel } from '@greenroom/contracts/access';
import { channelListSchema, channelSchema, createChannelBodySchema, listChannelsQuerySchema } from '@greenroom/contracts/api/channels';
import { providerIdSchema } from '@greenroom/contracts/providers';
import { requireAuth } from '../../plugins/auth';
import { badRequest, notFound } from '../../lib/errors';
import { errorResponses } from '../../lib/http';
import type { AppServices } from '../../services';

export const CHANNEL_ID_REQUIRED = 'A channel id, or provider plus provider channel name, is required';

export function channelRoutes(app: FastifyInstance, s: AppServices): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/2/channels', {
    config: { access: 'user' },
    schema: { tags: ['channels'], body: createChannelBodySchema, response: { 201: channelSchema, ...errorResponses } },
    handler: async (request, reply) => {
      const channel = await s.channels.create(requireAuth(request).user.id, request.body.display_name);
      return reply.code(201).send(channel);
    },
  });

  r.get('/api/2/channels', {
    config: { access: 'user' },
    schema: { tags: ['channels'], querystring: listChannelsQuerySchema, response: { 200: channelListSchema, ...errorResponses } },
    handler: async (request) => s.channels.listForUser(requireAuth(request).user.id, request.query),
  });

  /** One channel by id, or by provider plus provider channel name (spec §2 channel identification). */
  r.get('/api/2/channel', {
    config: { access: 'user' },
    schema: {
      tags: ['channels'],
      querystring: z.object({ channel_id: z.string().max(64).optional(), provider: providerIdSchema.optional(), provider_channel_name: z.string().max(200).optional() }),
      response: { 200: channelSchema, ...errorResponses },
    },
    handler: async (request) => {
      const q = request.query;
      if (!q.channel_id && !(q.provider && q.provider_channel_name)) throw badRequest(CHANNEL_ID_REQUIRED);
      const page = await s.channels.listForUser(requireAuth(request).user.id, { ...q, per_page: 1 });
      const found = page.records[0];
      if (!found) throw notFound('Channel not found');
      return found;
    },
  });

  r.get('/api/2/channels/:channelId', {
    config: { access: { channel: AccessLevel.PUBLIC } },
    schema: { tags: ['channels'], params: z.object({ channelId: z.string().max(64) }), response: { 200: channelSchema, ...errorResponses } },
    handler: async (request) => s.channels.getForUser(request.params.channelId, requireAuth(request).user.id, request.channelLevel ?? 0),
  });
}
