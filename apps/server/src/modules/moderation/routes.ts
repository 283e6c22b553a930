import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { banBodySchema, deleteMessageParamsSchema, moderationParamsSchema, unbanQuerySchema } from '@greenroom/contracts/api/moderation';
import { requireAuth } from '../../plugins/auth';
import { channelAccess } from '../../lib/access';
import { errorResponses, noContent } from '../../lib/http';
import type { ModerationService } from './moderation-service';

export interface ModerationRouteDeps {
  moderation: ModerationService;
}

/** Moderation endpoints (ban/timeout, unban, delete a message); moderators and above use the moderation tools. */
export function moderationRoutes(app: FastifyInstance, s: ModerationRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const moderator = (request: Parameters<typeof requireAuth>[0]) => {
    const { user } = requireAuth(request);
    return { userId: user.id, displayName: user.displayName };
  };

  r.post('/api/2/channels/:channelId/:provider/:channelProviderId/ban', {
    config: { access: channelAccess('chat.moderate') },
    schema: { tags: ['moderation'], params: moderationParamsSchema, body: banBodySchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      const b = request.body;
      await s.moderation.ban(
        request.params,
        {
          providerViewerId: b.provider_viewer_id,
          ...(b.duration_seconds !== undefined ? { durationSeconds: b.duration_seconds } : {}),
          ...(b.reason !== undefined ? { reason: b.reason } : {}),
        },
        moderator(request),
      );
      return reply.code(204).send(null);
    },
  });

  r.delete('/api/2/channels/:channelId/:provider/:channelProviderId/ban', {
    config: { access: channelAccess('chat.moderate') },
    schema: {
      tags: ['moderation'],
      params: moderationParamsSchema,
      querystring: unbanQuerySchema,
      response: { ...noContent, ...errorResponses },
    },
    handler: async (request, reply) => {
      await s.moderation.unban(request.params, { providerViewerId: request.query.provider_viewer_id }, moderator(request));
      return reply.code(204).send(null);
    },
  });

  r.delete('/api/2/channels/:channelId/:provider/:channelProviderId/chat-messages/:providerMessageId', {
    config: { access: channelAccess('chat.moderate') },
    schema: { tags: ['moderation'], params: deleteMessageParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      const { providerMessageId, ...target } = request.params;
      await s.moderation.deleteMessage(target, { providerMessageId }, moderator(request));
      return reply.code(204).send(null);
    },
  });
}
