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
import { FanoutHub, type ChatQueries } from '../chat';
import { connectionCap, type ConnectionCap, type SharedCaps } from './connection-limiter';
import { publicEncoder } from './public-encoder';

export interface PublicChatServices {
  hub: FanoutHub;
  connections: ConnectionCap;
  channelExists(channelId: string): Promise<boolean>;
  /** The last 50 lines, or with `after` those stored after that position (a reconnect's catch-up). */
  recent(
    channelId: string,
    providers: ChannelProviderId[] | null,
    after?: string,
  ): Promise<{ records: PublicChatMessage[]; head: string | null }>;
  /** Shutdown: closes the popout sockets. */
  close(): void;
}

export function createPublicChatServices(input: {
  db: Db;
  bus: EventBus;
  queries: Pick<ChatQueries, 'publicRecent'>;
  /** Several instances: the per-address cap counted in Redis. */
  sharedCaps?: SharedCaps;
}): PublicChatServices {
  const hub = new FanoutHub(input.bus, publicEncoder());
  return {
    hub,
    connections: connectionCap('popout', 20, input.sharedCaps),
    async channelExists(channelId) {
      return (await input.db.select({ id: channels.id }).from(channels).where(eq(channels.id, channelId)).limit(1)).length > 0;
    },
    recent: (channelId, providers, after) =>
      input.queries.publicRecent(channelId, providers, { limit: 50, ...(after !== undefined ? { after } : {}) }),
    close: () => hub.closeAll(),
  };
}
