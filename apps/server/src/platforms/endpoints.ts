import type { OAuthProviderId } from '@greenroom/contracts/providers';
import type { Config } from '../config';

/** OAuth app credentials and endpoints of one platform. */
export interface OAuthEndpoints {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string | null;
  /** How the platform treats PKCE: Kick requires it, Twitch does not support it. */
  pkce: 'required' | 'supported' | 'none';
  /** TikTok names the client id `client_key`. */
  clientIdParam: 'client_id' | 'client_key';
  scopeSeparator: ' ' | ',';
  /** Extra authorize parameters (Google: offline access so a refresh token is issued). */
  extraAuthorizeParams: Record<string, string>;
}

/** Every base URL the platform layer talks to. The same adapters reach the real platform or the emulator. */
export interface PlatformEndpoints {
  twitch: OAuthEndpoints & {
    validateUrl: string;
    helixUrl: string;
    eventSubWsUrl: string;
    mockApiPort: number | null;
    /** Emote image CDN: `{emoteCdnUrl}/emoticons/v2/{id}/{format}/{theme_mode}/{scale}`. */
    emoteCdnUrl: string;
  };
  /** `chatStream`: the gRPC liveChatMessages.streamList service (null: chat is polled). */
  youtube: OAuthEndpoints & { apiUrl: string; chatStream: { address: string; tls: boolean } | null };
  /** `apiUrl` is the public API v1; categories moved to v2; introspection lives on the OAuth host. */
  kick: OAuthEndpoints & { apiUrl: string; apiV2Url: string; introspectUrl: string };
  tiktok: OAuthEndpoints & { apiUrl: string; liveUrl: string | null; signApiKey: string | null };
  spotify: OAuthEndpoints & { apiUrl: string };
  discord: OAuthEndpoints & { apiUrl: string };
  sevenTv: { apiUrl: string };
  bttv: { apiUrl: string };
}

/** A provider connected through OAuth (the list lives in the provider catalogue). */
export type OAuthProvider = OAuthProviderId;

const oauthDefaults = { clientIdParam: 'client_id', scopeSeparator: ' ', extraAuthorizeParams: {} } as const;

/** Real platform endpoints with the configured credentials. */
export function realEndpoints(config: Config): PlatformEndpoints {
  return {
    twitch: {
      ...oauthDefaults,
      clientId: config.TWITCH_CLIENT_ID ?? '',
      clientSecret: config.TWITCH_CLIENT_SECRET ?? '',
      authorizeUrl: 'https://id.twitch.tv/oauth2/authorize',
      tokenUrl: 'https://id.twitch.tv/oauth2/token',
      revokeUrl: 'https://id.twitch.tv/oauth2/revoke',
      validateUrl: 'https://id.twitch.tv/oauth2/validate',
      helixUrl: 'https://api.twitch.tv/helix',
      eventSubWsUrl: 'wss://eventsub.wss.twitch.tv/ws',
      mockApiPort: null,
      emoteCdnUrl: 'https://static-cdn.jtvnw.net',
      pkce: 'none',
    },
    youtube: {
      ...oauthDefaults,
      clientId: config.YOUTUBE_CLIENT_ID ?? '',
      clientSecret: config.YOUTUBE_CLIENT_SECRET ?? '',
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revokeUrl: 'https://oauth2.googleapis.com/revoke',
      apiUrl: 'https://www.googleapis.com/youtube/v3',
      chatStream: { address: 'youtube.googleapis.com:443', tls: true },
      pkce: 'supported',
      extraAuthorizeParams: { access_type: 'offline', prompt: 'consent' },
    },
    kick: {
      ...oauthDefaults,
      clientId: config.KICK_CLIENT_ID ?? '',
      clientSecret: config.KICK_CLIENT_SECRET ?? '',
      authorizeUrl: 'https://id.kick.com/oauth/authorize',
      tokenUrl: 'https://id.kick.com/oauth/token',
      revokeUrl: 'https://id.kick.com/oauth/revoke',
      introspectUrl: 'https://id.kick.com/oauth/token/introspect',
      apiUrl: 'https://api.kick.com/public/v1',
      apiV2Url: 'https://api.kick.com/public/v2',
      pkce: 'required',
    },
    tiktok: {
      ...oauthDefaults,
      clientIdParam: 'client_key',
      scopeSeparator: ',',
      clientId: config.TIKTOK_CLIENT_KEY ?? '',
      clientSecret: config.TIKTOK_CLIENT_SECRET ?? '',
      authorizeUrl: 'https://www.tiktok.com/v2/auth/authorize/',
      tokenUrl: 'https://open.tiktokapis.com/v2/oauth/token/',
      revokeUrl: 'https://open.tiktokapis.com/v2/oauth/revoke/',
      apiUrl: 'https://open.tiktokapis.com/v2',
      liveUrl: null,
      signApiKey: config.TIKTOK_SIGN_API_KEY ?? null,
      pkce: 'none',
    },
    spotify: {
      ...oauthDefaults,
      clientId: config.SPOTIFY_CLIENT_ID ?? '',
      clientSecret: config.SPOTIFY_CLIENT_SECRET ?? '',
      authorizeUrl: 'https://accounts.spotify.com/authorize',
      tokenUrl: 'https://accounts.spotify.com/api/token',
      revokeUrl: null,
      apiUrl: 'https://api.spotify.com/v1',
      pkce: 'supported',
    },
    discord: {
      ...oauthDefaults,
      clientId: config.DISCORD_CLIENT_ID ?? '',
      clientSecret: config.DISCORD_CLIENT_SECRET ?? '',
      authorizeUrl: 'https://discord.com/oauth2/authorize',
      tokenUrl: 'https://discord.com/api/oauth2/token',
      revokeUrl: 'https://discord.com/api/oauth2/token/revoke',
      apiUrl: 'https://discord.com/api/v10',
      pkce: 'supported',
    },
    sevenTv: { apiUrl: 'https://7tv.io/v3' },
    bttv: { apiUrl: 'https://api.betterttv.net/3' },
  };
}

