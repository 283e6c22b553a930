/**
 * The unified chat's services, built once at start by createServices: the chat log
 * (store + batching writer + retention job), the staff fan-out hub, queries and sending. The
 * activity feed, viewer cards and the public popout are their own modules reading the chat log.
 */
import type { Db } from '../../db/client';
import type { EventBus } from '../../lib/event-bus';
import type { AuditRecorder } from '../audit';
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
  queries: ChatQueries;
  send: ChatSendService;
  /** Graceful shutdown: closes sockets, cancels the purge, writes what is queued. */
  close(): Promise<void>;
}

export function createChatServices(input: {
  db: Db;
  bus: EventBus<BusEvent>;
  retentionDays: number;
  log: ChatLog;
  actions: () => ChatActionsSource | null;
  audit: AuditRecorder;
}): ChatServices {
  const store = new ChatLogStore(input.db);
  const writer = new ChatLogWriter(store, { log: input.log });
  const retention = new RetentionJob(store, input.retentionDays, input.log);
  const staffHub = new FanoutHub(input.bus, staffEncoder);
  return {
    store,
    writer,
    retention,
    staffHub,
    queries: new ChatQueries(input.db),
    send: new ChatSendService(input.db, input.actions, input.log, input.audit),
    async close() {
      staffHub.closeAll();
      await retention.stop();
      await writer.close();
    },
  };
}
