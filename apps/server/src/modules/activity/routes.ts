import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activityListSchema, activityQuerySchema } from '@greenroom/contracts/api/chat';
import { activitySchema } from '@greenroom/contracts/api/events';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import type { ActivityService } from './activity-service';

export interface ActivityRouteDeps {
  activity: ActivityService;
}

const channelParams = z.object({ channelId: z.string().max(64) });

export function activityRoutes(app: FastifyInstance, deps: ActivityRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/channels/:channelId/activity', {
    config: { access: channelAccess('activity.read') },
    schema: {
      tags: ['activity'],
      params: channelParams,
      querystring: activityQuerySchema,
      response: { 200: activityListSchema, ...errorResponses },
    },
    handler: async (request) => deps.activity.list(request.params.channelId, request.query),
  });

  r.post('/api/2/channels/:channelId/activity/:activityId/replay', {
    config: { access: channelAccess('activity.read') },
    schema: {
      tags: ['activity'],
      params: channelParams.extend({ activityId: z.string().max(300) }),
      response: { 200: activitySchema, ...errorResponses },
    },
    handler: async (request) => deps.activity.replay(request.params.channelId, request.params.activityId),
  });
}
