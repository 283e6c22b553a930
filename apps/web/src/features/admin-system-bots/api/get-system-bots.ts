import { queryOptions, useQuery } from '@tanstack/react-query';
import { systemBotProviderListSchema, type SystemBotProvider } from '@greenroom/contracts/api/system-bots';
import { api } from '../../../lib/api-client';

export function getSystemBots(signal?: AbortSignal): Promise<SystemBotProvider[]> {
  return api.get('/api/2/system-bot-providers', { schema: systemBotProviderListSchema, signal });
}

export function getSystemBotsQueryOptions() {
  // A non-operator gets 403: the admin layout already shows "You do not have access".
  return queryOptions({
    queryKey: ['admin', 'system-bot-providers'],
    queryFn: ({ signal }) => getSystemBots(signal),
    meta: { errorToast: [403] },
  });
}

/** Connected system bots (operators only). */
export function useSystemBots() {
  return useQuery(getSystemBotsQueryOptions());
}
