import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  moveBodySchema,
  pickBodySchema,
  pickResultSchema,
  queueBodySchema,
  queueDetailSchema,
  queueEntryParamsSchema,
  queueListSchema,
  queueParamsSchema,
  queueStatusBodySchema,
} from '@greenroom/contracts/api/queues';
import { requireAuth } from '../../plugins/auth';
import { channelAccess } from '../../lib/access';
import { errorResponses, noContent } from '../../lib/http';
import { liveSocket } from '../../lib/live-socket';
import type { QueueService } from './queue-service';

export interface QueueRouteDeps {
  queues: QueueService;
  subscribe(channelId: string, handler: (event: { type: string; data?: unknown }) => void): () => void;
}

const channelParams = z.object({ channelId: z.string().max(64) });
const editor = { access: channelAccess('games.manage') };
const tags = ['queues'];

/** Viewer queues: list, settings, status, picks, removal, reordering, and a live socket (Editors). */
export function queueRoutes(app: FastifyInstance, deps: QueueRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { queues } = deps;
  const actor = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

  r.get('/api/2/channels/:channelId/queues', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: queueListSchema, ...errorResponses } },
    handler: async (request) => queues.list(request.params.channelId),
  });
  r.post('/api/2/channels/:channelId/queues', {
    config: editor,
    schema: { tags, params: channelParams, body: queueBodySchema, response: { 200: queueDetailSchema, ...errorResponses } },
    handler: async (request) => queues.create(request.params.channelId, request.body, actor(request)),
  });
  r.get('/api/2/channels/:channelId/queues/:queueId', {
    config: editor,
    schema: { tags, params: queueParamsSchema, response: { 200: queueDetailSchema, ...errorResponses } },
    handler: async (request) => queues.detail(request.params.channelId, request.params.queueId),
  });
  r.put('/api/2/channels/:channelId/queues/:queueId', {
    config: editor,
    schema: { tags, params: queueParamsSchema, body: queueBodySchema, response: { 200: queueDetailSchema, ...errorResponses } },
    handler: async (request) => queues.update(request.params.channelId, request.params.queueId, request.body),
  });
  r.delete('/api/2/channels/:channelId/queues/:queueId', {
    config: editor,
    schema: { tags, params: queueParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await queues.delete(request.params.channelId, request.params.queueId, actor(request));
      return reply.code(204).send(null);
    },
  });
  r.post('/api/2/channels/:channelId/queues/:queueId/status', {
    config: editor,
    schema: { tags, params: queueParamsSchema, body: queueStatusBodySchema, response: { 200: queueDetailSchema, ...errorResponses } },
    handler: async (request) => queues.setStatus(request.params.channelId, request.params.queueId, request.body.status, actor(request)),
  });
  r.post('/api/2/channels/:channelId/queues/:queueId/pick', {
    config: editor,
    schema: { tags, params: queueParamsSchema, body: pickBodySchema, response: { 200: pickResultSchema, ...errorResponses } },
    handler: async (request) => queues.pick(request.params.channelId, request.params.queueId, request.body, actor(request)),
  });
  r.post('/api/2/channels/:channelId/queues/:queueId/clear', {
    config: editor,
    schema: { tags, params: queueParamsSchema, response: { 200: queueDetailSchema, ...errorResponses } },
    handler: async (request) => queues.clear(request.params.channelId, request.params.queueId, actor(request)),
  });
  r.delete('/api/2/channels/:channelId/queues/:queueId/entries/:entryId', {
    config: editor,
    schema: { tags, params: queueEntryParamsSchema, response: { 200: queueDetailSchema, ...errorResponses } },
    handler: async (request) => queues.remove(request.params.channelId, request.params.queueId, request.params.entryId, actor(request)),
  });
  r.post('/api/2/channels/:channelId/queues/:queueId/entries/:entryId/move', {
    config: editor,
    schema: { tags, params: queueEntryParamsSchema, body: moveBodySchema, response: { 200: queueDetailSchema, ...errorResponses } },
    handler: async (request) =>
      queues.move(request.params.channelId, request.params.queueId, request.params.entryId, request.body.position),
  });

  /** Live queue changes (`queue.updated`, `queue.deleted`) for the pages. */
  r.get(
    '/api/2/channels/:channelId/queues-ws',
    { config: editor, schema: { tags, params: channelParams, hide: true }, websocket: true },
    (socket, request) => {
      let unsubscribe: (() => void) | null = null;
      const live = liveSocket(socket, { onClose: () => unsubscribe?.() });
      unsubscribe = deps.subscribe(request.params.channelId, (event) => {
        if (event.type === 'queue.updated' || event.type === 'queue.deleted') live.send(event);
      });
      if (!live.open) unsubscribe();
    },
  );
}
