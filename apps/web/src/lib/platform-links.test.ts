import { describe, expect, it } from 'vitest';
import { platformLinks } from './platform-links';

describe('player and studio links', () => {
  it('uses the platforms’ own hosts with real platforms', () => {
    const links = platformLinks(null);
    expect(links.twitchEmbedScript).toBe('https://embed.twitch.tv/embed/v1.js');
    expect(links.youtubeEmbed('abc123', true)).toBe('https://www.youtube.com/embed/abc123?autoplay=1&mute=1');
    expect(links.kickPlayer('streamer', false)).toBe('https://player.kick.com/streamer?autoplay=true&muted=false');
    expect(links.youtubeStudio({ provider_channel_id: 'UC1' })).toBe('https://studio.youtube.com/channel/UC1/livestreaming');
  });

  it('uses the emulator’s stand-ins in local mode', () => {
    const links = platformLinks('http://127.0.0.1:3001/');
    expect(links.twitchEmbedScript).toBe('http://127.0.0.1:3001/_players/twitch/embed/v1.js');
    expect(links.youtubeEmbed('v/1', false)).toBe('http://127.0.0.1:3001/_players/youtube/embed/v%2F1?autoplay=1&mute=0');
    expect(links.kickPlayer('a b', true)).toBe('http://127.0.0.1:3001/_players/kick/a%20b?autoplay=true&muted=true');
    expect(links.youtubeStudio({ provider_channel_id: 'UC1' })).toBe('http://127.0.0.1:3001/_emulator/?channel=youtube%3AUC1');
  });
});
