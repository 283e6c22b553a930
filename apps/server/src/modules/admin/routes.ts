import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminChannelListSchema, adminListChannelsQuerySchema } from '@greenroom/contracts/api/channels';
import { errorResponses } from '../../lib/http';
import type { AppServices } from '../../services';

export function adminRoutes(app: FastifyInstance, s: AppServices): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/admin/channels', {
    config: { access: 'operator' },
    schema: { tags: ['admin'], querystring: adminListChannelsQuerySchema, response: { 200: adminChannelListSchema, ...errorResponses } },
    handler: async (request) => s.channels.listAll(request.query),
  });
}
