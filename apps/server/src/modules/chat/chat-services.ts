/**
 * The unified chat's services, built once at start by createServices: retention of the chat log
 * (written by the ingest pipeline, pipeline/), the staff fan-out hub, queries and sending. The
 * activity feed, viewer cards and the public popout are their own modules reading the chat log.
 */
import type { Db } from '../../db/client';
import type { EventBus } from '../../lib/event-bus';
import type { AuditRecorder } from '../audit';
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
  queries: ChatQueries;
  send: ChatSendService;
  /** Graceful shutdown: closes sockets, cancels the purge. */
  close(): Promise<void>;
}

export function createChatServices(input: {
  db: Db;
  bus: EventBus;
  retentionDays: number;
  log: ChatLog;
  actions: () => ChatActionsSource | null;
  audit: AuditRecorder;
}): ChatServices {
  const purge = new ChatRetention(input.db);
  const retention = new RetentionJob(purge, input.retentionDays, input.log);
  const staffHub = new FanoutHub(input.bus, staffEncoder);
  return {
    retention,
    purge,
    staffHub,
    queries: new ChatQueries(input.db),
    send: new ChatSendService(input.db, input.actions, input.log, input.audit),
    async close() {
      staffHub.closeAll();
      await retention.stop();
    },
  };
}
