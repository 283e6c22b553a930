/** `GET /api/2/channels/{channelId}/emotes`: the channel's 7TV/BTTV emotes (per connected platform) and the globals, for autocomplete. */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccessLevel } from '@greenroom/contracts/access';
import { channelEmotesSchema, type ThirdPartyEmoteItem } from '@greenroom/contracts/api/emotes';
import { channelProviderIdSchema } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders } from '../../db/schema';
import { errorResponses } from '../../lib/http';
import type { EmoteService } from '../../platforms/emotes/emote-service';

export interface EmoteRouteDeps {
  db: Db;
  emotes: EmoteService;
}

export function emoteRoutes(app: FastifyInstance, deps: EmoteRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/2/channels/:channelId/emotes', {
    config: { access: { channel: AccessLevel.MOD } },
    schema: {
      tags: ['chat'],
      params: z.object({ channelId: z.string().max(64) }),
      response: { 200: channelEmotesSchema, ...errorResponses },
    },
    handler: async (request) => {
      const rows = await deps.db
        .select({ provider: channelProviders.provider, providerChannelId: channelProviders.providerChannelId })
        .from(channelProviders)
        .where(eq(channelProviders.channelId, request.params.channelId));
      const seen = new Set<string>();
      const own: ThirdPartyEmoteItem[] = [];
      for (const row of rows) {
        const provider = channelProviderIdSchema.safeParse(row.provider);
        if (!provider.success) continue;
        for (const e of await deps.emotes.channelEmotes({ provider: provider.data, providerChannelId: row.providerChannelId })) {
          if (seen.has(e.name)) continue;
          seen.add(e.name);
          own.push({ ...e, scope: 'channel', provider: provider.data });
        }
      }
      const globals: ThirdPartyEmoteItem[] = (await deps.emotes.globalEmotes())
        .filter((e) => !seen.has(e.name))
        .map((e) => ({ ...e, scope: 'global', provider: null }));
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      return { emotes: [...own.sort(byName), ...globals.sort(byName)] };
    },
  });
}
