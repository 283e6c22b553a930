import { urlResultSchema } from '@greenroom/contracts/api/user';
import type { ProviderId } from '@greenroom/contracts/providers';
import { api } from '../../../lib/api-client';

/** The platform authorization URL that connects `provider`'s system bot; the browser ends on `redirectTo#system_bot_provider=…`. */
export async function getSystemBotConnectUrl(provider: ProviderId, redirectTo: string): Promise<string> {
  const result = await api.get(`/api/2/${encodeURIComponent(provider)}/connect-chat-url`, {
    query: { redirect_to: redirectTo, system_bot: 'true' },
    schema: urlResultSchema,
  });
  return result.url;
}
