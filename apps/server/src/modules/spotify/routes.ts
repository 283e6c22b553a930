import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { nowPlayingSchema } from '@greenroom/contracts/api/spotify';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import type { NowPlayingService } from './now-playing';

export interface SpotifyRouteDeps {
  spotify: { nowPlaying: NowPlayingService };
}

/** What the channel's Spotify plays (staff; the live updates are the bus event `spotify.now_playing`). */
export function spotifyRoutes(app: FastifyInstance, deps: SpotifyRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/2/channels/:channelId/spotify/now-playing', {
    config: { access: channelAccess('platforms.view') },
    schema: {
      tags: ['spotify'],
      params: z.object({ channelId: z.string().min(1).max(64) }),
      response: { 200: nowPlayingSchema, ...errorResponses },
    },
    handler: async (request) => deps.spotify.nowPlaying.get(request.params.channelId),
  });
}
