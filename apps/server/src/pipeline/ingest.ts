/**
 * The ingest pipeline: every platform connection's events, and Greenroom's own chat events, go
 * through it exactly once, on the instance that holds the channel:
 *
 *   normalise → ids, `is_self` → dedupe → third-party emotes → moderation stages → command stages
 *     → persist (group commit, with effects and connection state) → publish (bus) → effects run
 *
 * Accepted means durable: nothing is published, acknowledged to a platform (the promise `submit`
 * returns) or handed to an effect before the transaction holding it committed. Stages run before
 * the commit (they are synchronous and do no I/O) so their verdicts and effects are stored with the
 * message. See stage.ts for the stage contract and chat-log-writer.ts for the group commit.
 *
 * The hot path does no database query and compiles nothing per message.
 */
import { AccessLevel, type AccessLevelValue } from '@greenroom/contracts/access';
import type {
  Activity,
  ChatEmote,
  ChatGap,
  ChatIngestStatus,
  ChatMessage,
  ChatRoles,
  ModerationEvent,
} from '@greenroom/contracts/api/events';
import type { BusEvent } from '@greenroom/contracts/bus';
import { channelTopic } from '@greenroom/contracts/bus';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { Db } from '../db/client';
import type { EventBus } from '../lib/event-bus';
import { newId } from '../lib/ids';
import type { PlatformChatMessage, PlatformEvent } from '../platforms/port';
import { BoundedSet } from '../lib/bounded-set';
import { ChatLogStore, rowKey, type WriteBatch, type WriteResult } from './chat-log-store';
import { ChatLogWriter, IngestBusyError, type ChatLogWriterOptions, type WriteItem, type WriterStatus } from './chat-log-writer';
import { normaliseEvent } from './normalise';
import { EffectOutbox, type OutboxOptions } from './outbox';
import { SelfMarker } from './self-marker';
import type { ChatStage, EffectHandler } from './stage';
import { StageRunner } from './stage-runner';

export { IngestBusyError } from './chat-log-writer';

/** Third-party emotes (7TV/BTTV) from cached sets; synchronous, loads in the background on a miss. */
export interface EmoteAnnotator {
  annotate(channel: { provider: ChannelProviderId; providerChannelId: string }, text: string, existing: ChatEmote[]): ChatEmote[];
}

/** Which connection an event came from. */
export interface IngestSource {
  channelId: string;
  channelProviderId: string;
  provider: ChannelProviderId;
  providerChannelId: string;
  /** The connection's bot account (the channel's own bot or the system bot): its messages are Greenroom's own. */
  botUserId?: string | null;
}

export interface SubmitOptions {
  /** Connection state to store in the same transaction (e.g. YouTube's next page token). */
  state?: Record<string, unknown>;
  /**
   * The platform delivers these events again if they are refused (Kick retries a webhook answered
   * 5xx; YouTube polls the same page token again). They are refused — the promise rejects with
   * IngestBusyError — rather than held while the database refuses writes. Others (Twitch EventSub)
   * are held up to the writer's bound; past it they are counted as lost and reported.
   */
  retryable?: boolean;
}

export interface IngestLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface IngestOptions {
  db: Db;
  bus: EventBus;
  emotes?: EmoteAnnotator | null;
  log: IngestLog;
  /** Stored ids remembered for dedupe (default 100,000). */
  dedupeCapacity?: number;
  writer?: Omit<ChatLogWriterOptions, 'log' | 'onStatus'>;
  outbox?: Omit<OutboxOptions, 'log'>;
}

export interface IngestStats {
  received: number;
  published: number;
  duplicates: number;
  /** Events refused with IngestBusyError (their platform delivers them again). */
  refused: number;
  /** Events Greenroom received but could not hold (see SubmitOptions.retryable). */
  lost: number;
}

