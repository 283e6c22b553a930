import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { commercialResultSchema, startCommercialBodySchema } from '@greenroom/contracts/api/ads';
import { channelProviderParamsSchema } from '@greenroom/contracts/api/channel-providers';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import { requireAuth } from '../../plugins/auth';
import type { AdsService } from './ads-service';

export interface AdsRouteDeps {
  ads: AdsService;
}

/** "Run an ad" (Editors: the same ability as the title and category). */
export function adsRoutes(app: FastifyInstance, deps: AdsRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post('/api/2/channels/:channelId/providers/:channelProviderId/commercial', {
    config: { access: channelAccess('stream.update') },
    schema: {
      tags: ['ads'],
      params: channelProviderParamsSchema,
      body: startCommercialBodySchema,
      response: { 200: commercialResultSchema, ...errorResponses },
    },
    handler: async (request) => deps.ads.start(request.params, request.body.length_seconds, { userId: requireAuth(request).user.id }),
  });
}
