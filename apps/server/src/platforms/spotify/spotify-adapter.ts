/**
 * The Spotify adapter: Spotify is a channel provider without chat or a stream, so there is no live
 * connection and no action facet (callers refuse from the catalogue). Song requests use SpotifyClient.
 */
import type { PlatformEndpoints } from '../endpoints';
import type { PlatformAdapter } from '../port';
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
  return { provider: 'spotify', client, connect: () => null, actions: () => ({}) };
}
