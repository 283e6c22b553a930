import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicChatHistorySchema, publicChatQuerySchema } from '@greenroom/contracts/api/chat';
import { LiveCloseCode } from '@greenroom/contracts/api/live';
import { channelTopic } from '@greenroom/contracts/bus';
import { channelProviderIdSchema, type ChannelProviderId } from '@greenroom/contracts/providers';
import { badRequest, notFound } from '../../lib/errors';
import { errorResponses } from '../../lib/http';
import type { EventBus } from '../../lib/event-bus';
import { liveSocket } from '../../lib/live-socket';
import type { PublicChatServices } from './public-chat-services';

export interface PublicChatRouteDeps {
  publicChat: PublicChatServices;
  /** A popout of a deleted channel closes (4404). */
  bus: Pick<EventBus, 'subscribe'>;
}

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
export function publicChatRoutes(app: FastifyInstance, deps: PublicChatRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { publicChat } = deps;
  const channelExists = (channelId: string) => publicChat.channelExists(channelId);
  const slots = new WeakMap<object, (() => void) | null>();

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
      return publicChat.recent(request.params.channelId, providers, request.query.after);
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
        // The per-address cap (shared by every instance) is taken before the upgrade; freed when the socket goes.
        const release = await publicChat.connections.acquire(request.ip);
        slots.set(request, release);
        if (release) request.raw.socket.once('close', release);
      },
    },
    (socket, request) => {
      const providers = parseProviders(request.query.providers);
      const release = slots.get(request) ?? null;
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
      leave = publicChat.hub.join(request.params.channelId, socket, { providers: providers ? new Set(providers) : null });
      unsubscribe = deps.bus.subscribe(channelTopic(request.params.channelId), (event) => {
        if (event.type === 'channel.deleted') live.close(LiveCloseCode.CHANNEL_DELETED, 'Channel deleted');
      });
    },
  );
}
