import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditLogActorsSchema, auditLogPageSchema, auditLogQuerySchema } from '@greenroom/contracts/api/staff';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import type { AuditLogService } from './audit-log-service';

export interface AuditLogRouteDeps {
  audit: AuditLogService;
}

export function auditLogRoutes(app: FastifyInstance, deps: AuditLogRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/channels/:channelId/audit-log', {
    config: { access: channelAccess('staff.manage') },
    schema: {
      tags: ['staff'],
      params: z.object({ channelId: z.string().max(64) }),
      querystring: auditLogQuerySchema,
      response: { 200: auditLogPageSchema, ...errorResponses },
    },
    handler: async (request) => deps.audit.list(request.params.channelId, request.query),
  });

  r.get('/api/2/channels/:channelId/audit-log/actors', {
    config: { access: channelAccess('staff.manage') },
    schema: {
      tags: ['staff'],
      params: z.object({ channelId: z.string().max(64) }),
      response: { 200: auditLogActorsSchema, ...errorResponses },
    },
    handler: async (request) => deps.audit.actors(request.params.channelId),
  });
}
