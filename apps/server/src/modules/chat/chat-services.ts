/**
 * The unified chat's services, built once at start by createServices: retention of the chat log
 * (written by the ingest pipeline, pipeline/), the staff and public fan-out hubs, queries, sending,
 * the activity feed and viewer cards.
 */
import type { Db } from '../../db/client';
import type { EventBus } from '../../lib/event-bus';
import { ActivityService } from '../activity/activity-service';
import { publicEncoder } from '../public-chat/public-encoder';
import { ConnectionLimiter } from '../public-chat/connection-limiter';
import { ViewerCardService } from '../viewers/viewer-card-service';
import { ChatQueries } from './chat-queries';
import { ChatSendService, type ChatActionsSource } from './chat-send-service';
import { FanoutHub } from './fanout-hub';
import { ChatRetention, RetentionJob } from './retention';
import { staffEncoder } from './staff-encoder';

export interface ChatLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ChatServices {
  retention: RetentionJob;
  purge: ChatRetention;
  staffHub: FanoutHub;
  publicHub: FanoutHub;
  publicConnections: ConnectionLimiter;
  queries: ChatQueries;
  send: ChatSendService;
  activity: ActivityService;
  viewerCards: ViewerCardService;
  /** Graceful shutdown: closes sockets, cancels the purge. */
  close(): Promise<void>;
}

export function createChatServices(input: {
  db: Db;
  bus: EventBus;
  retentionDays: number;
  log: ChatLog;
  actions: () => ChatActionsSource | null;
}): ChatServices {
  const purge = new ChatRetention(input.db);
  const retention = new RetentionJob(purge, input.retentionDays, input.log);
  const staffHub = new FanoutHub(input.bus, staffEncoder);
  const publicHub = new FanoutHub(input.bus, publicEncoder());
  return {
    retention,
    purge,
    staffHub,
    publicHub,
    publicConnections: new ConnectionLimiter({ perIp: 20 }),
    queries: new ChatQueries(input.db),
    send: new ChatSendService(input.db, input.actions, input.log),
    activity: new ActivityService(input.db, input.bus),
    viewerCards: new ViewerCardService(input.db),
    async close() {
      staffHub.closeAll();
      publicHub.closeAll();
      await retention.stop();
    },
  };
}
