import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminChannelListSchema, adminListChannelsQuerySchema } from '@greenroom/contracts/api/channels';
import { errorResponses } from '../../lib/http';
import type { ChannelService } from '../channels';

export interface AdminRouteDeps {
  channels: Pick<ChannelService, 'listAll'>;
}

export function adminRoutes(app: FastifyInstance, deps: AdminRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/admin/channels', {
    config: { access: 'operator' },
    schema: { tags: ['admin'], querystring: adminListChannelsQuerySchema, response: { 200: adminChannelListSchema, ...errorResponses } },
    handler: async (request) => deps.channels.listAll(request.query),
  });
}
