import { urlResultSchema } from '@greenroom/contracts/api/user';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { api } from '../../../lib/api-client';

/** Landing page of the channel connect popup; it carries `#channel_provider_id=…`. */
export const CHANNEL_PROVIDER_CONNECTED_PATH = '/channel-provider-connected';

/** Where the platform sends the browser back: the landing page, told which channel (used when it is not a popup). */
export const channelLandingPath = (channelId: string) => `${CHANNEL_PROVIDER_CONNECTED_PATH}?channel_id=${encodeURIComponent(channelId)}`;

/**
 * The platform authorization URL that connects `provider` to the channel — as the broadcaster, or with `bot` as
 * the channel's own bot account. Fetched on demand by the connect flow, so it has no cache entry.
 */
export async function getChannelConnectUrl(channelId: string, provider: ChannelProviderId, bot: boolean): Promise<string> {
  const query = { redirect_to: channelLandingPath(channelId), channel_id: channelId, ...(bot ? { bot: 'true' } : {}) };
  const result = await api.get(`/api/2/${encodeURIComponent(provider)}/connect-chat-url`, { query, schema: urlResultSchema });
  return result.url;
}
