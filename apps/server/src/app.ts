import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { registerAuth, WS_PROTOCOL } from './plugins/auth';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerCanonicalHost } from './plugins/canonical-host';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { httpLoggerOptions } from './lib/logging';
import { registerCompression, registerWebApp } from './plugins/web-app';
import { activityRoutes } from './modules/activity';
import { adminRoutes } from './modules/admin';
import { auditLogRoutes } from './modules/audit';
import { authRoutes } from './modules/auth';
import { channelProviderRoutes } from './modules/channel-providers';
import { channelRoutes } from './modules/channels';
import { chatRoutes } from './modules/chat';
import { chatbotRoutes } from './modules/chatbot';
import { pointsRoutes } from './modules/points';
import { gamesRoutes } from './modules/games';
import { giveawayRoutes } from './modules/giveaways';
import { queueRoutes } from './modules/queues';
import { emoteRoutes } from './modules/emotes';
import { moderationRoutes } from './modules/moderation';
import { publicChatRoutes } from './modules/public-chat';
import { staffRoutes } from './modules/staff';
import { statsRoutes } from './modules/stats';
import { discordRoutes } from './modules/discord';
import { watchRoutes } from './modules/watch';
import { adsRoutes } from './modules/ads';
import { spotifyRoutes } from './modules/spotify';
import { streamInfoRoutes } from './modules/stream-info';
import { systemBotRoutes } from './modules/system-bots';
import { userRoutes } from './modules/user';
import { viewerRoutes } from './modules/viewers';
import { webhookRoutes } from './modules/webhooks';
import { widgetRoutes } from './modules/widgets';
import type { AppServices } from './services';

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface BuildOptions {
  /** false: no logging; default: pino at LOG_LEVEL with secrets redacted (lib/logging.ts). */
  logger?: false;
  /** A logger to use instead (tests read what is logged). */
  loggerInstance?: FastifyBaseLogger;
  /** Folder of the built web app; served with an SPA fallback when it exists. */
  webDist?: string | null;
}

/**
 * One access line per request, when it is answered (request, status, time), instead of Fastify's two ("incoming
 * request" and "request completed"): writing log lines is most of what a small request costs.
 */
class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Trusts the nearest `count` proxies (the last `count` addresses of X-Forwarded-For). */
const hops = (count: number) => (_address: string, hop: number) => hop < count;

/** Builds the whole HTTP app: plugins, the authorization gate, every feature's routes, the web app. */
export async function buildApp(s: AppServices, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? httpLoggerOptions(s.config.LOG_LEVEL) }),
    // Only proxies named by TRUST_PROXY may set the client address (per-IP limits) through X-Forwarded-For.
    trustProxy: typeof s.config.TRUST_PROXY === 'number' ? hops(s.config.TRUST_PROXY) : s.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    logController: new AccessLogController(),
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerInputGuard(app);
  registerCanonicalHost(app, s.publicUrl);

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The Twitch embed script; with the local emulator, its stand-in served from loopback.
        scriptSrc: [
          "'self'",
          'https://embed.twitch.tv',
          'https://player.twitch.tv',
          ...(s.config.useEmulator ? ['http://127.0.0.1:*', 'http://localhost:*'] : []),
        ],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:', 'http://127.0.0.1:*', 'http://localhost:*'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        frameSrc: [
          "'self'",
          'https://player.twitch.tv',
          'https://embed.twitch.tv',
          'https://www.twitch.tv',
          'https://www.youtube.com',
          'https://player.kick.com',
          'http://127.0.0.1:*',
          'http://localhost:*',
        ],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // The connect flows open the platform in a popup and poll it until it is back on our origin: a COOP
    // other than unsafe-none would sever the popup from its opener when it visits the platform.
    crossOriginOpenerPolicy: { policy: 'unsafe-none' },
  });
  await registerCompression(app);
  await app.register(cookie, { secret: s.cookieSecret });
  await app.register(rateLimit, {
    max: s.config.RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    allowList: (req) => !req.url.startsWith('/api/'),
    // Several instances count each address together in Redis; while it is unreachable, requests are not limited.
    ...(s.cluster.redis ? { redis: s.cluster.redis, nameSpace: 'gr:rl:', skipOnError: true } : {}),
  });
  await app.register(websocket, {
    options: {
      maxPayload: 64 * 1024,
      handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
    },
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Greenroom API', version: '2' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });

  registerAuth(app, {
    db: s.db,
    sessions: s.sessions,
    cookieSecret: s.cookieSecret,
    secureCookies: s.secureCookies,
    publicOrigin: new URL(s.publicUrl).origin,
  });

  app.get('/api/docs/json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
  // Load balancers poll this: 200 while the instance serves. With several instances it says which one this is, how
  // many channels and connections it holds and whether Redis is reachable (down: it serves its own channels only).
  app.get('/api/health', { config: { access: 'public' }, schema: { hide: true } }, async () => {
    const cluster = s.cluster.status();
    return cluster.mode === 'single' ? { ok: true } : { ok: true, degraded: cluster.redis === 'down', cluster };
  });
  authRoutes(app, s);
  userRoutes(app, s);
  channelRoutes(app, s);
  adminRoutes(app, s);
  webhookRoutes(app, s);
  emoteRoutes(app, s);
  staffRoutes(app, s);
  auditLogRoutes(app, s);
  systemBotRoutes(app, s);
  chatRoutes(app, s);
  activityRoutes(app, s);
  viewerRoutes(app, s);
  publicChatRoutes(app, s);
  channelProviderRoutes(app, s);
  moderationRoutes(app, s);
  streamInfoRoutes(app, s);
  statsRoutes(app, s);
  discordRoutes(app, s);
  watchRoutes(app, s);
  adsRoutes(app, s);
  spotifyRoutes(app, s);
  chatbotRoutes(app, s);
  widgetRoutes(app, s);
  const subscribe = (channelId: string, handler: (event: { type: string; data?: unknown }) => void) =>
    s.bus.subscribe(`channel:${channelId}`, handler);
  pointsRoutes(app, { points: s.points.service });
  gamesRoutes(app, { games: s.games });
  giveawayRoutes(app, { giveaways: s.giveaways.service, subscribe });
  queueRoutes(app, { queues: s.queues, subscribe });
  // Stored effects run once every feature registered its handlers (at construction).
  app.addHook('onReady', async () => s.ingest.start());
  // Live platform connections end with the app (tests and graceful shutdown).
  app.addHook('onClose', async () => s.stats.jobs.stop());
  app.addHook('onClose', async () => s.discord.job.stop());
  app.addHook('onClose', async () => {
    s.spotify.job.stop();
    s.spotify.requestJob.stop();
  });
  app.addHook('onClose', async () => {
    await s.giveaways.stop();
    await s.points.stop();
    await s.chatbot.stop();
    await s.connections.close();
    // What the connections delivered last is written before the database closes.
    await s.ingest.close();
    s.publicChat.close();
  });
  app.addHook('onClose', async () => s.widgets.close());

  await registerWebApp(app, options.webDist === undefined ? defaultWebDist : options.webDist);
  return app;
}
