/**
 * The read-only chat popout for OBS: its own fan-out hub (public message fields only, removals as ids), a
 * per-address connection limit, and the recent lines read from the chat log.
 */
import { eq } from 'drizzle-orm';
import type { PublicChatMessage } from '@greenroom/contracts/api/chat';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../../db/client';
import { channels } from '../../db/schema';
import type { EventBus } from '../../lib/event-bus';
import { FanoutHub, type BusEvent, type ChatQueries } from '../chat';
import { ConnectionLimiter } from './connection-limiter';
import { publicEncoder } from './public-encoder';

export interface PublicChatServices {
  hub: FanoutHub;
  connections: ConnectionLimiter;
  channelExists(channelId: string): Promise<boolean>;
  recent(channelId: string, providers: ChannelProviderId[] | null): Promise<PublicChatMessage[]>;
  /** Shutdown: closes the popout sockets. */
  close(): void;
}

export function createPublicChatServices(input: {
  db: Db;
  bus: EventBus<BusEvent>;
  queries: Pick<ChatQueries, 'publicRecent'>;
}): PublicChatServices {
  const hub = new FanoutHub(input.bus, publicEncoder());
  return {
    hub,
    connections: new ConnectionLimiter({ perIp: 20 }),
    async channelExists(channelId) {
      return (await input.db.select({ id: channels.id }).from(channels).where(eq(channels.id, channelId)).limit(1)).length > 0;
    },
    recent: (channelId, providers) => input.queries.publicRecent(channelId, providers, 50),
    close: () => hub.closeAll(),
  };
}
