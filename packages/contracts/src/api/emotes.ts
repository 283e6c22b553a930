import { z } from 'zod';
import { channelProviderIdSchema } from '../providers';

/** A 7TV or BetterTTV emote usable in a channel's chat (autocomplete in the chat UI). */
export const thirdPartyEmoteSchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.enum(['7tv', 'betterttv']),
  url: z.string(),
  animated: z.boolean(),
  /** `channel`: the channel's own set on that platform; `global`: 7TV/BTTV global emotes. */
  scope: z.enum(['channel', 'global']),
  /** The connected platform whose set holds it (null for globals). */
  provider: channelProviderIdSchema.nullable(),
});
export type ThirdPartyEmoteItem = z.infer<typeof thirdPartyEmoteSchema>;

/** GET /api/2/channels/{channelId}/emotes */
export const channelEmotesSchema = z.object({ emotes: z.array(thirdPartyEmoteSchema) });
export type ChannelEmotes = z.infer<typeof channelEmotesSchema>;
