import type { QueryClient } from '@tanstack/react-query';
import type { ChannelProvider, ProviderUpdateMessage } from '@greenroom/contracts/api/channel-providers';
import { getChannelQueryOptions } from '../../api/get-channel';
import { getChannelProviderQueryOptions, getChannelProvidersQueryOptions } from '../../api/get-channel-providers';

/**
 * Applies a provider updates message to a cached list: "new" puts the item at the front, "updated"
 * replaces the item with the same id, "deleted" removes it. Applying the same message twice changes nothing
 * (a "new" for an id already listed replaces it; an "updated" for an id not listed — one the socket delivered
 * before the list loaded — is put at the front, so nothing is lost).
 */
export function applyToList(list: ChannelProvider[], message: ProviderUpdateMessage): ChannelProvider[] {
  const { action, data } = message;
  const index = list.findIndex((p) => p.id === data.id);
  switch (action) {
    case 'deleted':
      return index === -1 ? list : list.filter((p) => p.id !== data.id);
    case 'new':
      return [data, ...list.filter((p) => p.id !== data.id)];
    case 'updated':
      return index === -1 ? [data, ...list] : list.map((p, i) => (i === index ? data : p));
  }
}

/** Applies a message to the channel's cached list and to the cached single connection. */
export function applyProviderUpdate(queryClient: QueryClient, channelId: string, message: ProviderUpdateMessage): void {
  queryClient.setQueryData<ChannelProvider[]>(getChannelProvidersQueryOptions(channelId).queryKey, (list) =>
    list ? applyToList(list, message) : list,
  );
  if (message.action !== 'deleted')
    queryClient.setQueryData<ChannelProvider>(getChannelProviderQueryOptions(channelId, message.data.id).queryKey, message.data);
  // The channel itself lists its platforms (dashboard): refresh it when one comes or goes.
  if (message.action !== 'updated')
    void queryClient.invalidateQueries({ queryKey: getChannelQueryOptions(channelId).queryKey, exact: true });
}

/** The nav badge: the number of connections needing reconnect (own or bot account), or "none" when nothing is connected. */
export function reconnectNeeded(list: ChannelProvider[]): number | 'none' {
  if (list.length === 0) return 'none';
  return list.filter(needsReconnect).length;
}

/** "Reconnect needed": the connection's own scope, or its channel bot's. */
export function needsReconnect(p: ChannelProvider): boolean {
  return p.scope_needed || (p.bot_provider != null && !p.bot_provider.system && p.bot_provider.scope_needed);
}
