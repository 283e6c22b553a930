/** Spotify: what plays (`!song`, the now-playing widget, the bus event `spotify.now_playing`) and song requests (`!sr`). */
export { spotifyBuiltins, nowPlayingReply } from './builtins';
export { NowPlayingJob, NowPlayingService, spotifyTokenOf, toTrackDto, type NowPlayingServiceDeps } from './now-playing';
export { spotifyRoutes, type SpotifyRouteDeps } from './routes';
export { SongRequestJob, SongRequestService, toSongRequestDto, type SongRequestPoints } from './song-requests';
export { SongRequestRepository } from './song-request-repository';