/** The author's audience level from the platform's roles (stage.ts). */
export function audienceOf(roles: ChatRoles): AccessLevelValue {
  if (roles.broadcaster) return AccessLevel.OWNER;
  if (roles.moderator) return AccessLevel.MOD;
  if (roles.vip) return AccessLevel.VIP;
  if (roles.subscriber || roles.member) return AccessLevel.SUB;
  return AccessLevel.PUBLIC;
}

/**
 * The stored and published message, built field by field in the contract's order: every message
 * then shares one object shape (about a quarter of the memory of spreading the platform's object and
 * adding fields, which matters for what is held while the database is away), serialises on the fast
 * path, and carries nothing an adapter may have added beyond the contract.
 */
function chatMessage(source: IngestSource, id: string, m: PlatformChatMessage, isSelf: boolean, emotes: ChatEmote[]): ChatMessage {
  const a = m.author;
  return {
    id,
    channel_id: source.channelId,
    channel_provider_id: source.channelProviderId,
    provider: source.provider,
    provider_message_id: m.provider_message_id,
    author: {
      provider_user_id: a.provider_user_id,
      login: a.login,
      display_name: a.display_name,
      color: a.color,
      avatar_url: a.avatar_url,
      badges: a.badges,
      roles: a.roles,
      is_self: isSelf,
    },
    text: m.text,
    emotes,
    reply: m.reply,
    mentions: m.mentions,
    highlight: m.highlight,
    sent_at: m.sent_at,
    deleted: m.deleted,
    filtered: null,
  };
}

/**
 * One submitted delivery waiting for its commit: the writer's item and the promise `submit` returned.
 * A class rather than closures, as tens of thousands may be held while the database is away. Only a
 * retryable delivery's promise ever rejects (its platform delivers it again); its caller awaits it.
 */
class Delivery implements WriteItem {
  readonly promise: Promise<void>;
  private resolve!: () => void;
  private reject!: (error: Error) => void;
  private settled = false;

  constructor(
    private readonly owner: IngestPipeline,
    readonly source: IngestSource,
    readonly batch: WriteBatch,
    readonly rows: number,
    readonly retryable: boolean,
    readonly keys: string[],
    readonly streams: BusEvent[],
  ) {
    this.promise = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  committed(result: WriteResult): void {
    if (this.settled) return;
    this.settled = true;
    this.owner.settle(this, result);
    this.resolve();
  }

  abandoned(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.owner.drop(this);
    if (this.retryable) this.reject(new IngestBusyError(error.message));
    else this.resolve();
  }
}

interface Loss {
  source: IngestSource;
  count: number;
  first: number;
  last: number;
  reported: number;
}

const LOSS_LOG_EVERY_MS = 10_000;

export class IngestPipeline {
  readonly writer: ChatLogWriter;
  readonly outbox: EffectOutbox;
  readonly stages: StageRunner;
  readonly self = new SelfMarker();
  /** Keys (`channelId\0id`) stored already. */
  private readonly seen: BoundedSet;
  /** Keys waiting for their commit → that commit. */
  private readonly pending = new Map<string, Promise<void>>();
  private readonly losses = new Map<string, Loss>();
  private lastLossLog = 0;
  /** Channels with chat recently, told when the chat log is delayed. */
  private readonly recentChannels = new Map<string, number>();
  private lossesSinceLog = 0;
  private lossTimer: NodeJS.Timeout | null = null;
  private readonly store: ChatLogStore;
  readonly stats: IngestStats = { received: 0, published: 0, duplicates: 0, refused: 0, lost: 0 };

  constructor(private readonly options: IngestOptions) {
    this.seen = new BoundedSet(options.dedupeCapacity ?? 100_000);
    this.stages = new StageRunner(options.log);
    this.store = new ChatLogStore(options.db);
    this.writer = new ChatLogWriter(this.store, {
      ...options.writer,
      log: options.log,
      onStatus: (status) => this.writerStatus(status),
    });
    this.outbox = new EffectOutbox(options.db, { ...options.outbox, log: options.log });
  }

