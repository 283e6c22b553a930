import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccessLevel } from '@greenroom/contracts/access';
import { viewerCardSchema } from '@greenroom/contracts/api/chat';
import { channelProviderIdSchema } from '@greenroom/contracts/providers';
import { errorResponses } from '../../lib/http';
import type { AppServices } from '../../services';

export function viewerRoutes(app: FastifyInstance, s: AppServices): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/channels/:channelId/viewers/:provider/:providerViewerId', {
    config: { access: { channel: AccessLevel.MOD } },
    schema: {
      tags: ['viewers'],
      params: z.object({ channelId: z.string().max(64), provider: channelProviderIdSchema, providerViewerId: z.string().min(1).max(200) }),
      response: { 200: viewerCardSchema, ...errorResponses },
    },
    handler: async (request) => s.chat.viewerCards.card(request.params.channelId, request.params.provider, request.params.providerViewerId),
  });
}
