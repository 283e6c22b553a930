import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  channelProviderListSchema,
  channelProviderParamsSchema,
  channelProviderSchema,
  youtubeQuotaSchema,
} from '@greenroom/contracts/api/channel-providers';
import { requireAuth } from '../../plugins/auth';
import { channelAccess } from '../../lib/access';
import { errorResponses, noContent } from '../../lib/http';
import { notFound } from '../../lib/errors';
import type { YoutubeQuotaMeter } from '../../platforms/youtube/youtube-quota';
import { channelEventSocket, type SocketAccessDeps } from '../../plugins/socket-access';
import type { ChannelProviderService } from './channel-provider-service';

export interface ChannelProviderRouteDeps extends SocketAccessDeps {
  channelProviders: Pick<ChannelProviderService, 'list' | 'get' | 'disconnect' | 'disconnectBot'>;
  youtubeQuota: Pick<YoutubeQuotaMeter, 'usage'>;
}

const channelParams = z.object({ channelId: z.string().min(1).max(64) });
const view = channelAccess('platforms.view');

/**
 * Channel providers. Levels: reading the list and its live websocket needs Mod (the chat
 * and moderation tools show each connection and its state to moderators); connecting and
 * disconnecting platforms and bots needs Admin (Admins manage platforms).
 */
export function channelProviderRoutes(app: FastifyInstance, s: ChannelProviderRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/channels/:channelId/providers', {
    config: { access: channelAccess('platforms.view') },
    schema: { tags: ['channel-providers'], params: channelParams, response: { 200: channelProviderListSchema, ...errorResponses } },
    handler: async (request) => s.channelProviders.list(request.params.channelId),
  });

  r.get('/api/2/channels/:channelId/providers/:channelProviderId', {
    config: { access: channelAccess('platforms.view') },
    schema: {
      tags: ['channel-providers'],
      params: channelProviderParamsSchema,
      response: { 200: channelProviderSchema, ...errorResponses },
    },
    handler: async (request) => s.channelProviders.get(request.params.channelId, request.params.channelProviderId),
  });

  /** The YouTube API quota this connection spends from (the project's, shared by every YouTube connection). */
  r.get('/api/2/channels/:channelId/providers/:channelProviderId/youtube-quota', {
    config: { access: channelAccess('platforms.view') },
    schema: {
      tags: ['channel-providers'],
      params: channelProviderParamsSchema,
      response: { 200: youtubeQuotaSchema, ...errorResponses },
    },
    handler: async (request) => {
      const p = await s.channelProviders.get(request.params.channelId, request.params.channelProviderId);
      if (p.provider !== 'youtube') throw notFound('This connection is not a YouTube connection');
      const u = await s.youtubeQuota.usage();
      return { day: u.day, used: u.used, limit: u.limit, exhausted: u.exhausted, resets_at: u.resetsAt };
    },
  });

  r.delete('/api/2/channels/:channelId/providers/:channelProviderId', {
    config: { access: channelAccess('platforms.manage') },
    schema: { tags: ['channel-providers'], params: channelProviderParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await s.channelProviders.disconnect(request.params.channelId, request.params.channelProviderId, requireAuth(request).user.id);
      return reply.code(204).send(null);
    },
  });

  /** Removes the channel's own bot account; connecting one is `connect-chat-url?bot=true`. */
  r.delete('/api/2/channels/:channelId/providers/:channelProviderId/bot', {
    config: { access: channelAccess('platforms.manage') },
    schema: {
      tags: ['channel-providers'],
      params: channelProviderParamsSchema,
      response: { 200: channelProviderSchema, ...errorResponses },
    },
    handler: async (request) =>
      s.channelProviders.disconnectBot(request.params.channelId, request.params.channelProviderId, requireAuth(request).user.id),
  });

  /** Live provider updates: `{action: new|updated|deleted, data}`; answers `{"type":"ping"}` with `{"type":"pong"}`. */
  r.get(
    '/api/2/channels/:channelId/providers-ws',
    {
      config: { access: view },
      schema: { tags: ['channel-providers'], params: channelParams, hide: true },
      websocket: true,
    },
    (socket, request) => {
      const auth = requireAuth(request);
      const who = { channelId: request.params.channelId, user: auth.user, sessionId: auth.sessionId };
      channelEventSocket(s, socket, { ...who, minLevel: view.channel }, (event) =>
        event.type === 'provider.update' ? event.data : undefined,
      );
    },
  );
}
