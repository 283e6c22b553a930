/**
 * The Greenroom platform emulator: Twitch, YouTube, Kick, TikTok, Spotify, Discord, 7TV and
 * BetterTTV on one local port, with a simulated world and crowd. See README.md.
 */
import { clientConfig, defaultApps, type EmulatorClientConfig } from './config';
import type { EmulatorContext, RegisteredApp } from './context';
import { Crowd, type CrowdOptions } from './crowd/crowd';
import { OAuthService } from './oauth/service';
import { SeededRandom } from './random';
import { seedWorld } from './seed';
import { buildServer } from './server';
import type { EmulatorServices } from './services';
import { TwitchState } from './twitch/plugin';
import { platforms, World, type Platform } from './world';

export type { EmulatorClientConfig } from './config';
export type { EmulatorContext, RegisteredApp } from './context';
export type { CrowdOptions } from './crowd/crowd';
export { Crowd } from './crowd/crowd';
export { World } from './world';
export type { Platform, Account, Channel, ChatMessage, ChannelEvent, ProductAction, Token, Fault } from './world';

export interface EmulatorOptions {
  /** 0 = ephemeral (default). */
  port?: number;
  /** Seed of the world and the crowd (default 1). */
  seed?: number;
  /** false/omitted: crowd created but stopped; true: started with defaults; object: options (autoStart defaults to true). */
  crowd?: boolean | CrowdOptions;
  /** Registered apps per platform (client ids, secrets, redirect URIs, Kick webhook URL). */
  apps?: Partial<Record<Platform, Partial<RegisteredApp>>>;
  /** The product's public origin: the default apps' redirect URIs are on it (default http://localhost:3000). */
  productUrl?: string;
  /** Port of YouTube's gRPC liveChatMessages.streamList service (0 = ephemeral, the default). */
  youtubeGrpcPort?: number;
  /** Fastify request logging (default false). */
  logger?: boolean;
}

export interface Emulator {
  origin: string;
  port: number;
  world: World;
  ctx: EmulatorContext;
  crowd: Crowd;
  config: EmulatorClientConfig;
  /** Forget everything and seed the starting world again (same as POST /_emulator/reset). */
  reset(): void;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const seed = options.seed ?? 1;
  const random = new SeededRandom(seed);
  const world = new World();
  world.setMaxListeners(100);
  const apps: Record<string, RegisteredApp> = defaultApps(options.productUrl);
  for (const p of platforms) {
    const override = options.apps?.[p];
    if (override) apps[p] = { ...apps[p]!, ...override, redirectUris: override.redirectUris ?? apps[p]!.redirectUris };
  }
  let origin = '';
  let port = 0;
  const ctx: EmulatorContext = { world, apps, origin: () => origin, random: () => random.next() };
  const crowdOptions: CrowdOptions = typeof options.crowd === 'object' ? options.crowd : {};
  const crowd = new Crowd(world, new SeededRandom((seed ^ 0x9e3779b9) >>> 0), crowdOptions);
  const oauth = new OAuthService(ctx, random);
  const twitch = new TwitchState(ctx);
  const services: EmulatorServices = {
    ctx,
    random,
    oauth,
    twitch,
    crowd,
    reset: () => {
      world.reset();
      oauth.clear();
      random.reset();
      seedWorld(world, random, origin);
    },
    config: () => clientConfig(origin, port, apps, ctx.youtube?.streamList.address() ?? null),
  };
  const app = await buildServer(services, { logger: options.logger ?? false, youtubeGrpcPort: options.youtubeGrpcPort ?? 0 });
  // `localhost` listens on 127.0.0.1 and ::1 (when available) on the same port: @twurple calls http://localhost:{port}.
  await app.listen({ host: 'localhost', port: options.port ?? 0 });
  const address = app.server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
  origin = `http://127.0.0.1:${port}`;
  seedWorld(world, random, origin);
  const crowdOn = options.crowd === true || (typeof options.crowd === 'object' && options.crowd.autoStart !== false);
  if (crowdOn) crowd.start();

  return {
    origin,
    port,
    world,
    ctx,
    crowd,
    get config() {
      return services.config();
    },
    reset: () => services.reset(),
    close: async () => {
      crowd.stop();
      twitch.hub.dispose();
      await app.close();
    },
  };
}
