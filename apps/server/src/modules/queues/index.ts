/** The queues module: one viewer line across platforms (`!join` …), the staff's live page and its API. */
export { queueRoutes, type QueueRouteDeps } from './routes';
export { QueueService, type QueueEvent, type QueueServiceDeps } from './queue-service';
export { QueueRepository } from './queue-repository';
export { queueBuiltins } from './builtins';
