import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccessLevel } from '@greenroom/contracts/access';
import { chatHistoryQuerySchema, chatHistorySchema, sendChatBodySchema, sendChatResultSchema } from '@greenroom/contracts/api/chat';
import { errorResponses } from '../../lib/http';
import { liveSocket } from '../../lib/live-socket';
import { requireAuth } from '../../plugins/auth';
import { followAccess } from '../../plugins/socket-access';
import type { AppServices } from '../../services';

const channelParams = z.object({ channelId: z.string().max(64) });

export function chatRoutes(app: FastifyInstance, s: AppServices): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Staff live chat: every stored chat event of the channel (ChatSocketMessage); ping → pong. Opens
   * with the chat log's state when it is delayed; closes when the caller's access ends.
   */
  r.get(
    '/api/2/channels/:channelId/chat-ws',
    { config: { access: { channel: AccessLevel.MOD } }, schema: { tags: ['chat'], params: channelParams, hide: true }, websocket: true },
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
      unwatch = followAccess(s, socket, { channelId, user: auth.user, sessionId: auth.sessionId, minLevel: AccessLevel.MOD });
    },
  );

  r.get('/api/2/channels/:channelId/chat/messages', {
    config: { access: { channel: AccessLevel.MOD } },
    schema: {
      tags: ['chat'],
      params: channelParams,
      querystring: chatHistoryQuerySchema,
      response: { 200: chatHistorySchema, ...errorResponses },
    },
    handler: async (request) => s.chat.queries.history(request.params.channelId, request.query),
  });

  r.post('/api/2/channels/:channelId/chat/messages', {
    config: { access: { channel: AccessLevel.MOD } },
    schema: { tags: ['chat'], params: channelParams, body: sendChatBodySchema, response: { 200: sendChatResultSchema, ...errorResponses } },
    handler: async (request) => s.chat.send.send(request.params.channelId, request.body),
  });
}