  /** Adds a stage (at construction of the feature that owns it; see stage.ts). */
  addStage(stage: ChatStage): void {
    this.stages.add(stage);
  }

  /**
   * Adds the handler of one effect kind (see stage.ts and outbox.ts): applied in the commit when it
   * can be, and run from the outbox for what is stored there.
   */
  addEffectHandler(handler: EffectHandler): void {
    this.outbox.addHandler(handler);
    this.store.applyInStatement(handler);
  }

  /** Starts running stored effects (after every feature registered its handlers). */
  start(): Promise<void> {
    return this.outbox.start();
  }

  /**
   * Takes a connection's events. Resolves once they are stored and published (duplicates: once
   * their first copy is); see SubmitOptions for what happens when the chat log cannot take them.
   */
  submit(source: IngestSource, events: readonly PlatformEvent[], options: SubmitOptions = {}): Promise<void> {
    const now = Date.now();
    this.stats.received += events.length;
    const retryable = options.retryable ?? false;
    if (!this.writer.accepts(events.length, retryable)) return this.refuse(source, events.length, retryable, now);
    this.recentChannels.set(source.channelId, now);
    const nowIso = new Date(now).toISOString();
    const batch: WriteBatch = { messages: [], moderation: [], activities: [], gaps: [], effects: [], states: [] };
    const streams: BusEvent[] = [];
    const keys: string[] = [];
    let waits: Promise<void>[] | null = null;
    const base = { channel_id: source.channelId, channel_provider_id: source.channelProviderId, provider: source.provider };

    for (const raw of events) {
      const event = normaliseEvent(raw, nowIso);
      switch (event.kind) {
        case 'chat': {
          const m = event.message;
          const id = `${source.provider}:${m.provider_message_id}`;
          const key = rowKey(source.channelId, id);
          const wait = this.duplicate(key);
          if (wait !== null) {
            if (wait !== true) (waits ??= []).push(wait);
            continue;
          }
          const isSelf = this.self.isSelf(
            source.channelProviderId,
            source.botUserId ?? null,
            m.author.provider_user_id,
            m.provider_message_id,
            m.text,
          );
          const message = chatMessage(source, id, m, isSelf, this.options.emotes ? this.annotate(source, m.text, m.emotes) : m.emotes);
          if (this.stages.size > 0) {
            const outcome = this.stages.onMessage({ message, audience: audienceOf(m.author.roles), isSelf, now });
            if (outcome.filter) message.filtered = outcome.filter;
            for (const effect of outcome.effects) batch.effects.push({ effect, sourceId: id });
          }
          batch.messages.push(message);
          keys.push(key);
          break;
        }
        case 'activity': {
          const a = event.activity;
          const id = `${source.provider}:${a.provider_event_id}`;
          const key = rowKey(source.channelId, id);
          const wait = this.duplicate(key);
          if (wait !== null) {
            if (wait !== true) (waits ??= []).push(wait);
            continue;
          }
          const activity: Activity = { ...a, ...base, id };
          for (const effect of this.stages.onActivity(activity, now)) batch.effects.push({ effect, sourceId: id });
          batch.activities.push(activity);
          keys.push(key);
          break;
        }
        case 'moderation': {
          const e = event.event;
          const natural = e.provider_message_id ?? `${e.kind}:${e.target?.provider_user_id ?? '*'}:${e.occurred_at}`;
          const id = e.source === 'greenroom' ? newId() : `${source.provider}:mod:${e.kind}:${natural}`;
          const key = rowKey(source.channelId, id);
          const wait = this.duplicate(key);
          if (wait !== null) {
            if (wait !== true) (waits ??= []).push(wait);
            continue;
          }
          const moderation: ModerationEvent = { ...e, ...base, id };
          batch.moderation.push(moderation);
          keys.push(key);
          break;
        }
        case 'stream':
          streams.push({
            type: 'stream.status',
            data: { ...event.status, live_stream_id: event.status.live_stream_id ?? null, ...base },
          });
          break;
      }
    }
    if (options.state) batch.states.push({ channelProviderId: source.channelProviderId, patch: options.state });

    const rows = batch.messages.length + batch.activities.length + batch.moderation.length;
    if (rows === 0 && batch.states.length === 0) {
      // Nothing to store (stream status, duplicates): published at once, in order with what came before.
      for (const e of streams) this.publish(source.channelId, e);
      return waits ? Promise.all(waits).then(() => undefined) : Promise.resolve();
    }
    const done = this.enqueue(source, batch, rows + batch.effects.length, retryable, keys, streams);
    return waits ? Promise.all([done, ...waits]).then(() => undefined) : done;
  }

