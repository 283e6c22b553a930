/**
 * The event bus across instances: every event is delivered to this instance's subscribers at once (as the
 * in-process bus does) and published on Redis (`gr:bus:<topic>`), where the instances with subscribers of that topic
 * receive it. An instance subscribes to a topic on Redis only while it has a subscriber of it, so a channel's events
 * reach only the instances with sockets (or jobs) of that channel. Events of one publisher arrive in the order
 * published. While Redis is unreachable events stay on their instance (counted in `stats.unshared`); staff sockets
 * on other instances catch up with `?after=` when they reconnect.
 */
import { decodeBusEnvelope, encodeBusEnvelope } from '@greenroom/contracts/bus';
import {
  LocalEventBus,
  type BusHandler,
  type BusLog,
  type BusTopic,
  type EventBus,
  type EventBusStats,
  type Unsubscribe,
} from '../lib/event-bus';
import type { BusEvent } from '../lib/event-bus';
import type { RedisLink } from './redis-link';

const PREFIX = 'gr:bus:';

export interface RedisBusStats extends EventBusStats {
  /** Events received from other instances. */
  received: number;
  /** Events that could not be shared (Redis unreachable, a failed PUBLISH). */
  unshared: number;
  /** Envelopes from other instances this one could not read (another version, malformed). */
  unreadable: number;
}

export class RedisEventBus implements EventBus {
  private readonly local: LocalEventBus;
  private readonly counts = new Map<string, number>();
  private readonly extra = { received: 0, unshared: 0, unreadable: 0 };

  constructor(
    private readonly link: RedisLink,
    private readonly instanceId: string,
    private readonly log: BusLog & { warn(obj: object, msg?: string): void },
  ) {
    this.local = new LocalEventBus(log);
    link.sub.on('message', (channel: string, raw: string) => this.receive(channel, raw));
  }

  get stats(): RedisBusStats {
    return Object.assign({}, this.local.stats, this.extra);
  }

  publish(topic: BusTopic, event: BusEvent): void {
    this.local.publish(topic, event);
    if (!this.link.up) {
      this.extra.unshared++;
      return;
    }
    this.link.cmd.publish(PREFIX + topic, `${this.instanceId}\n${encodeBusEnvelope(topic, event)}`).catch(() => {
      this.extra.unshared++;
    });
  }

  subscribe(topic: BusTopic, handler: BusHandler): Unsubscribe {
    const off = this.local.subscribe(topic, handler);
    const n = (this.counts.get(topic) ?? 0) + 1;
    this.counts.set(topic, n);
    if (n === 1)
      this.link.sub.subscribe(PREFIX + topic).catch((error: unknown) => this.log.warn({ err: error, topic }, 'Redis subscribe failed'));
    let done = false;
    return () => {
      if (done) return;
      done = true;
      off();
      const left = (this.counts.get(topic) ?? 1) - 1;
      if (left > 0) {
        this.counts.set(topic, left);
        return;
      }
      this.counts.delete(topic);
      this.link.sub.unsubscribe(PREFIX + topic).catch(() => undefined);
    };
  }

  private receive(channel: string, raw: string): void {
    if (!channel.startsWith(PREFIX)) return;
    const cut = raw.indexOf('\n');
    if (cut < 0 || raw.slice(0, cut) === this.instanceId) return;
    const decoded = decodeBusEnvelope(raw.slice(cut + 1));
    if (!decoded || PREFIX + decoded.topic !== channel) {
      this.extra.unreadable++;
      return;
    }
    this.extra.received++;
    this.local.publish(decoded.topic, decoded.event);
  }

  async close(): Promise<void> {
    await this.local.close();
    this.counts.clear();
  }
}
