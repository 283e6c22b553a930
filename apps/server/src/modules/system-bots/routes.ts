import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { systemBotParamsSchema, systemBotProviderListSchema } from '@greenroom/contracts/api/system-bots';
import { errorResponses, noContent } from '../../lib/http';
import type { SystemBotService } from './system-bot-service';

export interface SystemBotRouteDeps {
  systemBots: Pick<SystemBotService, 'list' | 'disconnect'>;
}

/** System bots of the admin area. Connecting goes through `GET /api/2/{provider}/connect-chat-url?system_bot=true`. */
export function systemBotRoutes(app: FastifyInstance, s: SystemBotRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/system-bot-providers', {
    config: { access: 'operator' },
    schema: { tags: ['admin'], response: { 200: systemBotProviderListSchema, ...errorResponses } },
    handler: async () => s.systemBots.list(),
  });

  r.delete('/api/2/system-bot-providers/:provider', {
    config: { access: 'operator' },
    schema: { tags: ['admin'], params: systemBotParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await s.systemBots.disconnect(request.params.provider);
      return reply.code(204).send(null);
    },
  });
}
