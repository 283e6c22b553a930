import { AccessLevel } from '@greenroom/contracts/access';
import type { NowPlaying } from '@greenroom/contracts/api/spotify';
import type { BuiltinCommand } from '../chatbot';
import { callerOf } from '../points';
import type { NowPlayingService } from './now-playing';
import type { SongRequestService } from './song-requests';

/** "m:ss" of a track length. */
const mmss = (ms: number) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The chat sentence for what plays. */
export function nowPlayingReply(now: NowPlaying): string {
  switch (now.state) {
    case 'not_connected':
      return 'Spotify is not connected to this channel.';
    case 'reconnect':
      return 'Spotify needs to be reconnected by the streamer.';
    case 'idle':
      return 'Nothing is playing on Spotify right now.';
    case 'playing': {
      const { track } = now;
      const paused = now.is_playing ? '' : ' (paused)';
      const link = track.url ? ` · ${track.url}` : '';
      return `Now playing${paused}: ${track.name} by ${track.artists.join(', ')} [${mmss(track.duration_ms)}]${link}`;
    }
  }
}

export function spotifyBuiltins(nowPlaying: NowPlayingService, songs: SongRequestService): BuiltinCommand[] {
  return [
    {
      key: 'song',
      description: 'Says the song playing on the streamer’s Spotify, with its link.',
      defaults: { name: '!song', aliases: ['!nowplaying'], level: AccessLevel.PUBLIC, globalCooldownSeconds: 10 },
      run: async (inv) => nowPlayingReply(await nowPlaying.get(inv.channelId)),
    },
    {
      key: 'sr',
      description:
        'Requests a song on the streamer’s Spotify: !sr song name, or !sr with a Spotify song link. Who may request, the cost, the longest song and blocked songs are set on the Song Requests page.',
      defaults: { name: '!sr', aliases: ['!songrequest'], level: AccessLevel.PUBLIC, userCooldownSeconds: 5 },
      run: (inv) => songs.request(callerOf(inv)),
    },
    {
      key: 'wrongsong',
      description: 'Takes back the caller’s newest song request that has not played yet (its points are refunded).',
      defaults: { name: '!wrongsong', level: AccessLevel.PUBLIC, userCooldownSeconds: 5 },
      run: (inv) => songs.wrongSong(callerOf(inv)),
    },
  ];
}
