/** Twitch: Helix at /mock/*, EventSub subscriptions at /eventsub/subscriptions, EventSub WebSocket at /ws (twurple's TWURPLE_MOCK_API_PORT layout). */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { channelsRoutes } from './channels';
import { chatRoutes, ChatLimiter } from './chat';
import { chattersRoutes } from './chatters';
import { EventSubHub } from './eventsub/hub';
import { eventsubRoutes } from './eventsub-routes';
import { followersRoutes } from './followers';
import { moderationRoutes } from './moderation';
import { HelixRateLimiter } from './rate-limit';
import { streamsRoutes } from './streams';
import { usersRoutes } from './users';

/** Twitch's per-emulator state (rate-limit buckets, chat limits, EventSub sessions). */
export class TwitchState {
  readonly rateLimiter = new HelixRateLimiter();
  readonly chatLimiter = new ChatLimiter();
  readonly hub: EventSubHub;

  constructor(ctx: EmulatorContext) {
    this.hub = new EventSubHub(ctx.world, () => ctx.origin().replace(/^http/, 'ws'));
    ctx.world.on('reset', () => {
      this.rateLimiter.clear();
      this.chatLimiter.clear();
    });
  }
}

export async function twitchPlugin(app: FastifyInstance, ctx: EmulatorContext, state: TwitchState): Promise<void> {
  const deps = { world: ctx.world, rateLimiter: state.rateLimiter };
  await usersRoutes(app, deps);
  await channelsRoutes(app, deps);
  await streamsRoutes(app, deps);
  await chatRoutes(app, { ...deps, chatLimiter: state.chatLimiter });
  await chattersRoutes(app, deps);
  await followersRoutes(app, deps);
  await moderationRoutes(app, deps);
  await eventsubRoutes(app, { ...deps, hub: state.hub });
}
