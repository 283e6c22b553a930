/**
 * The one event bus. Features publish domain events (chat messages, moderation, provider updates,
 * activity) on a topic, usually `channel:<id>`; websockets and later the chatbot subscribe.
 * In-process here; a Redis-backed implementation with the same interface spans instances.
 */
export type Unsubscribe = () => void;

export interface EventBus<E extends { type: string }> {
  publish(topic: string, event: E): void;
  subscribe(topic: string, handler: (event: E) => void): Unsubscribe;
  close(): Promise<void>;
}

export class LocalEventBus<E extends { type: string }> implements EventBus<E> {
  private readonly topics = new Map<string, Set<(event: E) => void>>();

  publish(topic: string, event: E): void {
    const handlers = this.topics.get(topic);
    if (!handlers) return;
    for (const handler of handlers) {
      try {
        handler(event);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  subscribe(topic: string, handler: (event: E) => void): Unsubscribe {
    let handlers = this.topics.get(topic);
    if (!handlers) this.topics.set(topic, (handlers = new Set()));
    handlers.add(handler);
    return () => {
      handlers.delete(handler);
      if (handlers.size === 0) this.topics.delete(topic);
    };
  }

  async close(): Promise<void> {
    this.topics.clear();
  }
}
