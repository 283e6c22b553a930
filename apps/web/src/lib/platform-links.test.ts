import { describe, expect, it } from 'vitest';
import { platformChannelUrl, platformLinks, watchPath } from './platform-links';

describe('player and studio links', () => {
  it('uses the platforms’ own hosts with real platforms', () => {
    const links = platformLinks(null);
    expect(links.twitchEmbedScript).toBe('https://embed.twitch.tv/embed/v1.js');
    expect(links.youtubeEmbed('abc123', true)).toBe('https://www.youtube.com/embed/abc123?autoplay=1&mute=1');
    expect(links.kickPlayer('streamer', false)).toBe('https://player.kick.com/streamer?autoplay=true&muted=false');
    expect(links.youtubeStudio({ provider_channel_id: 'UC1' })).toBe('https://studio.youtube.com/channel/UC1/livestreaming');
    expect(links.youtubeChannelEmbed('UC1', true)).toBe('https://www.youtube.com/embed/live_stream?channel=UC1&autoplay=1&mute=1');
  });

  it('links to the channel on its platform and to the watch page', () => {
    const p = { provider_channel_name: 'some one', provider_channel_id: 'UC9' };
    expect(platformChannelUrl('twitch', p)).toBe('https://www.twitch.tv/some%20one');
    expect(platformChannelUrl('youtube', p)).toBe('https://www.youtube.com/channel/UC9/live');
    expect(platformChannelUrl('kick', p)).toBe('https://kick.com/some%20one');
    expect(platformChannelUrl('tiktok', p)).toBe('https://www.tiktok.com/@some%20one/live');
    expect(watchPath('youtube', 'My TV/1')).toBe('/watch/youtube/My%20TV%2F1');
  });

  it('uses the emulator’s stand-ins in local mode', () => {
    const links = platformLinks('http://127.0.0.1:3001/');
    expect(links.twitchEmbedScript).toBe('http://127.0.0.1:3001/_players/twitch/embed/v1.js');
    expect(links.youtubeEmbed('v/1', false)).toBe('http://127.0.0.1:3001/_players/youtube/embed/v%2F1?autoplay=1&mute=0');
    expect(links.kickPlayer('a b', true)).toBe('http://127.0.0.1:3001/_players/kick/a%20b?autoplay=true&muted=true');
    expect(links.youtubeStudio({ provider_channel_id: 'UC1' })).toBe('http://127.0.0.1:3001/_emulator/?channel=youtube%3AUC1');
  });
});
