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
import { AccessLevel } from '@greenroom/contracts/access';
import { providerIdSchema, providers } from '@greenroom/contracts/providers';
import { channelLevel, requireAuth } from '../../plugins/auth';
import { badRequest, forbidden, notFound, unsupported } from '../../lib/errors';
import { errorResponses, noContent } from '../../lib/http';
import type { AppServices } from '../../services';
import type { OAuthProvider } from '../../platforms/endpoints';
import { scopesFor } from '../../platforms/scopes';
import { OAUTH_STATE_COOKIE, type FlowPurpose } from '../auth/oauth-flows';
import type { UserProviderRow } from './user-service';

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

export function userRoutes(app: FastifyInstance, s: AppServices): void {
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
      await s.users.delete(user.id, request.query.username, async (channelIds) => {
        for (const channelId of channelIds) await s.channelProviders.disconnectAll(channelId, null);
      });
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
      const { user } = requireAuth(request);
      const { provider } = request.params;
      const q = request.query;
      const info = providers[provider];
      if (!q.redirect_to.startsWith('/') || q.redirect_to.startsWith('//'))
        throw badRequest('redirect_to must be a path on this site, starting with "/".');
      let purpose: FlowPurpose;
      if (q.system_bot === 'true') {
        if (!user.isOperator) throw forbidden('Only operators can connect system bots.');
        if (!info.systemBot) throw unsupported(`${info.name} has no system bot.`);
        purpose = 'system_bot';
      } else if (q.channel_id) {
        const level = await channelLevel(s.db, q.channel_id, user);
        if (level == null) throw notFound('Channel not found');
        if (level < AccessLevel.ADMIN) throw forbidden('Only channel admins can manage platforms.');
        if (q.bot === 'true' && !info.ownBot) throw unsupported(`${info.name} does not support a channel bot account.`);
        if (!info.channelProvider) throw unsupported(`${info.name} cannot be connected to a channel.`);
        purpose = q.bot === 'true' ? 'channel_bot' : 'channel';
      } else {
        if (!info.signinProvider) throw unsupported(`${info.name} is not a sign-in platform.`);
        purpose = 'link';
      }
      if (!(provider in scopesFor)) throw unsupported(`${info.name} cannot be connected.`);
      const oauthProvider = provider as OAuthProvider;
      const scopes =
        purpose === 'link'
          ? scopesFor[oauthProvider].signin
          : purpose === 'channel'
            ? scopesFor[oauthProvider].channel
            : scopesFor[oauthProvider].bot;
      const { url, state } = await s.flows.start({
        purpose,
        provider: oauthProvider,
        scopes,
        redirectTo: q.redirect_to,
        userId: user.id,
        channelId: q.channel_id,
        forceVerify: true,
      });
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
