/** The platform adapters this server runs (one per platform behind the port). */
import type { PlatformEndpoints } from './endpoints';
import { createKickAdapter } from './kick/kick-adapter';
import type { KickWebhookReceiver } from './kick/kick-webhook-receiver';
import type { PlatformAdapter } from './port';
import { createTwitchAdapter } from './twitch/twitch-adapter';

export interface PlatformAdapterDeps {
  endpoints: PlatformEndpoints;
  kickWebhooks: KickWebhookReceiver;
}

export function createPlatformAdapters(deps: PlatformAdapterDeps): PlatformAdapter[] {
  return [createTwitchAdapter({ endpoints: deps.endpoints }), createKickAdapter({ endpoints: deps.endpoints.kick, receiver: deps.kickWebhooks })];
}
