import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  publicWidgetSchema,
  widgetCreateBodySchema,
  widgetEventSchema,
  widgetListSchema,
  widgetParamsSchema,
  widgetSchema,
  widgetTestBodySchema,
  widgetUpdateBodySchema,
} from '@greenroom/contracts/api/widgets';
import { channelAccess } from '../../lib/access';
import { notFound } from '../../lib/errors';
import { errorResponses, noContent } from '../../lib/http';
import { liveSocket } from '../../lib/live-socket';
import type { PublicWidgetRef } from './widget-service';
import type { WidgetServices } from './widget-services';

export interface WidgetRouteDeps {
  widgets: WidgetServices;
}

const tags = ['widgets'];
const channelParams = z.object({ channelId: z.string().max(64) });
const tokenParams = z.object({ token: z.string().max(100) });
/** `since`: an alert box that reconnects, the server time of its last state; it is given the alerts it missed. */
const socketQuery = z.object({ since: z.iso.datetime({ offset: true }).optional() });
/** How often an open widget socket checks that its widget still exists (deleted elsewhere, another instance). */
const RECHECK_MS = 60_000;

/** Widgets for Editors, and the public widget page's state and socket (no sign-in, found by the secret token). */
export function widgetRoutes(app: FastifyInstance, deps: WidgetRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service, hub, connections } = deps.widgets;
  const manage = { access: channelAccess('widgets.manage') };
  /** The widget a socket's token named, found before the upgrade (a 404 refuses the upgrade itself). */
  const found = new WeakMap<FastifyRequest, PublicWidgetRef>();

  r.get('/api/2/channels/:channelId/widgets', {
    config: manage,
    schema: { tags, params: channelParams, response: { 200: widgetListSchema, ...errorResponses } },
    handler: async (request) => service.list(request.params.channelId),
  });

  r.post('/api/2/channels/:channelId/widgets', {
    config: manage,
    schema: { tags, params: channelParams, body: widgetCreateBodySchema, response: { 201: widgetSchema, ...errorResponses } },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.params.channelId, request.body)),
  });

  r.get('/api/2/channels/:channelId/widgets/:widgetId', {
    config: manage,
    schema: { tags, params: widgetParamsSchema, response: { 200: widgetSchema, ...errorResponses } },
    handler: async (request) => service.get(request.params.channelId, request.params.widgetId),
  });

  r.put('/api/2/channels/:channelId/widgets/:widgetId', {
    config: manage,
    schema: { tags, params: widgetParamsSchema, body: widgetUpdateBodySchema, response: { 200: widgetSchema, ...errorResponses } },
    handler: async (request) => service.update(request.params.channelId, request.params.widgetId, request.body),
  });

  r.delete('/api/2/channels/:channelId/widgets/:widgetId', {
    config: manage,
    schema: { tags, params: widgetParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await service.remove(request.params.channelId, request.params.widgetId);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/2/channels/:channelId/widgets/:widgetId/duplicate', {
    config: manage,
    schema: { tags, params: widgetParamsSchema, response: { 201: widgetSchema, ...errorResponses } },
    handler: async (request, reply) => reply.code(201).send(await service.duplicate(request.params.channelId, request.params.widgetId)),
  });

  r.post('/api/2/channels/:channelId/widgets/:widgetId/rotate-url', {
    config: manage,
    schema: { tags, params: widgetParamsSchema, response: { 200: widgetSchema, ...errorResponses } },
    handler: async (request) => service.rotateUrl(request.params.channelId, request.params.widgetId),
  });

  r.post('/api/2/channels/:channelId/widgets/:widgetId/reset-goal', {
    config: manage,
    schema: { tags, params: widgetParamsSchema, response: { 200: widgetSchema, ...errorResponses } },
    handler: async (request) => service.resetGoal(request.params.channelId, request.params.widgetId),
  });

  r.post('/api/2/channels/:channelId/widgets/:widgetId/test', {
    config: { ...manage, rateLimit: { max: 60, timeWindow: '1 minute' } },
    schema: { tags, params: widgetParamsSchema, body: widgetTestBodySchema, response: { 200: widgetEventSchema, ...errorResponses } },
    handler: async (request) => service.sendTest(request.params.channelId, request.params.widgetId, request.body.type),
  });

  // The widget page (OBS browser source): no sign-in; the token is the only key and exposes this widget only.
  r.get('/api/2/public/widgets/:token', {
    config: { access: 'public', rateLimit: { max: 120, timeWindow: '1 minute' } },
    schema: { tags, params: tokenParams, response: { 200: publicWidgetSchema, ...errorResponses } },
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return service.publicState(request.params.token);
    },
  });

  r.get(
    '/api/2/public/widgets/:token/ws',
    {
      config: { access: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { tags, params: tokenParams, querystring: socketQuery, hide: true },
      websocket: true,
      preHandler: async (request) => {
        const ref = await service.byToken(request.params.token);
        if (!ref) throw notFound('Widget not found');
        found.set(request, ref);
      },
    },
    (socket, request) => {
      const { token } = request.params;
      const release = connections.acquire(request.ip);
      if (!release) {
        socket.close(1013, 'Too many connections from this address');
        return;
      }
      let leave: (() => void) | null = null;
      let recheck: NodeJS.Timeout | null = null;
      const live = liveSocket(socket, {
        onClose: () => {
          if (recheck) clearInterval(recheck);
          leave?.();
          release();
        },
      });
      // Joined in the same tick as the upgrade: the page misses nothing between its socket opening and joining.
      const ref = found.get(request);
      if (!ref) {
        live.close(4404, 'This widget URL no longer works');
        return;
      }
      if (!live.open) return;
      const { since } = request.query;
      const missed = since && ref.type === 'alerts' ? service.missedAlerts(ref.channelId, new Date(since)) : null;
      leave = hub.join(ref.channelId, ref.id, ref.type, socket, missed);
      recheck = setInterval(() => {
        void service.stillValid(ref, token).then(
          (valid) => {
            if (!valid) live.close(4404, 'This widget URL no longer works');
          },
          () => {},
        );
      }, RECHECK_MS);
      recheck.unref();
    },
  );
}
