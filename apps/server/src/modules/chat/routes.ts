import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chatHistoryQuerySchema, chatHistorySchema, sendChatBodySchema, sendChatResultSchema } from '@greenroom/contracts/api/chat';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import { requireAuth } from '../../plugins/auth';
import { liveSocket } from '../../lib/live-socket';
import type { ChatServices } from './chat-services';

export interface ChatRouteDeps {
  chat: Pick<ChatServices, 'staffHub' | 'queries' | 'send'>;
}

const channelParams = z.object({ channelId: z.string().max(64) });

export function chatRoutes(app: FastifyInstance, s: ChatRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Staff live chat: every normalised event of the channel (ChatSocketMessage); ping → pong. */
  r.get(
    '/api/2/channels/:channelId/chat-ws',
    { config: { access: channelAccess('chat.moderate') }, schema: { tags: ['chat'], params: channelParams, hide: true }, websocket: true },
    (socket, request) => {
      let leave: (() => void) | null = null;
      const live = liveSocket(socket, { onClose: () => leave?.() });
      if (live.open) leave = s.chat.staffHub.join(request.params.channelId, socket);
    },
  );

  r.get('/api/2/channels/:channelId/chat/messages', {
    config: { access: channelAccess('chat.moderate') },
    schema: {
      tags: ['chat'],
      params: channelParams,
      querystring: chatHistoryQuerySchema,
      response: { 200: chatHistorySchema, ...errorResponses },
    },
    handler: async (request) => s.chat.queries.history(request.params.channelId, request.query),
  });

  r.post('/api/2/channels/:channelId/chat/messages', {
    config: { access: channelAccess('chat.moderate') },
    schema: { tags: ['chat'], params: channelParams, body: sendChatBodySchema, response: { 200: sendChatResultSchema, ...errorResponses } },
    handler: async (request) =>
      s.chat.send.send(request.params.channelId, request.body, {
        userId: requireAuth(request).user.id,
        level: request.channelLevel ?? 0,
      }),
  });
}
