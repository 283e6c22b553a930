/** Composes every platform on one Fastify server. */
import formbody from '@fastify/formbody';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { controlPageRoute } from './control/page';
import { controlRoutes } from './control/routes';
import { streamRoute } from './control/stream';
import { registerFaultHook } from './http/faults';
import { oauthRoutes } from './oauth/routes';
import type { EmulatorServices } from './services';
import { twitchPlugin } from './twitch/plugin';
import { youtubePlugin } from './youtube/plugin';
import { kickPlugin } from './kick/plugin';
import { tiktokPlugin } from './tiktok/plugin';
import { spotifyPlugin } from './spotify/plugin';
import { discordPlugin } from './discord/plugin';
import { emotesPlugin } from './emotes/plugin';
import { playerRoutes } from './players';

export async function buildServer(
  services: EmulatorServices,
  options: { logger: boolean; youtubeGrpcPort?: number },
): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger, bodyLimit: 1024 * 1024, forceCloseConnections: true });
  // Tolerate empty JSON bodies (some clients send Content-Type without a body).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      const error = Object.assign(new Error('Body is not valid JSON'), { statusCode: 400 });
      done(error, undefined);
    }
  });
  await app.register(formbody);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  registerFaultHook(app, services.ctx.world);

  await oauthRoutes(app, services.ctx, services.oauth);
  await twitchPlugin(app, services.ctx, services.twitch);
  await youtubePlugin(app, services.ctx, { grpcPort: options.youtubeGrpcPort ?? 0 });
  await kickPlugin(app, services.ctx);
  await tiktokPlugin(app, services.ctx);
  await spotifyPlugin(app, services.ctx);
  await discordPlugin(app, services.ctx);
  await emotesPlugin(app, services.ctx);
  await playerRoutes(app, services.ctx.world);

  await controlRoutes(app, services);
  await streamRoute(app, services.ctx.world);
  await controlPageRoute(app);
  return app;
}
