import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  rouletteSettingsResponseSchema,
  rouletteSettingsSchema,
  slotsSettingsResponseSchema,
  slotsSettingsSchema,
} from '@greenroom/contracts/api/games';
import { requireAuth } from '../../plugins/auth';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import type { GamesService } from './games-service';

export interface GamesRouteDeps {
  games: GamesService;
}

const channelParams = z.object({ channelId: z.string().max(64) });
const editor = { access: channelAccess('games.manage') };
const tags = ['games'];

/** Slots and roulette settings with their computed odds (Editors). */
export function gamesRoutes(app: FastifyInstance, deps: GamesRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { games } = deps;

  r.get('/api/2/channels/:channelId/games/slots', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: slotsSettingsResponseSchema, ...errorResponses } },
    handler: async (request) => games.slotsResponse(request.params.channelId),
  });
  r.put('/api/2/channels/:channelId/games/slots', {
    config: editor,
    schema: { tags, params: channelParams, body: slotsSettingsSchema, response: { 200: slotsSettingsResponseSchema, ...errorResponses } },
    handler: async (request) => games.saveSlots(request.params.channelId, request.body, requireAuth(request).user.id),
  });
  r.get('/api/2/channels/:channelId/games/roulette', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: rouletteSettingsResponseSchema, ...errorResponses } },
    handler: async (request) => games.rouletteResponse(request.params.channelId),
  });
  r.put('/api/2/channels/:channelId/games/roulette', {
    config: editor,
    schema: {
      tags,
      params: channelParams,
      body: rouletteSettingsSchema,
      response: { 200: rouletteSettingsResponseSchema, ...errorResponses },
    },
    handler: async (request) => games.saveRoulette(request.params.channelId, request.body, requireAuth(request).user.id),
  });
}
