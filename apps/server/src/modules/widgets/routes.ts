import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  publicWidgetSchema,
  widgetCreateBodySchema,
  widgetEventSchema,
  widgetListSchema,
  widgetMediaListSchema,
  widgetMediaSchema,
  widgetMediaUploadQuerySchema,
  widgetParamsSchema,
  widgetSchema,
  widgetTestBodySchema,
  widgetUpdateBodySchema,
} from '@greenroom/contracts/api/widgets';
import { channelAccess } from '../../lib/access';
import { notFound } from '../../lib/errors';
import { errorResponses, noContent } from '../../lib/http';
import { liveSocket } from '../../lib/live-socket';
import { MEDIA_TOO_LARGE_MESSAGE, MEDIA_UPLOAD_MAX_BYTES } from './media-service';
import type { PublicWidgetRef } from './widget-service';
import type { WidgetServices } from './widget-services';

export interface WidgetRouteDeps {
  widgets: WidgetServices;
}

const tags = ['widgets'];
const channelParams = z.object({ channelId: z.string().max(64) });
const tokenParams = z.object({ token: z.string().max(100) });
const mediaParams = z.object({ channelId: z.string().max(64), mediaId: z.string().max(64) });
const hashParams = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/u, 'Not a file address') });
/** `since`: an alert box that reconnects, the server time of its last state; it is given the alerts it missed. */
const socketQuery = z.object({ since: z.iso.datetime({ offset: true }).optional() });
/** How often an open widget socket checks that its widget still exists (deleted elsewhere, another instance). */
const RECHECK_MS = 60_000;

/** Widgets for Editors, and the public widget page's state and socket (no sign-in, found by the secret token). */
export function widgetRoutes(app: FastifyInstance, deps: WidgetRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service, media, hub, connections } = deps.widgets;
  const slots = new WeakMap<object, (() => void) | null>();
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

  r.get('/api/2/channels/:channelId/widget-media', {
    config: manage,
    schema: { tags, params: channelParams, response: { 200: widgetMediaListSchema, ...errorResponses } },
    handler: async (request) => media.list(request.params.channelId),
  });

  // Uploads: the file's bytes as the body, whatever type the browser claims (the content decides); its own scope
  // parses every content type as raw bytes up to the largest limit.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MEDIA_UPLOAD_MAX_BYTES }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return reply.status(413).send({ type: 'payload_too_large', message: MEDIA_TOO_LARGE_MESSAGE });
      throw error;
    });
    scope.withTypeProvider<ZodTypeProvider>().post('/api/2/channels/:channelId/widget-media', {
      config: { ...manage, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        params: channelParams,
        querystring: widgetMediaUploadQuerySchema,
        response: { 200: widgetMediaSchema, 201: widgetMediaSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const { media: stored, created } = await media.upload(request.params.channelId, request.query.name, body);
        return reply.code(created ? 201 : 200).send(stored);
      },
    });
  });

  r.delete('/api/2/channels/:channelId/widget-media/:mediaId', {
    config: manage,
    schema: { tags, params: mediaParams, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await media.remove(request.params.channelId, request.params.mediaId);
      return reply.code(204).send(null);
    },
  });

  // An uploaded file, for widget pages (no sign-in): addressed by its content hash, so it is cached for good.
  r.get('/api/2/public/widget-media/:sha256', {
    config: { access: 'public', rateLimit: { max: 600, timeWindow: '1 minute' } },
    schema: { tags, params: hashParams },
    handler: async (request, reply) => {
      const etag = `"${request.params.sha256}"`;
      void reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const found = await media.content(request.params.sha256);
      if (!found) {
        void reply.header('cache-control', 'no-store').removeHeader('etag');
        throw notFound('File not found');
      }
      return reply
        .header('content-type', found.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(found.data);
    },
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
        // The per-address cap (shared by every instance) is taken before the upgrade; freed when the socket goes.
        const release = await connections.acquire(request.ip);
        slots.set(request, release);
        if (release) request.raw.socket.once('close', release);
      },
    },
    (socket, request) => {
      const { token } = request.params;
      const release = slots.get(request) ?? null;
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
