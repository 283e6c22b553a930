import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  giveawayActionSchema,
  giveawayBodySchema,
  giveawayEntriesSchema,
  giveawayEntriesQuerySchema,
  giveawayListQuerySchema,
  giveawayListSchema,
  giveawayParamsSchema,
  giveawaySchema,
  winnerParamsSchema,
} from '@greenroom/contracts/api/giveaways';
import { requireAuth } from '../../plugins/auth';
import { channelAccess } from '../../lib/access';
import { errorResponses, noContent } from '../../lib/http';
import { liveSocket } from '../../lib/live-socket';
import type { GiveawayService } from './giveaway-service';

export interface GiveawayRouteDeps {
  giveaways: GiveawayService;
  /** Subscribes to a channel's bus topic; returns the unsubscribe. */
  subscribe(channelId: string, handler: (event: { type: string; data?: unknown }) => void): () => void;
}

const channelParams = z.object({ channelId: z.string().max(64) });
const editor = { access: channelAccess('games.manage') };
const tags = ['giveaways'];

/** Giveaways: history, the editor, open / close / draw / cancel, re-roll, entries, and a live socket (Editors). */
export function giveawayRoutes(app: FastifyInstance, deps: GiveawayRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { giveaways } = deps;
  const actor = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

  r.get('/api/2/channels/:channelId/giveaways', {
    config: editor,
    schema: { tags, params: channelParams, querystring: giveawayListQuerySchema, response: { 200: giveawayListSchema, ...errorResponses } },
    handler: async (request) => giveaways.list(request.params.channelId, request.query),
  });
  r.post('/api/2/channels/:channelId/giveaways', {
    config: editor,
    schema: { tags, params: channelParams, body: giveawayBodySchema, response: { 200: giveawaySchema, ...errorResponses } },
    handler: async (request) => giveaways.create(request.params.channelId, request.body, actor(request)),
  });
  r.get('/api/2/channels/:channelId/giveaways/:giveawayId', {
    config: editor,
    schema: { tags, params: giveawayParamsSchema, response: { 200: giveawaySchema, ...errorResponses } },
    handler: async (request) => giveaways.get(request.params.channelId, request.params.giveawayId),
  });
  r.put('/api/2/channels/:channelId/giveaways/:giveawayId', {
    config: editor,
    schema: { tags, params: giveawayParamsSchema, body: giveawayBodySchema, response: { 200: giveawaySchema, ...errorResponses } },
    handler: async (request) => giveaways.update(request.params.channelId, request.params.giveawayId, request.body),
  });
  r.delete('/api/2/channels/:channelId/giveaways/:giveawayId', {
    config: editor,
    schema: { tags, params: giveawayParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await giveaways.delete(request.params.channelId, request.params.giveawayId, actor(request));
      return reply.code(204).send(null);
    },
  });
  r.get('/api/2/channels/:channelId/giveaways/:giveawayId/entries', {
    config: editor,
    schema: {
      tags,
      params: giveawayParamsSchema,
      querystring: giveawayEntriesQuerySchema,
      response: { 200: giveawayEntriesSchema, ...errorResponses },
    },
    handler: async (request) => giveaways.entries(request.params.channelId, request.params.giveawayId, request.query),
  });
  r.post('/api/2/channels/:channelId/giveaways/:giveawayId/:action', {
    config: editor,
    schema: {
      tags,
      params: giveawayParamsSchema.extend({ action: giveawayActionSchema }),
      response: { 200: giveawaySchema, ...errorResponses },
    },
    handler: async (request) => {
      const { channelId, giveawayId, action } = request.params;
      const by = actor(request);
      if (action === 'open') return giveaways.open(channelId, giveawayId, by);
      if (action === 'close') return giveaways.close(channelId, giveawayId, by);
      if (action === 'draw') return giveaways.draw(channelId, giveawayId, by);
      return giveaways.cancel(channelId, giveawayId, by);
    },
  });
  r.post('/api/2/channels/:channelId/giveaways/:giveawayId/winners/:winnerId/reroll', {
    config: editor,
    schema: { tags, params: winnerParamsSchema, response: { 200: giveawaySchema, ...errorResponses } },
    handler: async (request) =>
      giveaways.reroll(request.params.channelId, request.params.giveawayId, request.params.winnerId, actor(request)),
  });

  /** Live giveaway changes (`giveaway.updated`) for the pages and the popout. */
  r.get(
    '/api/2/channels/:channelId/giveaways-ws',
    { config: editor, schema: { tags, params: channelParams, hide: true }, websocket: true },
    (socket, request) => {
      let unsubscribe: (() => void) | null = null;
      const live = liveSocket(socket, { onClose: () => unsubscribe?.() });
      unsubscribe = deps.subscribe(request.params.channelId, (event) => {
        if (event.type === 'giveaway.updated') live.send(event);
      });
      if (!live.open) unsubscribe();
    },
  );
}
