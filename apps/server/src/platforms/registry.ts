/** The platform adapters this server runs (one per platform behind the port). */
import type { PlatformEndpoints } from './endpoints';
import { createKickAdapter, type KickAdapterDeps } from './kick/kick-adapter';
import type { KickWebhookReceiver } from './kick/kick-webhook-receiver';
import type { PlatformAdapter } from './port';
import { createSpotifyAdapter } from './spotify/spotify-adapter';
import { createTiktokAdapter } from './tiktok/tiktok-adapter';
import type { ValidatedProvider } from './tokens';
import { createTwitchAdapter } from './twitch/twitch-adapter';
import type { OwnBans } from './own-actions';
import { createYoutubeAdapter, type YoutubeAdapterDeps } from './youtube/youtube-adapter';

/** Timing overrides of the platform layer (tests shorten YouTube's offline polling, Kick's checks, token validation). */
export interface PlatformAdapterOptions {
  youtube?: Omit<YoutubeAdapterDeps, 'endpoints' | 'client' | 'quota'>;
  kick?: Pick<KickAdapterDeps, 'resubscribeCheckMs' | 'backoff'>;
  /** Token validation periods (the connection manager's defaults: Twitch hourly, Kick every 45 s). */
  validateEveryMs?: Partial<Record<ValidatedProvider, number>>;
}

export interface PlatformAdapterDeps {
  endpoints: PlatformEndpoints;
  kickWebhooks: KickWebhookReceiver;
  youtubeQuota?: YoutubeAdapterDeps['quota'];
  options?: PlatformAdapterOptions;
  /** Each platform's record of the bans Greenroom is making (several instances share them; default: one per adapter). */
  ownBans?: { twitch: OwnBans; kick: OwnBans };
}

export function createPlatformAdapters(deps: PlatformAdapterDeps): PlatformAdapter[] {
  const e = deps.endpoints;
  return [
    createTwitchAdapter({ endpoints: e, ...(deps.ownBans ? { ownBans: deps.ownBans.twitch } : {}) }),
    createKickAdapter({
      ...deps.options?.kick,
      endpoints: e.kick,
      receiver: deps.kickWebhooks,
      ...(deps.ownBans ? { ownBans: deps.ownBans.kick } : {}),
    }),
    createYoutubeAdapter({ ...deps.options?.youtube, endpoints: e.youtube, ...(deps.youtubeQuota ? { quota: deps.youtubeQuota } : {}) }),
    createTiktokAdapter({ endpoints: e.tiktok }),
    createSpotifyAdapter({ endpoints: e.spotify }),
  ];
}
