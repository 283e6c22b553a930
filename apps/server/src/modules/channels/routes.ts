import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  channelChatSettingsBodySchema,
  channelListSchema,
  channelSchema,
  createChannelBodySchema,
  deleteChannelQuerySchema,
  listChannelsQuerySchema,
  updateChannelBodySchema,
} from '@greenroom/contracts/api/channels';
import { providerIdSchema } from '@greenroom/contracts/providers';
import { requireAuth } from '../../plugins/auth';
import { channelAccess } from '../../lib/access';
import { errorResponses, noContent } from '../../lib/http';
import type { ChannelService } from './channel-service';

export interface ChannelRouteDeps {
  channels: ChannelService;
}

export function channelRoutes(app: FastifyInstance, deps: ChannelRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { channels } = deps;

  r.post('/api/2/channels', {
    config: { access: 'user' },
    schema: { tags: ['channels'], body: createChannelBodySchema, response: { 201: channelSchema, ...errorResponses } },
    handler: async (request, reply) => {
      const channel = await channels.create(requireAuth(request).user.id, request.body.display_name);
      return reply.code(201).send(channel);
    },
  });

  r.get('/api/2/channels', {
    config: { access: 'user' },
    schema: { tags: ['channels'], querystring: listChannelsQuerySchema, response: { 200: channelListSchema, ...errorResponses } },
    handler: async (request) => channels.listForUser(requireAuth(request).user.id, request.query),
  });

  /** One channel by id, or by provider plus provider channel name (the two ways a channel is identified in URLs). */
  r.get('/api/2/channel', {
    config: { access: 'user' },
    schema: {
      tags: ['channels'],
      querystring: z.object({
        channel_id: z.string().max(64).optional(),
        provider: providerIdSchema.optional(),
        provider_channel_name: z.string().max(200).optional(),
      }),
      response: { 200: channelSchema, ...errorResponses },
    },
    handler: async (request) => channels.findForUser(requireAuth(request).user.id, request.query),
  });

  const params = z.object({ channelId: z.string().max(64) });

  r.get('/api/2/channels/:channelId', {
    config: { access: channelAccess('channel.view') },
    schema: { tags: ['channels'], params, response: { 200: channelSchema, ...errorResponses } },
    handler: async (request) => channels.getForUser(request.params.channelId, requireAuth(request).user.id, request.channelLevel ?? 0),
  });

  r.patch('/api/2/channels/:channelId', {
    config: { access: channelAccess('channel.rename') },
    schema: { tags: ['channels'], params, body: updateChannelBodySchema, response: { 200: channelSchema, ...errorResponses } },
    handler: async (request) =>
      channels.renameAs(request.params.channelId, request.body.display_name, {
        userId: requireAuth(request).user.id,
        level: request.channelLevel ?? 0,
      }),
  });

  /** Chat settings only the Owner changes: whether Editors may post as the streamer. */
  r.put('/api/2/channels/:channelId/chat-settings', {
    config: { access: channelAccess('chat.settings') },
    schema: { tags: ['channels'], params, body: channelChatSettingsBodySchema, response: { 200: channelSchema, ...errorResponses } },
    handler: async (request) =>
      channels.setEditorsPostAsStreamerAs(request.params.channelId, request.body.editors_post_as_streamer, {
        userId: requireAuth(request).user.id,
        level: request.channelLevel ?? 0,
      }),
  });

  /** Delete (Owner only), confirmed by typing the channel's name; platforms are disconnected first. */
  r.delete('/api/2/channels/:channelId', {
    config: { access: channelAccess('channel.delete') },
    schema: { tags: ['channels'], params, querystring: deleteChannelQuerySchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      const { channelId } = request.params;
      const { user } = requireAuth(request);
      await channels.deleteConfirmed(channelId, request.query.name, user.id);
      request.log.info({ channelId, userId: user.id }, 'channel deleted');
      return reply.code(204).send(null);
    },
  });
}
