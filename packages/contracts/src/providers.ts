import { z } from 'zod';

/** Every provider Greenroom knows. Closed union: switch over it exhaustively. */
export const providerIds = ['twitch', 'youtube', 'kick', 'tiktok', 'spotify', 'discord', '7tv', 'betterttv'] as const;
export const providerIdSchema = z.enum(providerIds);
export type ProviderId = z.infer<typeof providerIdSchema>;

/** Providers a channel can connect. */
export const channelProviderIds = ['twitch', 'youtube', 'kick', 'tiktok', 'spotify'] as const;
export const channelProviderIdSchema = z.enum(channelProviderIds);
export type ChannelProviderId = z.infer<typeof channelProviderIdSchema>;

/** Providers one can sign in with. */
export const signinProviderIds = ['twitch', 'youtube', 'kick'] as const;
export const signinProviderIdSchema = z.enum(signinProviderIds);
export type SigninProviderId = z.infer<typeof signinProviderIdSchema>;

/** Providers Greenroom connects through OAuth (sign-in, channel connections, bots, links). */
export const oauthProviderIds = ['twitch', 'youtube', 'kick', 'tiktok', 'spotify', 'discord'] as const;
export const oauthProviderIdSchema = z.enum(oauthProviderIds);
export type OAuthProviderId = z.infer<typeof oauthProviderIdSchema>;

export function isOAuthProviderId(value: string): value is OAuthProviderId {
  return (oauthProviderIds as readonly string[]).includes(value);
}

/** Providers that stream (watch pages, players). */
export const streamProviderIds = ['twitch', 'youtube', 'kick', 'tiktok'] as const;
export type StreamProviderId = (typeof streamProviderIds)[number];

export interface ProviderCapabilities {
  channelProvider: boolean;
  signinProvider: boolean;
  stream: boolean;
  chatRead: boolean;
  chatWrite: boolean;
  chatReplyMessage: boolean;
  ownBot: boolean;
  systemBot: boolean;
  changeTitle: boolean;
  changeCategory: boolean;
  ban: boolean;
  unban: boolean;
  deleteMessage: boolean;
  /** Whether a ban/timeout may carry a reason. */
  banReason: boolean;
  /** The platform lists who is connected to the chat, lurkers included (Twitch's Get Chatters). */
  chatterList: boolean;
  /**
   * The platform's API gives the channel's follower count (Twitch's followers total, YouTube's subscriber count).
   * Kick's public API has subscriber counts but no follower count; TikTok has no API.
   */
  followerCount: boolean;
  /** The broadcaster can run an ad break (Twitch's Start Commercial: partners and affiliates, while live). */
  commercial: boolean;
}

export interface ProviderInfo extends ProviderCapabilities {
  id: ProviderId;
  name: string;
  /** Mantine colour name used for this platform. */
  color: string;
  /** Template using {provider_channel_name}; null when the platform has none. */
  dashboardUrl: string | null;
  streamTitleMaxLength: number | null;
  /** Longest ban/timeout reason the platform accepts. */
  banReasonMaxLength: number | null;
  /** Longest timeout the platform accepts, in seconds. */
  maxTimeoutSeconds: number | null;
  /**
   * The unit a timeout is given in, in seconds: 1 where the platform takes seconds (Twitch, YouTube), 60 on Kick,
   * which takes whole minutes (so its shortest timeout is one minute). A duration must be a whole number of units.
   */
  timeoutStepSeconds: number;
  /** Longest chat message the platform accepts, in characters; null without chat write. */
  chatMessageMaxLength: number | null;
}

const none: ProviderCapabilities = {
  channelProvider: false,
  signinProvider: false,
  stream: false,
  chatRead: false,
  chatWrite: false,
  chatReplyMessage: false,
  ownBot: false,
  systemBot: false,
  changeTitle: false,
  changeCategory: false,
  ban: false,
  unban: false,
  deleteMessage: false,
  banReason: false,
  chatterList: false,
  followerCount: false,
  commercial: false,
};

