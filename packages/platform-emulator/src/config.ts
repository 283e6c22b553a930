/** Everything a client needs to talk to the emulator instead of the real platforms. */
import type { RegisteredApp } from './context';
import type { Platform } from './world';

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  authorizeUrl: string;
  tokenUrl: string;
  /** null: the platform has no revocation endpoint (Spotify). */
  revokeUrl: string | null;
  apiUrl: string;
}

export interface EmulatorClientConfig {
  origin: string;
  controlUrl: string;
  twitch: OAuthClientConfig & {
    validateUrl: string;
    /** Helix base (twurple: …/mock). */
    helixUrl: string;
    eventSubSubscriptionsUrl: string;
    eventSubWsUrl: string;
    /** Set TWURPLE_MOCK_API_PORT to this for unmodified @twurple code. */
    mockApiPort: number;
    /** Emote images, in the layout of https://static-cdn.jtvnw.net (`/emoticons/v2/{id}/{format}/{theme_mode}/{scale}`). */
    emoteCdnUrl: string;
  };
  youtube: OAuthClientConfig & {
    /** googleapis `rootUrl`. */
    rootUrl: string;
    /** host:port of the gRPC liveChatMessages.streamList service (plaintext; the real one is youtube.googleapis.com:443). */
    grpcAddress: string | null;
  };
  kick: OAuthClientConfig & { publicKeyUrl: string; webhookUrl: string | null };
  tiktok: OAuthClientConfig & { liveUrl: string };
  spotify: OAuthClientConfig;
  discord: OAuthClientConfig;
  sevenTv: { apiUrl: string; cdnUrl: string };
  bttv: { apiUrl: string; cdnUrl: string };
}

/** Where the product runs unless told otherwise (its PUBLIC_URL default). */
export const DEFAULT_PRODUCT_URL = 'http://localhost:3000';

/**
 * The apps registered on every platform: one redirect URI per platform, on the product's public origin only. Real
 * platforms match redirect URIs exactly (and Kick rewrites a 127.0.0.1 one), so registering a second loopback alias
 * would let a sign-in start on one host and return to the other, where its state cookie does not exist.
 */
export function defaultApps(productUrl = DEFAULT_PRODUCT_URL): Record<Platform, RegisteredApp> {
  const origin = productUrl.replace(/\/$/, '');
  const app = (p: Platform): RegisteredApp => ({
    clientId: `greenroom-${p}`,
    clientSecret: `greenroom-${p}-local-secret`,
    redirectUris: [`${origin}/oauth/${p}`],
    webhookUrl: null,
  });
  return {
    twitch: app('twitch'),
    youtube: app('youtube'),
    kick: app('kick'),
    tiktok: app('tiktok'),
    spotify: app('spotify'),
    discord: app('discord'),
  };
}

export function clientConfig(
  origin: string,
  port: number,
  apps: Record<string, RegisteredApp>,
  youtubeGrpcAddress: string | null = null,
): EmulatorClientConfig {
  const ws = origin.replace(/^http/, 'ws');
  const creds = (p: Platform) => {
    const a = apps[p];
    return { clientId: a?.clientId ?? '', clientSecret: a?.clientSecret ?? '', redirectUris: [...(a?.redirectUris ?? [])] };
  };
  return {
    origin,
    controlUrl: `${origin}/_emulator`,
    twitch: {
      ...creds('twitch'),
      authorizeUrl: `${origin}/auth/authorize`,
      tokenUrl: `${origin}/auth/token`,
      revokeUrl: `${origin}/auth/revoke`,
      validateUrl: `${origin}/auth/validate`,
      apiUrl: `${origin}/mock`,
      helixUrl: `${origin}/mock`,
      eventSubSubscriptionsUrl: `${origin}/eventsub/subscriptions`,
      eventSubWsUrl: `${ws}/ws`,
      mockApiPort: port,
      emoteCdnUrl: `${origin}/twitch-cdn`,
    },
    youtube: {
      ...creds('youtube'),
      authorizeUrl: `${origin}/google/o/oauth2/v2/auth`,
      tokenUrl: `${origin}/google/token`,
      revokeUrl: `${origin}/google/revoke`,
      apiUrl: `${origin}/youtube/youtube/v3`,
      rootUrl: `${origin}/youtube/`,
      grpcAddress: youtubeGrpcAddress,
    },
    kick: {
      ...creds('kick'),
      authorizeUrl: `${origin}/kick-id/oauth/authorize`,
      tokenUrl: `${origin}/kick-id/oauth/token`,
      revokeUrl: `${origin}/kick-id/oauth/revoke`,
      apiUrl: `${origin}/kick/public/v1`,
      publicKeyUrl: `${origin}/kick/public/v1/public-key`,
      webhookUrl: apps.kick?.webhookUrl ?? null,
    },
    tiktok: {
      ...creds('tiktok'),
      authorizeUrl: `${origin}/tiktok/v2/auth/authorize/`,
      tokenUrl: `${origin}/tiktok/v2/oauth/token/`,
      revokeUrl: `${origin}/tiktok/v2/oauth/revoke/`,
      apiUrl: `${origin}/tiktok/v2`,
      liveUrl: `${origin}/tiktok-live`,
    },
    spotify: {
      ...creds('spotify'),
      authorizeUrl: `${origin}/spotify-accounts/authorize`,
      tokenUrl: `${origin}/spotify-accounts/api/token`,
      revokeUrl: null,
      apiUrl: `${origin}/spotify/v1`,
    },
    discord: {
      ...creds('discord'),
      authorizeUrl: `${origin}/discord/oauth2/authorize`,
      tokenUrl: `${origin}/discord/api/oauth2/token`,
      revokeUrl: `${origin}/discord/api/oauth2/token/revoke`,
      apiUrl: `${origin}/discord/api/v10`,
    },
    sevenTv: { apiUrl: `${origin}/7tv/v3`, cdnUrl: `${origin}/7tv-cdn` },
    bttv: { apiUrl: `${origin}/bttv/3`, cdnUrl: `${origin}/bttv-cdn` },
  };
}
