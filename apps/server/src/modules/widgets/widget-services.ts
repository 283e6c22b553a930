import type { Db } from '../../db/client';
import type { TokenCipher } from '../../lib/crypto';
import type { EventBus } from '../../lib/event-bus';
import type { ChatQueries } from '../chat';
import { connectionCap, publicEncoder, type ConnectionCap, type SharedCaps } from '../public-chat';
import { WidgetMediaService } from './media-service';
import { WidgetHub } from './widget-hub';
import { WidgetService, type WidgetLoyaltySource, type WidgetSpotifySource } from './widget-service';

export interface WidgetServices {
  service: WidgetService;
  /** Uploaded alert images, GIFs and sounds. */
  media: WidgetMediaService;
  hub: WidgetHub;
  /** Open widget pages per client address (a streamer's OBS has a handful). */
  connections: ConnectionCap;
  /** Shutdown: closes the widget pages' sockets (they reconnect to the next server). */
  close(): void;
}

export function createWidgetServices(input: {
  db: Db;
  cipher: TokenCipher;
  bus: EventBus;
  chat: Pick<ChatQueries, 'publicRecent'>;
  loyalty: WidgetLoyaltySource;
  spotify: WidgetSpotifySource;
  /** Several instances: the per-address cap counted in Redis. */
  sharedCaps?: SharedCaps;
}): WidgetServices {
  const hub = new WidgetHub(input.bus, publicEncoder());
  return {
    service: new WidgetService({ ...input, hub }),
    media: new WidgetMediaService(input.db),
    hub,
    connections: connectionCap('widget', 60, input.sharedCaps),
    close: () => hub.closeAll(),
  };
}