const streaming: ProviderCapabilities = {
  ...none,
  channelProvider: true,
  signinProvider: true,
  stream: true,
  chatRead: true,
  chatWrite: true,
  ownBot: true,
  systemBot: true,
  changeTitle: true,
  changeCategory: true,
  ban: true,
  unban: true,
  deleteMessage: true,
};

const base = {
  dashboardUrl: null,
  streamTitleMaxLength: null,
  banReasonMaxLength: null,
  maxTimeoutSeconds: null,
  timeoutStepSeconds: 1,
  chatMessageMaxLength: null,
};

/** The fixed provider catalogue, shared by server and web. */
export const providers: Record<ProviderId, ProviderInfo> = {
  twitch: {
    ...streaming,
    id: 'twitch',
    name: 'Twitch',
    color: 'grape',
    chatReplyMessage: true,
    banReason: true,
    chatterList: true,
    followerCount: true,
    commercial: true,
    dashboardUrl: 'https://dashboard.twitch.tv/u/{provider_channel_name}/stream-manager',
    streamTitleMaxLength: 140,
    banReasonMaxLength: 500,
    maxTimeoutSeconds: 1_209_600,
    timeoutStepSeconds: 1,
    chatMessageMaxLength: 500,
  },
  youtube: {
    ...streaming,
    id: 'youtube',
    name: 'YouTube',
    color: 'red',
    followerCount: true,
    dashboardUrl: 'https://studio.youtube.com/channel/{provider_channel_name}/livestreaming',
    streamTitleMaxLength: 100,
    banReasonMaxLength: null,
    maxTimeoutSeconds: 86_400,
    timeoutStepSeconds: 1,
    chatMessageMaxLength: 200,
  },
  kick: {
    ...streaming,
    id: 'kick',
    name: 'Kick',
    color: 'green',
    banReason: true,
    dashboardUrl: 'https://dashboard.kick.com/stream',
    streamTitleMaxLength: 140,
    banReasonMaxLength: 100,
    maxTimeoutSeconds: 10_080 * 60,
    timeoutStepSeconds: 60,
    chatMessageMaxLength: 500,
  },
  tiktok: { ...base, ...none, id: 'tiktok', name: 'TikTok', color: 'pink', channelProvider: true, stream: true, chatRead: true },
  spotify: { ...base, ...none, id: 'spotify', name: 'Spotify', color: 'teal', channelProvider: true },
  discord: { ...base, ...none, id: 'discord', name: 'Discord', color: 'indigo' },
  '7tv': { ...base, ...none, id: '7tv', name: '7TV', color: 'cyan' },
  betterttv: { ...base, ...none, id: 'betterttv', name: 'BetterTTV', color: 'orange' },
};

function spelled(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? '1 day' : `${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/**
 * Why a platform would not apply a timeout of `seconds` as given (null: it would): the platform's range and unit
 * (Kick: whole minutes, 1 minute to 7 days). The server refuses such a timeout and the web form offers only
 * durations this accepts, so what the platform applies is what the moderator chose.
 */
export function timeoutProblem(id: ProviderId, seconds: number): string | null {
  const info = providers[id];
  const step = info.timeoutStepSeconds;
  const max = info.maxTimeoutSeconds;
  const range = `from ${spelled(step)}${max !== null ? ` to ${spelled(max)}` : ''}`;
  if (!Number.isInteger(seconds) || seconds < step || seconds % step !== 0)
    return step === 1
      ? `${info.name} timeouts are a whole number of seconds, ${range}.`
      : `${info.name} times out in whole minutes, ${range}.`;
  if (max !== null && seconds > max) return `${info.name} timeouts last ${range}.`;
  return null;
}

export function providerInfo(id: ProviderId): ProviderInfo {
  return providers[id];
}

export function dashboardUrl(id: ProviderId, providerChannelName: string): string | null {
  const template = providers[id].dashboardUrl;
  return template ? template.replaceAll('{provider_channel_name}', encodeURIComponent(providerChannelName)) : null;
}

export function assertUnreachable(value: never): never {
  throw new Error(`Unexpected value: ${String(value)}`);
}
