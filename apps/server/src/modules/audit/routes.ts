import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccessLevel } from '@greenroom/contracts/access';
import { auditLogActorsSchema, auditLogPageSchema, auditLogQuerySchema } from '@greenroom/contracts/api/staff';
import { errorResponses } from '../../lib/http';
import type { AppServices } from '../../services';

export function auditLogRoutes(app: FastifyInstance, s: AppServices): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/channels/:channelId/audit-log', {
    config: { access: { channel: AccessLevel.ADMIN } },
    schema: {
      tags: ['staff'],
      params: z.object({ channelId: z.string().max(64) }),
      querystring: auditLogQuerySchema,
      response: { 200: auditLogPageSchema, ...errorResponses },
    },
    handler: async (request) => s.audit.list(request.params.channelId, request.query),
  });

  r.get('/api/2/channels/:channelId/audit-log/actors', {
    config: { access: { channel: AccessLevel.ADMIN } },
    schema: {
      tags: ['staff'],
      params: z.object({ channelId: z.string().max(64) }),
      response: { 200: auditLogActorsSchema, ...errorResponses },
    },
    handler: async (request) => s.audit.actors(request.params.channelId),
  });
}
