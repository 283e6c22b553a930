import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { viewerCardSchema } from '@greenroom/contracts/api/chat';
import { channelProviderIdSchema } from '@greenroom/contracts/providers';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import type { ViewerCardService } from './viewer-card-service';

export interface ViewerRouteDeps {
  viewerCards: ViewerCardService;
}

export function viewerRoutes(app: FastifyInstance, deps: ViewerRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/channels/:channelId/viewers/:provider/:providerViewerId', {
    config: { access: channelAccess('chat.moderate') },
    schema: {
      tags: ['viewers'],
      params: z.object({ channelId: z.string().max(64), provider: channelProviderIdSchema, providerViewerId: z.string().min(1).max(200) }),
      response: { 200: viewerCardSchema, ...errorResponses },
    },
    handler: async (request) => deps.viewerCards.card(request.params.channelId, request.params.provider, request.params.providerViewerId),
  });
}
