/** The 7TV/BTTV emotes of a channel (per connected platform, without duplicates) and the globals, for autocomplete. */
import { eq } from 'drizzle-orm';
import type { ThirdPartyEmoteItem } from '@greenroom/contracts/api/emotes';
import { channelProviderIdSchema } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channelProviders } from '../../db/schema';
import type { EmoteService } from '../../platforms/emotes/emote-service';

export class ChannelEmotesService {
  constructor(
    private readonly db: Db,
    private readonly emotes: Pick<EmoteService, 'channelEmotes' | 'globalEmotes'>,
  ) {}

  /** The channel's own emotes first (a name seen on one platform is not repeated), then the globals, each by name. */
  async list(channelId: string): Promise<ThirdPartyEmoteItem[]> {
    const rows = await this.db
      .select({ provider: channelProviders.provider, providerChannelId: channelProviders.providerChannelId })
      .from(channelProviders)
      .where(eq(channelProviders.channelId, channelId));
    const seen = new Set<string>();
    const own: ThirdPartyEmoteItem[] = [];
    for (const row of rows) {
      const provider = channelProviderIdSchema.safeParse(row.provider);
      if (!provider.success) continue;
      for (const e of await this.emotes.channelEmotes({ provider: provider.data, providerChannelId: row.providerChannelId })) {
        if (seen.has(e.name)) continue;
        seen.add(e.name);
        own.push({ ...e, scope: 'channel', provider: provider.data });
      }
    }
    const globals: ThirdPartyEmoteItem[] = (await this.emotes.globalEmotes())
      .filter((e) => !seen.has(e.name))
      .map((e) => ({ ...e, scope: 'global', provider: null }));
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    return [...own.sort(byName), ...globals.sort(byName)];
  }
}
