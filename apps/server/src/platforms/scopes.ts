import type { OAuthProvider } from './endpoints';

/** What a connection is for decides the scopes it asks for (each list names the scopes the features of that purpose call). */
export type ConnectionPurpose = 'signin' | 'channel' | 'bot';

const yt = (s: string) => `https://www.googleapis.com/auth/${s}`;

export const scopesFor: Record<OAuthProvider, Record<ConnectionPurpose, string[]>> = {
  twitch: {
    signin: ['user:read:email'],
    channel: [
      'user:read:chat',
      'user:write:chat',
      'user:bot',
      'channel:bot',
      'moderator:manage:banned_users',
      'moderator:manage:chat_messages',
      // EventSub channel.ban: bans and timeouts done on Twitch itself, with their duration.
      'channel:moderate',
      'moderator:read:followers',
      // Get Chatters: watch-time points for viewers who do not chat.
      'moderator:read:chatters',
      'channel:manage:broadcast',
      // Start Commercial (the dashboard's "Run an ad").
      'channel:edit:commercial',
      'channel:read:subscriptions',
      'bits:read',
    ],
    bot: ['user:read:chat', 'user:write:chat', 'user:bot', 'moderator:manage:banned_users', 'moderator:manage:chat_messages'],
  },
  youtube: {
    signin: [yt('youtube.readonly')],
    channel: [yt('youtube.force-ssl')],
    bot: [yt('youtube.force-ssl')],
  },
  kick: {
    signin: ['user:read'],
    channel: [
      'user:read',
      'channel:read',
      'channel:write',
      'chat:write',
      'events:subscribe',
      'moderation:ban',
      'moderation:chat_message:manage',
      'kicks:read',
    ],
    bot: ['user:read', 'chat:write', 'moderation:ban', 'moderation:chat_message:manage'],
  },
  tiktok: { signin: ['user.info.basic'], channel: ['user.info.basic', 'user.info.profile'], bot: [] },
  spotify: {
    signin: ['user-read-email'],
    channel: ['user-read-currently-playing', 'user-read-playback-state', 'user-modify-playback-state'],
    bot: [],
  },
  discord: { signin: ['identify'], channel: ['identify', 'webhook.incoming'], bot: [] },
};
