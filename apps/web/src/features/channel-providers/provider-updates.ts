import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';

/** The nav badge: the number of connections needing reconnect (own or bot account), or "none" when nothing is connected. */
export function reconnectNeeded(list: ChannelProvider[]): number | 'none' {
  if (list.length === 0) return 'none';
  return list.filter(needsReconnect).length;
}

/** "Reconnect needed": the connection's own scope, or its channel bot's. */
export function needsReconnect(p: ChannelProvider): boolean {
  return p.scope_needed || (p.bot_provider != null && !p.bot_provider.system && p.bot_provider.scope_needed);
}
