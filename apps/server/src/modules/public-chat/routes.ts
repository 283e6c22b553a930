import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { publicChatHistorySchema, publicChatQuerySchema } from '@greenroom/contracts/api/chat';
import { LiveCloseCode } from '@greenroom/contracts/api/live';
import { channelTopic } from '@greenroom/contracts/bus';
import { channelProviderIdSchema, type ChannelProviderId } from '@greenroom/contracts/providers';
import { channels } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { errorResponses } from '../../lib/http';
import { liveSocket } from '../../lib/live-socket';
import type { AppServices } from '../../services';

const channelParams = z.object({ channelId: z.string().max(64) });

/** `?providers=twitch,kick` → the platforms to show (null = all). */
function parseProviders(value: string | undefined): ChannelProviderId[] | null {
  if (!value) return null;
  const out: ChannelProviderId[] = [];
  for (const part of value.split(',')) {
    const v = part.trim();
    if (!v) continue;
    const parsed = channelProviderIdSchema.safeParse(v);
    if (!parsed.success) throw badRequest(`Unknown platform "${v}"`);
    out.push(parsed.data);
  }
  return out.length ? out : null;
}

/** The read-only chat popout for OBS (no sign-in): public message fields only, no staff or moderation data. */
export function publicChatRoutes(app: FastifyInstance, s: AppServices): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const channelExists = async (channelId: string) =>
    (await s.db.select({ id: channels.id }).from(channels).where(eq(channels.id, channelId)).limit(1)).length > 0;

  r.get('/api/2/public/channels/:channelId/chat/messages', {
    config: { access: 'public' },
    schema: {
      tags: ['public-chat'],
      params: channelParams,
      querystring: publicChatQuerySchema,
      response: { 200: publicChatHistorySchema, ...errorResponses },
    },
    handler: async (request) => {
      const providers = parseProviders(request.query.providers);
      if (!(await channelExists(request.params.channelId))) throw notFound('Channel not found');
      return s.chat.queries.publicRecent(request.params.channelId, providers, {
        limit: 50,
        ...(request.query.after !== undefined ? { after: request.query.after } : {}),
      });
    },
  });

  r.get(
    '/api/2/public/channels/:channelId/chat-ws',
    {
      config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags: ['public-chat'], params: channelParams, querystring: publicChatQuerySchema, hide: true },
      websocket: true,
      preHandler: async (request) => {
        parseProviders(request.query.providers);
        if (!(await channelExists(request.params.channelId))) throw notFound('Channel not found');
      },
    },
    (socket, request) => {
      const providers = parseProviders(request.query.providers);
      const release = s.chat.publicConnections.acquire(request.ip);
      if (!release) {
        socket.close(1013, 'Too many connections from this address');
        return;
      }
      let leave: (() => void) | null = null;
      let unsubscribe: (() => void) | null = null;
      const live = liveSocket(socket, {
        onClose: () => {
          leave?.();
          unsubscribe?.();
          release();
        },
      });
      if (!live.open) {
        release();
        return;
      }
      leave = s.chat.publicHub.join(request.params.channelId, socket, { providers: providers ? new Set(providers) : null });
      unsubscribe = s.bus.subscribe(channelTopic(request.params.channelId), (event) => {
        if (event.type === 'channel.deleted') live.close(LiveCloseCode.CHANNEL_DELETED, 'Channel deleted');
      });
    },
  );
}
