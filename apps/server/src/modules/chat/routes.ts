import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chatHistoryQuerySchema, chatHistorySchema, sendChatBodySchema, sendChatResultSchema } from '@greenroom/contracts/api/chat';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import { liveSocket } from '../../lib/live-socket';
import type { IngestPipeline } from '../../pipeline/ingest';
import { requireAuth } from '../../plugins/auth';
import { followAccess, type SocketAccessDeps } from '../../plugins/socket-access';
import type { ChatServices } from './chat-services';

export interface ChatRouteDeps extends SocketAccessDeps {
  chat: Pick<ChatServices, 'staffHub' | 'queries' | 'send'>;
  ingest: Pick<IngestPipeline, 'ingestStatus'>;
}

const moderate = channelAccess('chat.moderate');

const channelParams = z.object({ channelId: z.string().max(64) });

export function chatRoutes(app: FastifyInstance, s: ChatRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Staff live chat: every stored chat event of the channel (ChatSocketMessage); ping → pong. Opens
   * with the chat log's state when it is delayed; closes when the caller's access ends.
   */
  r.get(
    '/api/2/channels/:channelId/chat-ws',
    { config: { access: moderate }, schema: { tags: ['chat'], params: channelParams, hide: true }, websocket: true },
    (socket, request) => {
      const { channelId } = request.params;
      const auth = requireAuth(request);
      let leave: (() => void) | null = null;
      let unwatch: (() => void) | null = null;
      const live = liveSocket(socket, {
        onClose: () => {
          leave?.();
          unwatch?.();
        },
      });
      if (!live.open) return;
      const status = s.ingest.ingestStatus(channelId);
      if (status.state !== 'ok' || status.lost > 0) live.send({ type: 'chat.ingest_status', data: status });
      leave = s.chat.staffHub.join(channelId, socket);
      unwatch = followAccess(s, socket, { channelId, user: auth.user, sessionId: auth.sessionId, minLevel: moderate.channel });
    },
  );

  r.get('/api/2/channels/:channelId/chat/messages', {
    config: { access: moderate },
    schema: {
      tags: ['chat'],
      params: channelParams,
      querystring: chatHistoryQuerySchema,
      response: { 200: chatHistorySchema, ...errorResponses },
    },
    handler: async (request) => s.chat.queries.history(request.params.channelId, request.query),
  });

  r.post('/api/2/channels/:channelId/chat/messages', {
    config: { access: moderate },
    schema: { tags: ['chat'], params: channelParams, body: sendChatBodySchema, response: { 200: sendChatResultSchema, ...errorResponses } },
    handler: async (request) =>
      s.chat.send.send(request.params.channelId, request.body, {
        userId: requireAuth(request).user.id,
        level: request.channelLevel ?? 0,
      }),
  });
}
