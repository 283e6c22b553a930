/**
 * The unified chat's services (issue 5), built once at start by createServices: the chat log
 * (store + batching writer + retention job), the staff and public fan-out hubs, queries, sending,
 * the activity feed and viewer cards.
 */
import type { Db } from '../../db/client';
import type { EventBus } from '../../lib/event-bus';
import type { AuditLogService } from '../audit/audit-log-service';
import { ActivityService } from '../activity/activity-service';
import { publicEncoder } from '../public-chat/public-encoder';
import { ConnectionLimiter } from '../public-chat/connection-limiter';
import { ViewerCardService } from '../viewers/viewer-card-service';
import { ChatLogStore } from './chat-log-store';
import { ChatLogWriter, RetentionJob } from './chat-log-writer';
import { ChatQueries } from './chat-queries';
import { ChatSendService, type ChatActionsSource } from './chat-send-service';
import { FanoutHub, type BusEvent } from './fanout-hub';
import { staffEncoder } from './staff-encoder';

export interface ChatLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ChatServices {
  store: ChatLogStore;
  /** The ingest pipeline's ChatSink (batched, bounded); also takes events published outside ingest. */
  writer: ChatLogWriter;
  retention: RetentionJob;
  staffHub: FanoutHub;
  publicHub: FanoutHub;
  publicConnections: ConnectionLimiter;
  queries: ChatQueries;
  send: ChatSendService;
  activity: ActivityService;
  viewerCards: ViewerCardService;
  /** Graceful shutdown: closes sockets, cancels the purge, writes what is queued. */
  close(): Promise<void>;
}

export function createChatServices(input: {
  db: Db;
  bus: EventBus<BusEvent>;
  retentionDays: number;
  log: ChatLog;
  actions: () => ChatActionsSource | null;
  audit: AuditLogService;
}): ChatServices {
  const store = new ChatLogStore(input.db);
  const writer = new ChatLogWriter(store, { log: input.log });
  const retention = new RetentionJob(store, input.retentionDays, input.log);
  const staffHub = new FanoutHub(input.bus, staffEncoder);
  const publicHub = new FanoutHub(input.bus, publicEncoder());
  return {
    store,
    writer,
    retention,
    staffHub,
    publicHub,
    publicConnections: new ConnectionLimiter({ perIp: 20 }),
    queries: new ChatQueries(input.db),
    send: new ChatSendService(input.db, input.actions, input.log, input.audit),
    activity: new ActivityService(input.db, input.bus),
    viewerCards: new ViewerCardService(input.db),
    async close() {
      staffHub.closeAll();
      publicHub.closeAll();
      await retention.stop();
      await writer.close();
    },
  };
}
