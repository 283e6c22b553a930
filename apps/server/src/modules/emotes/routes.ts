/** `GET /api/2/channels/{channelId}/emotes`: the channel's 7TV/BTTV emotes (per connected platform) and the globals, for autocomplete. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelEmotesSchema } from '@greenroom/contracts/api/emotes';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import type { ChannelEmotesService } from './channel-emotes-service';

export interface EmoteRouteDeps {
  channelEmotes: ChannelEmotesService;
}

export function emoteRoutes(app: FastifyInstance, deps: EmoteRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/channels/:channelId/emotes', {
    config: { access: channelAccess('chat.moderate') },
    schema: {
      tags: ['chat'],
      params: z.object({ channelId: z.string().max(64) }),
      response: { 200: channelEmotesSchema, ...errorResponses },
    },
    handler: async (request) => ({ emotes: await deps.channelEmotes.list(request.params.channelId) }),
  });
}
