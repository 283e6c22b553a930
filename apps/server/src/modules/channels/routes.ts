import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccessLevel } from '@greenroom/contracts/access';
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
import { badRequest, notFound } from '../../lib/errors';
import { errorResponses, noContent } from '../../lib/http';
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
      querystring: z.object({
        channel_id: z.string().max(64).optional(),
        provider: providerIdSchema.optional(),
        provider_channel_name: z.string().max(200).optional(),
      }),
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

  const params = z.object({ channelId: z.string().max(64) });

  r.get('/api/2/channels/:channelId', {
    config: { access: { channel: AccessLevel.PUBLIC } },
    schema: { tags: ['channels'], params, response: { 200: channelSchema, ...errorResponses } },
    handler: async (request) => s.channels.getForUser(request.params.channelId, requireAuth(request).user.id, request.channelLevel ?? 0),
  });

  /** Rename (Admin). */
  r.patch('/api/2/channels/:channelId', {
    config: { access: { channel: AccessLevel.ADMIN } },
    schema: { tags: ['channels'], params, body: updateChannelBodySchema, response: { 200: channelSchema, ...errorResponses } },
    handler: async (request) => {
      const { channelId } = request.params;
      const before = await s.channels.displayName(channelId);
      await s.channels.rename(channelId, request.body.display_name);
      await s.audit.record({
        channelId,
        actorUserId: requireAuth(request).user.id,
        action: 'channel.renamed',
        data: { from: before, to: request.body.display_name },
      });
      return s.channels.getForUser(channelId, requireAuth(request).user.id, request.channelLevel ?? 0);
    },
  });

  /** Chat settings only the Owner changes: whether Editors may post as the streamer. */
  r.put('/api/2/channels/:channelId/chat-settings', {
    config: { access: { channel: AccessLevel.OWNER } },
    schema: { tags: ['channels'], params, body: channelChatSettingsBodySchema, response: { 200: channelSchema, ...errorResponses } },
    handler: async (request) => {
      const { channelId } = request.params;
      const { user } = requireAuth(request);
      const allowed = request.body.editors_post_as_streamer;
      const before = await s.channels.setEditorsPostAsStreamer(channelId, allowed);
      if (before !== allowed) {
        await s.audit.record({
          channelId,
          actorUserId: user.id,
          action: 'channel.chat_settings_changed',
          data: { editors_post_as_streamer: allowed },
        });
      }
      return s.channels.getForUser(channelId, user.id, request.channelLevel ?? 0);
    },
  });

  /**
   * Delete (Owner, spec §6), confirmed by typing the channel's name: every platform is disconnected first
   * (connections closed, tokens revoked, Kick subscriptions removed), then the channel and all its data.
   */
  r.delete('/api/2/channels/:channelId', {
    config: { access: { channel: AccessLevel.OWNER } },
    schema: { tags: ['channels'], params, querystring: deleteChannelQuerySchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      const { channelId } = request.params;
      const name = await s.channels.displayName(channelId);
      if (request.query.name !== name) {
        const message = `Type the channel name "${name}" exactly to confirm.`;
        throw badRequest(message, { name: message });
      }
      const { user } = requireAuth(request);
      await s.channelProviders.disconnectAll(channelId, user.id);
      await s.channels.deleteRow(channelId);
      request.log.info({ channelId, userId: user.id }, 'channel deleted');
      return reply.code(204).send(null);
    },
  });
}
