import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  oauthCallbackBodySchema,
  oauthCallbackResultSchema,
  platformModeSchema,
  signinProvidersSchema,
} from '@greenroom/contracts/api/user';
import { oauthProviderIdSchema, providers, signinProviderIds, signinProviderIdSchema } from '@greenroom/contracts/providers';
import { requireAuth, setXsrfCookie } from '../../plugins/auth';
import { errorResponses, noContent, safePath } from '../../lib/http';
import { scopesFor } from '../../platforms/scopes';
import { OAUTH_STATE_COOKIE, type OAuthFlows } from './oauth-flows';
import type { SessionService } from './sessions';

export interface AuthRouteDeps {
  config: { useEmulator: boolean };
  emulatorUrl: string | null;
  flows: Pick<OAuthFlows, 'start' | 'complete'>;
  sessions: Pick<SessionService, 'lookup' | 'revoke'>;
  cookieSecret: string;
  secureCookies: boolean;
}

export function authRoutes(app: FastifyInstance, s: AuthRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/auth/providers', {
    config: { access: 'public' },
    schema: { tags: ['auth'], response: { 200: z.object({ providers: signinProvidersSchema, platforms: platformModeSchema }) } },
    handler: async () => ({
      providers: signinProviderIds.map((provider) => ({ provider, name: providers[provider].name })),
      platforms: { local_platforms: s.config.useEmulator, emulator_url: s.emulatorUrl },
    }),
  });

  r.get('/api/2/auth/:provider/sign-in', {
    config: { access: 'public' },
    schema: {
      tags: ['auth'],
      params: z.object({ provider: signinProviderIdSchema }),
      querystring: z.object({ next: z.string().max(2000).optional() }),
    },
    handler: async (request, reply) => {
      const { provider } = request.params;
      const { url, state } = await s.flows.start({
        purpose: 'signin',
        provider,
        scopes: scopesFor[provider].signin,
        redirectTo: safePath(request.query.next),
      });
      void reply.setCookie(OAUTH_STATE_COOKIE, state, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: s.secureCookies,
        signed: true,
        maxAge: 600,
      });
      return reply.redirect(url, 302);
    },
  });

  r.post('/api/2/auth/:provider/callback', {
    config: { access: 'public' },
    schema: {
      tags: ['auth'],
      params: z.object({ provider: oauthProviderIdSchema }),
      body: oauthCallbackBodySchema,
      response: { 200: oauthCallbackResultSchema, ...errorResponses },
    },
    handler: async (request, reply) => {
      const raw = request.cookies[OAUTH_STATE_COOKIE];
      const unsigned = raw ? request.unsignCookie(raw) : null;
      void reply.clearCookie(OAUTH_STATE_COOKIE, { path: '/' });
      const result = await s.flows.complete({
        provider: request.params.provider,
        code: request.body.code,
        state: request.body.state,
        cookieState: unsigned?.valid ? unsigned.value : null,
        error: request.body.error,
        errorDescription: request.body.error_description,
      });
      if (result.access_token) {
        const found = await s.sessions.lookup(result.access_token);
        if (found.ok) setXsrfCookie(reply, s.cookieSecret, found.sessionId, s.secureCookies);
      }
      return result;
    },
  });

  r.post('/api/2/auth/sign-out', {
    config: { access: 'user' },
    schema: { tags: ['auth'], response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await s.sessions.revoke(requireAuth(request).sessionId);
      return reply.code(204).send(null);
    },
  });
}