  /** Stores and publishes a gap line (a platform connection dropped and resumed). */
  submitGap(gap: ChatGap): Promise<void> {
    const batch: WriteBatch = { messages: [], moderation: [], activities: [], gaps: [gap], effects: [], states: [] };
    const source = { channelId: gap.channel_id, channelProviderId: gap.channel_provider_id, provider: gap.provider, providerChannelId: '' };
    return this.enqueue(source, batch, 1, false, [], []);
  }

  /** Null: new; true: stored before; a promise: waiting for its commit. */
  private duplicate(key: string): Promise<void> | true | null {
    const pending = this.pending.get(key);
    if (pending) {
      this.stats.duplicates++;
      return pending;
    }
    if (this.seen.has(key)) {
      this.stats.duplicates++;
      return true;
    }
    return null;
  }

  private enqueue(
    source: IngestSource,
    batch: WriteBatch,
    rows: number,
    retryable: boolean,
    keys: string[],
    streams: BusEvent[],
  ): Promise<void> {
    const delivery = new Delivery(this, source, batch, rows, retryable, keys, streams);
    if (!this.writer.submit(delivery)) return this.refuse(source, rows, retryable, Date.now());
    for (const key of keys) this.pending.set(key, delivery.promise);
    return delivery.promise;
  }

  /** A delivery's transaction committed (called by Delivery, once). */
  settle(d: Delivery, result: WriteResult): void {
    this.committed(d.source.channelId, d.batch, d.keys, d.streams, result);
  }

  /** A delivery will never be written (called by Delivery, once): refused to its platform, or counted as lost. */
  drop(d: Delivery): void {
    for (const key of d.keys) this.pending.delete(key);
    if (!d.retryable) this.lose(d.source, d.rows, Date.now());
  }

  private committed(channelId: string, batch: WriteBatch, keys: string[], streams: BusEvent[], result: WriteResult): void {
    for (const key of keys) {
      this.pending.delete(key);
      if (!result.rejected.has(key)) this.seen.add(key);
    }
    for (const m of batch.messages) {
      const seq = result.messages.get(rowKey(m.channel_id, m.id));
      if (seq === undefined) continue;
      this.publish(channelId, { type: 'chat.message', seq, data: m });
    }
    for (const a of batch.activities) {
      const seq = result.activities.get(rowKey(a.channel_id, a.id));
      if (seq !== undefined) this.publish(channelId, { type: 'activity', seq, data: a });
    }
    for (const e of batch.moderation) {
      if (result.moderation.has(rowKey(e.channel_id, e.id))) this.publish(channelId, { type: 'chat.moderation', data: e });
    }
    for (const g of batch.gaps) this.publish(channelId, { type: 'chat.gap', data: g });
    for (const s of streams) this.publish(channelId, s);
    if (result.effects > 0) this.outbox.nudge();
  }

  private publish(channelId: string, event: BusEvent): void {
    this.stats.published++;
    this.options.bus.publish(channelTopic(channelId), event);
  }

