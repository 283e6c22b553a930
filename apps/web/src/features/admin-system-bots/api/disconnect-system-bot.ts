import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SystemBotProvider } from '@greenroom/contracts/api/system-bots';
import type { ProviderId } from '@greenroom/contracts/providers';
import { api } from '../../../lib/api-client';
import { getSystemBotsQueryOptions } from './get-system-bots';

export function disconnectSystemBot(provider: ProviderId): Promise<void> {
  return api.delete(`/api/2/system-bot-providers/${encodeURIComponent(provider)}`);
}

/** Disconnects a system bot: it leaves the cache at once, then the list refreshes. */
export function useDisconnectSystemBot() {
  const queryClient = useQueryClient();
  const { queryKey } = getSystemBotsQueryOptions();
  return useMutation({
    mutationFn: disconnectSystemBot,
    onSuccess: async (_result, provider) => {
      queryClient.setQueryData<SystemBotProvider[]>(queryKey, (list) => list?.filter((bot) => bot.provider !== provider));
      await queryClient.invalidateQueries({ queryKey });
    },
  });
}