/**
 * The emulator's layout (packages/platform-emulator README) on `origin`, with the app credentials registered there.
 * `youtubeGrpcAddress`: host:port of its gRPC streamList service (its config's `youtube.grpcAddress`); null: polling.
 */
export function emulatorEndpoints(
  origin: string,
  apps: Record<OAuthProvider, { clientId: string; clientSecret: string }>,
  youtubeGrpcAddress: string | null = null,
): PlatformEndpoints {
  const port = Number(new URL(origin).port);
  const ws = origin.replace(/^http/, 'ws');
  return {
    twitch: {
      ...oauthDefaults,
      ...apps.twitch,
      authorizeUrl: `${origin}/auth/authorize`,
      tokenUrl: `${origin}/auth/token`,
      revokeUrl: `${origin}/auth/revoke`,
      validateUrl: `${origin}/auth/validate`,
      helixUrl: `${origin}/mock`,
      eventSubWsUrl: `${ws}/ws`,
      mockApiPort: port,
      emoteCdnUrl: `${origin}/twitch-cdn`,
      pkce: 'none',
    },
    youtube: {
      ...oauthDefaults,
      ...apps.youtube,
      authorizeUrl: `${origin}/google/o/oauth2/v2/auth`,
      tokenUrl: `${origin}/google/token`,
      revokeUrl: `${origin}/google/revoke`,
      apiUrl: `${origin}/youtube/youtube/v3`,
      chatStream: youtubeGrpcAddress ? { address: youtubeGrpcAddress, tls: false } : null,
      pkce: 'supported',
      extraAuthorizeParams: { access_type: 'offline', prompt: 'consent' },
    },
    kick: {
      ...oauthDefaults,
      ...apps.kick,
      authorizeUrl: `${origin}/kick-id/oauth/authorize`,
      tokenUrl: `${origin}/kick-id/oauth/token`,
      revokeUrl: `${origin}/kick-id/oauth/revoke`,
      introspectUrl: `${origin}/kick-id/oauth/token/introspect`,
      apiUrl: `${origin}/kick/public/v1`,
      apiV2Url: `${origin}/kick/public/v2`,
      pkce: 'required',
    },
    tiktok: {
      ...oauthDefaults,
      ...apps.tiktok,
      clientIdParam: 'client_key',
      scopeSeparator: ',',
      authorizeUrl: `${origin}/tiktok/v2/auth/authorize/`,
      tokenUrl: `${origin}/tiktok/v2/oauth/token/`,
      revokeUrl: `${origin}/tiktok/v2/oauth/revoke/`,
      apiUrl: `${origin}/tiktok/v2`,
      liveUrl: `${ws}/tiktok-live`,
      signApiKey: null,
      pkce: 'none',
    },
    spotify: {
      ...oauthDefaults,
      ...apps.spotify,
      authorizeUrl: `${origin}/spotify-accounts/authorize`,
      tokenUrl: `${origin}/spotify-accounts/api/token`,
      revokeUrl: null,
      apiUrl: `${origin}/spotify/v1`,
      pkce: 'supported',
    },
    discord: {
      ...oauthDefaults,
      ...apps.discord,
      authorizeUrl: `${origin}/discord/oauth2/authorize`,
      tokenUrl: `${origin}/discord/api/oauth2/token`,
      revokeUrl: `${origin}/discord/api/oauth2/token/revoke`,
      apiUrl: `${origin}/discord/api/v10`,
      pkce: 'supported',
    },
    sevenTv: { apiUrl: `${origin}/7tv/v3` },
    bttv: { apiUrl: `${origin}/bttv/3` },
  };
}
