import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { watchChannelSchema, watchParamsSchema } from '@greenroom/contracts/api/watch';
import { providers } from '@greenroom/contracts/providers';
import { notFound } from '../../lib/errors';
import { errorResponses } from '../../lib/http';
import type { WatchService } from './watch-service';

export interface WatchRouteDeps {
  watch: WatchService;
}

/** The public watch page (no sign-in): a channel by one of its platforms' channel names. */
export function watchRoutes(app: FastifyInstance, deps: WatchRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/2/public/watch/:provider/:providerChannelName', {
    config: { access: 'public', rateLimit: { max: 120, timeWindow: '1 minute' } },
    schema: { tags: ['watch'], params: watchParamsSchema, response: { 200: watchChannelSchema, ...errorResponses } },
    handler: async (request) => {
      const found = await deps.watch.find(request.params.provider, request.params.providerChannelName);
      if (!found) {
        const { provider, providerChannelName: name } = request.params;
        throw notFound(`No Greenroom channel streams as "${name}" on ${providers[provider].name}.`);
      }
      return found;
    },
  });
}