  private refuse(source: IngestSource, count: number, retryable: boolean, now: number): Promise<void> {
    if (retryable) {
      this.stats.refused += count;
      return Promise.reject(new IngestBusyError());
    }
    this.lose(source, count, now);
    return Promise.resolve();
  }

  /** Counts what could not be held; logs it (at most every 10 s) and tells the channel's staff. */
  private lose(source: IngestSource, count: number, now: number): void {
    if (count <= 0) return;
    this.stats.lost += count;
    this.lossesSinceLog += count;
    let loss = this.losses.get(source.channelProviderId);
    if (!loss) this.losses.set(source.channelProviderId, (loss = { source, count: 0, first: now, last: now, reported: 0 }));
    loss.count += count;
    loss.last = now;
    if (now - this.lastLossLog >= LOSS_LOG_EVERY_MS) {
      this.options.log.error(
        { lost: this.lossesSinceLog, lostTotal: this.stats.lost, held: this.writer.held, holdLimit: this.writer.holdRows },
        'chat could not be held while the database refused writes: messages lost',
      );
      this.lastLossLog = now;
      this.lossesSinceLog = 0;
    }
    if (now - loss.reported >= 1000) {
      loss.reported = now;
      this.publish(source.channelId, { type: 'chat.ingest_status', data: this.statusFor(source.channelId) });
    }
    // Lost to a backlog while writes still succeed (more chat than the database keeps up with): the
    // gap line is written once the losses stop for a moment; while writes fail, when they succeed again.
    if (this.lossTimer) clearTimeout(this.lossTimer);
    this.lossTimer = setTimeout(() => {
      this.lossTimer = null;
      if (this.writer.status.state === 'ok' && this.losses.size > 0) {
        this.recordLosses();
        for (const channelId of this.recentChannels.keys())
          this.publish(channelId, { type: 'chat.ingest_status', data: this.statusFor(channelId) });
      }
    }, 2000);
    this.lossTimer.unref();
  }

  private statusFor(channelId: string): ChatIngestStatus {
    const w = this.writer.status;
    let lost = 0;
    for (const loss of this.losses.values()) if (loss.source.channelId === channelId) lost += loss.count;
    return { state: w.state, since: new Date(w.since).toISOString(), held: w.held, lost };
  }

  /** The chat log's state for one channel (sent to a staff socket when it opens). */
  ingestStatus(channelId: string): ChatIngestStatus {
    return this.statusFor(channelId);
  }

  private writerStatus(status: WriterStatus): void {
    const cutoff = Date.now() - 10 * 60_000;
    for (const [channelId, at] of this.recentChannels) {
      if (at < cutoff) this.recentChannels.delete(channelId);
      else this.publish(channelId, { type: 'chat.ingest_status', data: this.statusFor(channelId) });
    }
    if (status.state === 'ok' && this.losses.size > 0) this.recordLosses();
  }

  /** Once writes succeed again, each connection's losses become a stored gap line. */
  private recordLosses(): void {
    const losses = [...this.losses.values()];
    this.losses.clear();
    for (const loss of losses) {
      this.options.log.error(
        { channelProviderId: loss.source.channelProviderId, provider: loss.source.provider, lost: loss.count },
        'chat messages were lost while the database refused writes',
      );
      void this.submitGap({
        id: newId(),
        channel_id: loss.source.channelId,
        channel_provider_id: loss.source.channelProviderId,
        provider: loss.source.provider,
        reason: 'lost',
        started_at: new Date(loss.first).toISOString(),
        ended_at: new Date(loss.last).toISOString(),
        lost: loss.count,
      });
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

  /** Resolves once everything submitted so far is stored and published (tests). */
  async flush(): Promise<void> {
    await this.writer.flush();
  }

  /** Shutdown: stops running effects, then writes what is queued (see ChatLogWriter.close). */
  async close(): Promise<void> {
    if (this.lossTimer) clearTimeout(this.lossTimer);
    await this.outbox.stop();
    await this.writer.close();
  }
}
