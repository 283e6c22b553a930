import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { liveStatsSchema, statsQuerySchema, statsSchema } from '@greenroom/contracts/api/stats';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import type { StatsQueries } from './stats-queries';

export interface StatsRouteDeps {
  stats: { queries: StatsQueries };
}

const channelParams = z.object({ channelId: z.string().min(1).max(64) });

/** The stats page (Editors) and the dashboard's live figures (Mods), read from the rollups. */
export function statsRoutes(app: FastifyInstance, deps: StatsRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queries } = deps.stats;

  r.get('/api/2/channels/:channelId/stats', {
    config: { access: channelAccess('stats.read') },
    schema: { tags: ['stats'], params: channelParams, querystring: statsQuerySchema, response: { 200: statsSchema, ...errorResponses } },
    handler: async (request) => queries.range(request.params.channelId, new Date(request.query.from), new Date(request.query.to)),
  });

  r.get('/api/2/channels/:channelId/stats/live', {
    config: { access: channelAccess('platforms.view') },
    schema: { tags: ['stats'], params: channelParams, response: { 200: liveStatsSchema, ...errorResponses } },
    handler: async (request) => queries.live(request.params.channelId),
  });
}
