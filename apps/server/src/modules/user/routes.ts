import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  connectChatUrlQuerySchema,
  deleteUserQuerySchema,
  urlResultSchema,
  USER_SETTINGS_MAX_BYTES,
  userProviderSchema,
  userSchema,
  userSettingsSchema,
} from '@greenroom/contracts/api/user';
import { providerIdSchema } from '@greenroom/contracts/providers';
import { requireAuth } from '../../plugins/auth';
import { errorResponses, noContent } from '../../lib/http';
import { OAUTH_STATE_COOKIE } from '../auth';
import type { ConnectService } from './connect-service';
import type { UserProviderRow, UserService } from './user-service';

export interface UserRouteDeps {
  users: UserService;
  connect: ConnectService;
  secureCookies: boolean;
}

export function toUserProvider(row: UserProviderRow): z.infer<typeof userProviderSchema> {
  return {
    id: row.id,
    provider: providerIdSchema.parse(row.provider),
    provider_user_id: row.providerUserId,
    display_name: row.displayName,
    scope_needed: row.scopeNeeded,
    created_at: row.createdAt.toISOString(),
  };
}

export function userRoutes(app: FastifyInstance, s: UserRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/user', {
    config: { access: 'user' },
    schema: { tags: ['user'], response: { 200: userSchema, ...errorResponses } },
    handler: async (request) => {
      const { user } = requireAuth(request);
      return { id: user.id, display_name: user.displayName, avatar_url: user.avatarUrl, is_operator: user.isOperator };
    },
  });

  r.delete('/api/2/user', {
    config: { access: 'user' },
    schema: { tags: ['user'], querystring: deleteUserQuerySchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      const { user } = requireAuth(request);
      await s.users.delete(user.id, request.query.username);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/2/user/providers', {
    config: { access: 'user' },
    schema: { tags: ['user'], response: { 200: z.array(userProviderSchema), ...errorResponses } },
    handler: async (request) => (await s.users.listProviders(requireAuth(request).user.id)).map(toUserProvider),
  });

  r.delete('/api/2/user/providers/:id', {
    config: { access: 'user' },
    schema: { tags: ['user'], params: z.object({ id: z.string().max(64) }), response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await s.users.removeProvider(requireAuth(request).user.id, request.params.id);
      return reply.code(204).send(null);
    },
  });

  r.get('/api/2/user/settings', {
    config: { access: 'user' },
    schema: { tags: ['user'], response: { 200: userSettingsSchema, ...errorResponses } },
    handler: async (request) => s.users.getSettings(requireAuth(request).user.id),
  });

  r.put('/api/2/user/settings', {
    config: { access: 'user' },
    bodyLimit: USER_SETTINGS_MAX_BYTES,
    schema: { tags: ['user'], body: userSettingsSchema, response: { 200: userSettingsSchema, ...errorResponses } },
    handler: async (request) => s.users.putSettings(requireAuth(request).user.id, request.body),
  });

  r.get('/api/2/:provider/connect-chat-url', {
    config: { access: 'user' },
    schema: {
      tags: ['user'],
      params: z.object({ provider: providerIdSchema }),
      querystring: connectChatUrlQuerySchema,
      response: { 200: urlResultSchema, ...errorResponses },
    },
    handler: async (request, reply) => {
      const { url, state } = await s.connect.connectUrl(requireAuth(request).user, request.params.provider, request.query);
      void reply.setCookie(OAUTH_STATE_COOKIE, state, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: s.secureCookies,
        signed: true,
        maxAge: 600,
      });
      return { url };
    },
  });
}
