/**
 * The ingest pipeline: every adapter's normalised events → ids → dedupe (bounded) → third-party
 * emotes → the bus (`channel:<channelId>`) → an optional batched persistence sink (chat log).
 * The hot path does no database query and compiles nothing per message.
 */
import type { Activity, ChannelStreamEvent, ChatEmote, ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { EventBus } from '../lib/event-bus';
import { newId } from '../lib/ids';
import type { PlatformEvent } from './port';

/** Third-party emotes (7TV/BTTV) from cached sets; synchronous, loads in the background on a miss. */
export interface EmoteAnnotator {
  annotate(channel: { provider: ChannelProviderId; providerChannelId: string }, text: string, existing: ChatEmote[]): ChatEmote[];
}

/** Where ingested events are persisted (the chat log). Called with batches, in order. */
export interface ChatSink {
  write(events: ChannelStreamEvent[]): Promise<void>;
}

/** Which connection an event came from. */
export interface IngestSource {
  channelId: string;
  channelProviderId: string;
  provider: ChannelProviderId;
  providerChannelId: string;
}

/**
 * A set that forgets its oldest entries past `capacity`: a ring of keys beside a Set, so eviction
 * never iterates (iterating a Set from the front after many deletions walks their tombstones).
 */
export class BoundedSet {
  private readonly items = new Set<string>();
  private readonly ring: (string | undefined)[];
  private next = 0;

  constructor(private readonly capacity: number) {
    this.ring = new Array<string | undefined>(capacity);
  }

  /** Adds the key; false when it was already present. */
  add(key: string): boolean {
    if (this.items.has(key)) return false;
    const evicted = this.ring[this.next];
    if (evicted !== undefined) this.items.delete(evicted);
    this.ring[this.next] = key;
    this.next = (this.next + 1) % this.capacity;
    this.items.add(key);
    return true;
  }

  get size(): number {
    return this.items.size;
  }
}

export interface IngestOptions {
  bus: EventBus<{ type: string }>;
  emotes?: EmoteAnnotator | null;
  sink?: ChatSink | null;
  log: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  /** Ids remembered for dedupe (default 100,000). */
  dedupeCapacity?: number;
  /** Sink batching: flush at this many events or after this delay (defaults 500 / 250 ms). */
  batchSize?: number;
  batchDelayMs?: number;
  /** Events held for a slow sink before the oldest are dropped (default 50,000). */
  maxPending?: number;
}

export interface IngestStats {
  received: number;
  published: number;
  duplicates: number;
  sinkDropped: number;
}

export class IngestPipeline {
  private readonly seen: BoundedSet;
  private pending: ChannelStreamEvent[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  readonly stats: IngestStats = { received: 0, published: 0, duplicates: 0, sinkDropped: 0 };

  constructor(private readonly options: IngestOptions) {
    this.seen = new BoundedSet(options.dedupeCapacity ?? 100_000);
  }

  /** Plugs in the persistence sink (the chat-log feature) after start-up. */
  setSink(sink: ChatSink | null): void {
    this.options.sink = sink;
  }

  /** Plugs in third-party emotes (7TV/BTTV). */
  setEmotes(emotes: EmoteAnnotator | null): void {
    this.options.emotes = emotes;
  }

  /** Normalises one adapter event and fans it out; returns what was published, or null for a duplicate. */
  ingest(source: IngestSource, event: PlatformEvent): ChannelStreamEvent | null {
    this.stats.received++;
    const out = this.complete(source, event);
    if (out.type !== 'stream.status' && !this.seen.add(out.data.id)) {
      this.stats.duplicates++;
      return null;
    }
    this.options.bus.publish(`channel:${source.channelId}`, out);
    this.stats.published++;
    if (this.options.sink) this.enqueue(out);
    return out;
  }

  private complete(source: IngestSource, event: PlatformEvent): ChannelStreamEvent {
    const base = { channel_id: source.channelId, channel_provider_id: source.channelProviderId, provider: source.provider };
    switch (event.kind) {
      case 'chat': {
        const m = event.message;
        const emotes = this.options.emotes ? this.annotate(source, m.text, m.emotes) : m.emotes;
        const data: ChatMessage = { ...m, ...base, id: `${source.provider}:${m.provider_message_id}`, emotes };
        return { type: 'chat.message', data };
      }
      case 'moderation': {
        const e = event.event;
        const key = e.provider_message_id ?? `${e.kind}:${e.target?.provider_user_id ?? '*'}:${e.occurred_at}`;
        const data: ModerationEvent = { ...e, ...base, id: e.source === 'greenroom' ? newId() : `${source.provider}:mod:${e.kind}:${key}` };
        return { type: 'chat.moderation', data };
      }
      case 'activity': {
        const a = event.activity;
        const data: Activity = { ...a, ...base, id: `${source.provider}:${a.provider_event_id}` };
        return { type: 'activity', data };
      }
      case 'stream':
        return { type: 'stream.status', data: { ...event.status, live_stream_id: event.status.live_stream_id ?? null, ...base } };
    }
  }

  private annotate(source: IngestSource, text: string, existing: ChatEmote[]): ChatEmote[] {
    try {
      return this.options.emotes!.annotate({ provider: source.provider, providerChannelId: source.providerChannelId }, text, existing);
    } catch (error) {
      this.options.log.warn({ err: error }, 'emote annotation failed');
      return existing;
    }
  }

  private enqueue(event: ChannelStreamEvent): void {
    this.pending.push(event);
    const max = this.options.maxPending ?? 50_000;
    if (this.pending.length > max) {
      const dropped = this.pending.length - max;
      this.pending.splice(0, dropped);
      this.stats.sinkDropped += dropped;
    }
    if (this.pending.length >= (this.options.batchSize ?? 500)) void this.flush();
    else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush(), this.options.batchDelayMs ?? 250);
      this.flushTimer.unref();
    }
  }

  /** Writes everything pending to the sink (in order, one batch at a time). */
  flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    const sink = this.options.sink;
    if (!sink || this.pending.length === 0) return this.writing;
    const batch = this.pending;
    this.pending = [];
    this.writing = this.writing.then(() =>
      sink.write(batch).catch((error: unknown) => {
        this.options.log.error({ err: error, events: batch.length }, 'chat sink write failed');
      }),
    );
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
