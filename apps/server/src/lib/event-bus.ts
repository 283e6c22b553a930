/**
 * The one event bus: features publish `BusEvent`s (the versioned union in
 * `@greenroom/contracts/bus`) on a topic — `channel:<id>` or `user:<id>` — and websockets, the
 * chatbot and other features subscribe. In-process here; a Redis implementation with the same
 * interface will carry the same envelopes between instances.
 *
 * A subscriber that throws never reaches the publisher or the other subscribers: the error is
 * caught, logged with the event type and topic, and counted (`stats.handlerErrors`).
 */
import type { BusEvent, BusTopic } from '@greenroom/contracts/bus';

export type { BusEvent, BusTopic } from '@greenroom/contracts/bus';
export type Unsubscribe = () => void;
export type BusHandler = (event: BusEvent) => void;

export interface EventBusStats {
  published: number;
  delivered: number;
  handlerErrors: number;
}

export interface EventBus {
  publish(topic: BusTopic, event: BusEvent): void;
  subscribe(topic: BusTopic, handler: BusHandler): Unsubscribe;
  readonly stats: EventBusStats;
  close(): Promise<void>;
}

export interface BusLog {
  error(obj: object, msg?: string): void;
}

export class LocalEventBus implements EventBus {
  private readonly topics = new Map<string, Set<BusHandler>>();
  readonly stats: EventBusStats = { published: 0, delivered: 0, handlerErrors: 0 };

  constructor(private readonly log: BusLog = { error: (obj, msg) => console.error(msg, obj) }) {}

  publish(topic: BusTopic, event: BusEvent): void {
    this.stats.published++;
    const handlers = this.topics.get(topic);
    if (!handlers) return;
    for (const handler of handlers) {
      this.stats.delivered++;
      try {
        handler(event);
      } catch (error) {
        this.stats.handlerErrors++;
        try {
          this.log.error({ err: error, eventType: event.type, topic }, 'bus subscriber failed');
        } catch {
          // A broken logger must not take the publisher down either.
        }
      }
    }
  }

  subscribe(topic: BusTopic, handler: BusHandler): Unsubscribe {
    let handlers = this.topics.get(topic);
    if (!handlers) this.topics.set(topic, (handlers = new Set()));
    handlers.add(handler);
    return () => {
      handlers.delete(handler);
      if (handlers.size === 0 && this.topics.get(topic) === handlers) this.topics.delete(topic);
    };
  }

  async close(): Promise<void> {
    this.topics.clear();
  }
}
