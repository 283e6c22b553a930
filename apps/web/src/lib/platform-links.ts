import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';

/**
 * Where the embedded players and the YouTube studio live. With real platforms these are the
 * platforms' own hosts; with the local emulator (`emulator_url` from /api/2/auth/providers) its stand-ins.
 */
export interface PlatformLinks {
  twitchEmbedScript: string;
  youtubeEmbed: (liveStreamId: string, muted: boolean) => string;
  kickPlayer: (channelName: string, muted: boolean) => string;
  /** YouTube's live embed of a channel (when the broadcast's video id is not known). */
  youtubeChannelEmbed: (providerChannelId: string, muted: boolean) => string;
  youtubeStudio: (p: Pick<ChannelProvider, 'provider_channel_id'>) => string;
}

/** A channel's own page on its platform (for "watch on …" links; TikTok: its LIVE page). */
export function platformChannelUrl(
  provider: 'twitch' | 'youtube' | 'kick' | 'tiktok',
  p: { provider_channel_name: string; provider_channel_id: string },
): string {
  const name = encodeURIComponent(p.provider_channel_name);
  switch (provider) {
    case 'twitch':
      return `https://www.twitch.tv/${name}`;
    case 'youtube':
      return `https://www.youtube.com/channel/${encodeURIComponent(p.provider_channel_id)}/live`;
    case 'kick':
      return `https://kick.com/${name}`;
    case 'tiktok':
      return `https://www.tiktok.com/@${name}/live`;
  }
}

/** The public watch page of a channel on a platform (path; prefix the origin for a shareable link). */
export function watchPath(provider: string, providerChannelName: string): string {
  return `/watch/${encodeURIComponent(provider)}/${encodeURIComponent(providerChannelName)}`;
}

export function platformLinks(emulatorUrl: string | null): PlatformLinks {
  const players = emulatorUrl ? `${emulatorUrl.replace(/\/$/, '')}/_players` : null;
  return {
    twitchEmbedScript: players ? `${players}/twitch/embed/v1.js` : 'https://embed.twitch.tv/embed/v1.js',
    youtubeEmbed: (id, muted) =>
      `${players ? `${players}/youtube/embed` : 'https://www.youtube.com/embed'}/${encodeURIComponent(id)}?autoplay=1&mute=${muted ? 1 : 0}`,
    youtubeChannelEmbed: (id, muted) =>
      `${players ? `${players}/youtube/embed` : 'https://www.youtube.com/embed'}/live_stream?channel=${encodeURIComponent(id)}&autoplay=1&mute=${muted ? 1 : 0}`,
    kickPlayer: (name, muted) =>
      `${players ? `${players}/kick` : 'https://player.kick.com'}/${encodeURIComponent(name)}?autoplay=true&muted=${muted}`,
    youtubeStudio: (p) =>
      emulatorUrl
        ? `${emulatorUrl.replace(/\/$/, '')}/_emulator/?channel=${encodeURIComponent(`youtube:${p.provider_channel_id}`)}`
        : `https://studio.youtube.com/channel/${encodeURIComponent(p.provider_channel_id)}/livestreaming`,
  };
}
