import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  channelUserInviteListSchema,
  channelUserInviteSchema,
  createInviteBodySchema,
  inviteAcceptedSchema,
  inviteIdSchema,
  inviteParamsSchema,
  inviteViewSchema,
  staffListSchema,
  staffMemberSchema,
  staffParamsSchema,
  transferOwnershipBodySchema,
  updateStaffBodySchema,
} from '@greenroom/contracts/api/staff';
import { requireAuth } from '../../plugins/auth';
import { channelAccess } from '../../lib/access';
import { errorResponses, noContent } from '../../lib/http';
import type { InviteService } from './invite-service';
import type { StaffService } from './staff-service';

export interface StaffRouteDeps {
  staff: StaffService;
  invites: InviteService;
}

const channelParams = z.object({ channelId: z.string().max(64) });

/** User access (managing user access is Admin) and invitations. */
export function staffRoutes(app: FastifyInstance, s: StaffRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/channels/:channelId/users', {
    config: { access: channelAccess('staff.manage') },
    schema: { tags: ['staff'], params: channelParams, response: { 200: staffListSchema, ...errorResponses } },
    handler: async (request) => s.staff.list(request.params.channelId),
  });

  r.patch('/api/2/channels/:channelId/users/:userId', {
    config: { access: channelAccess('staff.manage') },
    schema: {
      tags: ['staff'],
      params: staffParamsSchema,
      body: updateStaffBodySchema,
      response: { 200: staffMemberSchema, ...errorResponses },
    },
    handler: async (request) =>
      s.staff.changeLevel(request.params.channelId, requireAuth(request).user, request.params.userId, request.body.level),
  });

  r.delete('/api/2/channels/:channelId/users/:userId', {
    config: { access: channelAccess('staff.manage') },
    schema: { tags: ['staff'], params: staffParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await s.staff.remove(request.params.channelId, requireAuth(request).user, request.params.userId);
      return reply.code(204).send(null);
    },
  });

  /** Any staff member may give up their own access (not the sole Owner). */
  r.post('/api/2/channels/:channelId/leave', {
    config: { access: channelAccess('channel.view') },
    schema: { tags: ['staff'], params: channelParams, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await s.staff.leave(request.params.channelId, requireAuth(request).user);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/2/channels/:channelId/transfer-ownership', {
    config: { access: channelAccess('channel.delete') },
    schema: { tags: ['staff'], params: channelParams, body: transferOwnershipBodySchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await s.staff.transferOwnership(
        request.params.channelId,
        requireAuth(request).user,
        request.body.user_id,
        request.body.confirm_channel_name,
      );
      return reply.code(204).send(null);
    },
  });

  r.get('/api/2/channels/:channelId/user-invites', {
    config: { access: channelAccess('staff.manage') },
    schema: { tags: ['staff'], params: channelParams, response: { 200: channelUserInviteListSchema, ...errorResponses } },
    handler: async (request) => s.invites.listPending(request.params.channelId),
  });

  r.post('/api/2/channels/:channelId/user-invites', {
    config: { access: channelAccess('staff.manage') },
    schema: {
      tags: ['staff'],
      params: channelParams,
      body: createInviteBodySchema,
      response: { 201: channelUserInviteSchema, ...errorResponses },
    },
    handler: async (request, reply) => {
      const invite = await s.invites.create(request.params.channelId, requireAuth(request).user, request.channelLevel ?? 0, request.body);
      return reply.code(201).send(invite);
    },
  });

  r.delete('/api/2/channels/:channelId/user-invites/:channelUserInviteId', {
    config: { access: channelAccess('staff.manage') },
    schema: { tags: ['staff'], params: inviteParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await s.invites.revoke(request.params.channelId, requireAuth(request).user, request.params.channelUserInviteId);
      return reply.code(204).send(null);
    },
  });

  /** The invitation link's page: any signed-in user holding the secret id may see what it grants. */
  r.get('/api/2/channel-invites/:channelUserInviteId', {
    config: { access: 'user' },
    schema: {
      tags: ['staff'],
      params: z.object({ channelUserInviteId: inviteIdSchema }),
      response: { 200: inviteViewSchema, ...errorResponses },
    },
    handler: async (request) => s.invites.view(request.params.channelUserInviteId, requireAuth(request).user),
  });

  r.post('/api/2/channel-invites/:channelUserInviteId/accept', {
    config: { access: 'user' },
    schema: {
      tags: ['staff'],
      params: z.object({ channelUserInviteId: inviteIdSchema }),
      response: { 200: inviteAcceptedSchema, ...errorResponses },
    },
    handler: async (request) => s.invites.accept(request.params.channelUserInviteId, requireAuth(request).user),
  });
}
