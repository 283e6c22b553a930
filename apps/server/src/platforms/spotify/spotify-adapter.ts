/**
 * The Spotify adapter: Spotify is a channel provider without chat or a stream, so there is no live
 * connection and every chat/moderation/stream action answers 422. Song requests use SpotifyClient.
 */
import { unsupported } from '../../lib/errors';
import type { PlatformEndpoints } from '../endpoints';
import type { ChannelActions, PlatformAdapter } from '../port';
import { SpotifyClient } from './spotify-client';

export interface SpotifyAdapterDeps {
  endpoints: PlatformEndpoints['spotify'];
  client?: SpotifyClient;
}

export interface SpotifyAdapter extends PlatformAdapter {
  readonly provider: 'spotify';
  /** Now playing, queue and search for song requests (calls take the channel's Spotify TokenSource). */
  readonly client: SpotifyClient;
}

export function createSpotifyAdapter(deps: SpotifyAdapterDeps): SpotifyAdapter {
  const client = deps.client ?? new SpotifyClient({ apiUrl: deps.endpoints.apiUrl });
  const none = (what: string) => async (): Promise<never> => {
    throw unsupported(`Spotify has no chat or stream: it cannot ${what}.`);
  };
  const actions = (): ChannelActions => ({
    sendMessage: none('send chat messages'),
    ban: none('ban viewers'),
    unban: none('unban viewers'),
    deleteMessage: none('delete chat messages'),
    getStreamInfo: none('have a stream title or category'),
    updateStreamInfo: none('have a stream title or category'),
    searchCategories: none('search stream categories'),
  });
  return { provider: 'spotify', client, connect: () => null, actions };
}
