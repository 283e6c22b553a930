import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  nowPlayingSchema,
  songRequestListSchema,
  songRequestParamsSchema,
  songRequestSchema,
  songRequestSettingsSchema,
} from '@greenroom/contracts/api/spotify';
import { abilityLevel } from '@greenroom/contracts/abilities';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import { requireAuth } from '../../plugins/auth';
import { channelEventSocket, type SocketAccessDeps } from '../../plugins/socket-access';
import type { NowPlayingService } from './now-playing';
import type { SongRequestService } from './song-requests';

export interface SpotifyRouteDeps extends SocketAccessDeps {
  spotify: { nowPlaying: NowPlayingService; songRequests: SongRequestService };
}

const channelParams = z.object({ channelId: z.string().min(1).max(64) });
const tags = ['spotify'];
const queueAccess = channelAccess('songs.queue');
const settingsAccess = channelAccess('songs.manage');

/**
 * What the channel's Spotify plays (staff; the live updates are the bus event `spotify.now_playing`), and song
 * requests: the queue (Mods: see, skip, remove, live socket) and the rules (Editors).
 */
export function spotifyRoutes(app: FastifyInstance, deps: SpotifyRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const songs = deps.spotify.songRequests;
  const actor = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

  r.get('/api/2/channels/:channelId/spotify/now-playing', {
    config: { access: channelAccess('platforms.view') },
    schema: { tags, params: channelParams, response: { 200: nowPlayingSchema, ...errorResponses } },
    handler: async (request) => deps.spotify.nowPlaying.get(request.params.channelId),
  });

  r.get('/api/2/channels/:channelId/spotify/requests', {
    config: { access: queueAccess },
    schema: { tags, params: channelParams, response: { 200: songRequestListSchema, ...errorResponses } },
    handler: async (request) => songs.list(request.params.channelId),
  });

  r.delete('/api/2/channels/:channelId/spotify/requests/:requestId', {
    config: { access: queueAccess },
    schema: { tags, params: songRequestParamsSchema, response: { 200: songRequestSchema, ...errorResponses } },
    handler: async (request) => songs.remove(request.params.channelId, request.params.requestId, actor(request)),
  });

  /** Skips the track Spotify plays (Premium and an active device, like every player command). */
  r.post('/api/2/channels/:channelId/spotify/skip', {
    config: { access: queueAccess },
    schema: { tags, params: channelParams, response: { 200: songRequestListSchema, ...errorResponses } },
    handler: async (request) => songs.skip(request.params.channelId, actor(request)),
  });

  r.get('/api/2/channels/:channelId/spotify/request-settings', {
    config: { access: settingsAccess },
    schema: { tags, params: channelParams, response: { 200: songRequestSettingsSchema, ...errorResponses } },
    handler: async (request) => songs.settings(request.params.channelId),
  });

  r.put('/api/2/channels/:channelId/spotify/request-settings', {
    config: { access: settingsAccess },
    schema: {
      tags,
      params: channelParams,
      body: songRequestSettingsSchema,
      response: { 200: songRequestSettingsSchema, ...errorResponses },
    },
    handler: async (request) => songs.saveSettings(request.params.channelId, request.body, actor(request)),
  });

  /** Live request changes (`spotify.request`) for the request queue page; answers `ping` with `pong`. */
  r.get(
    '/api/2/channels/:channelId/spotify/requests-ws',
    { config: { access: queueAccess }, schema: { tags, params: channelParams, hide: true }, websocket: true },
    (socket, request) => {
      const auth = requireAuth(request);
      const who = { channelId: request.params.channelId, user: auth.user, sessionId: auth.sessionId };
      channelEventSocket(deps, socket, { ...who, minLevel: abilityLevel('songs.queue') }, (event) =>
        event.type === 'spotify.request' ? event : undefined,
      );
    },
  );
}
