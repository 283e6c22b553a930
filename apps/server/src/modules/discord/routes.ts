import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { discordSettingsBodySchema, discordSettingsSchema, discordTestBodySchema } from '@greenroom/contracts/api/discord';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import type { DiscordService } from './discord-service';

export interface DiscordRouteDeps {
  discord: { service: DiscordService };
}

const channelParams = z.object({ channelId: z.string().min(1).max(64) });

/** Discord go-live announcements (Admins: the webhook is a channel integration, like the platforms). */
export function discordRoutes(app: FastifyInstance, deps: DiscordRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = deps.discord;
  const access = channelAccess('platforms.manage');

  r.get('/api/2/channels/:channelId/discord', {
    config: { access },
    schema: { tags: ['discord'], params: channelParams, response: { 200: discordSettingsSchema, ...errorResponses } },
    handler: async (request) => service.get(request.params.channelId),
  });

  r.put('/api/2/channels/:channelId/discord', {
    config: { access },
    schema: {
      tags: ['discord'],
      params: channelParams,
      body: discordSettingsBodySchema,
      response: { 200: discordSettingsSchema, ...errorResponses },
    },
    handler: async (request) => service.save(request.params.channelId, request.body),
  });

  r.delete('/api/2/channels/:channelId/discord', {
    config: { access },
    schema: { tags: ['discord'], params: channelParams, response: { 204: z.null(), ...errorResponses } },
    handler: async (request, reply) => {
      await service.remove(request.params.channelId);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/2/channels/:channelId/discord/test', {
    config: { access },
    schema: { tags: ['discord'], params: channelParams, body: discordTestBodySchema, response: { 204: z.null(), ...errorResponses } },
    handler: async (request, reply) => {
      await service.test(request.params.channelId, request.body);
      return reply.code(204).send(null);
    },
  });
}
