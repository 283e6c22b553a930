import { urlResultSchema } from '@greenroom/contracts/api/user';
import type { ProviderId } from '@greenroom/contracts/providers';
import { api } from '../../../lib/api-client';

/** The landing page of the connect popup. */
export const USER_PROVIDER_CONNECTED_PATH = '/user-provider-connected';

/**
 * The platform authorization URL that links `provider` to the signed-in user; after consent the browser ends on
 * `redirectTo` with `#user_provider_id=…`. Called on demand by the connect flow, so it has no query cache entry.
 */
export async function getConnectUrl(provider: ProviderId, redirectTo: string = USER_PROVIDER_CONNECTED_PATH): Promise<string> {
  const result = await api.get(`/api/2/${encodeURIComponent(provider)}/connect-chat-url`, {
    query: { redirect_to: redirectTo },
    schema: urlResultSchema,
  });
  return result.url;
}
