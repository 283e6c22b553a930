import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { needsReconnect } from '../../api/get-channel-providers';

export { needsReconnect };

/** The nav badge: the number of connections needing reconnect (own or bot account), or "none" when nothing is connected. */
export function reconnectNeeded(list: ChannelProvider[]): number | 'none' {
  if (list.length === 0) return 'none';
  return list.filter(needsReconnect).length;
}
