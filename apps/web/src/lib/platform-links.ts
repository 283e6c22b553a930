import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';

/**
 * Where the embedded players and the YouTube studio live. With real platforms these are the
 * platforms' own hosts; with the local emulator (`emulator_url` from /api/2/auth/providers) its stand-ins.
 */
export interface PlatformLinks {
  twitchEmbedScript: string;
  youtubeEmbed: (liveStreamId: string, muted: boolean) => string;
  kickPlayer: (channelName: string, muted: boolean) => string;
  youtubeStudio: (p: Pick<ChannelProvider, 'provider_channel_id'>) => string;
}

export function platformLinks(emulatorUrl: string | null): PlatformLinks {
  const players = emulatorUrl ? `${emulatorUrl.replace(/\/$/, '')}/_players` : null;
  return {
    twitchEmbedScript: players ? `${players}/twitch/embed/v1.js` : 'https://embed.twitch.tv/embed/v1.js',
    youtubeEmbed: (id, muted) =>
      `${players ? `${players}/youtube/embed` : 'https://www.youtube.com/embed'}/${encodeURIComponent(id)}?autoplay=1&mute=${muted ? 1 : 0}`,
    kickPlayer: (name, muted) =>
      `${players ? `${players}/kick` : 'https://player.kick.com'}/${encodeURIComponent(name)}?autoplay=true&muted=${muted}`,
    youtubeStudio: (p) =>
      emulatorUrl
        ? `${emulatorUrl.replace(/\/$/, '')}/_emulator/?channel=${encodeURIComponent(`youtube:${p.provider_channel_id}`)}`
        : `https://studio.youtube.com/channel/${encodeURIComponent(p.provider_channel_id)}/livestreaming`,
  };
}
