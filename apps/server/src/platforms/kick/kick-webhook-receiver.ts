/**
 * Receives Kick's signed webhooks (the route in modules/webhooks hands over headers and the raw body):
 * verifies the RSA-SHA256 signature against Kick's public key (cached, refetched once on failure), maps the
 * payload and routes the events to every live connection of that broadcaster. Kick adapters register their
 * connection here in `connect()`.
 *
 * Kick delivers at least once and retries a delivery not answered 2xx, so a delivery is answered
 * 2xx only once its events are stored (the connections' `emit` resolved); when the chat log cannot
 * take them now, or the channel's stored connection is not running yet (the server is starting), it is
 * answered 503 and Kick delivers it again. Delivery ids
 * (`Kick-Event-Message-Id`) are remembered in the database after the events are stored, so a
 * redelivery is answered without being processed again, across restarts too; one that slips
 * between storing and remembering is a duplicate by message id in the pipeline.
 *
 * Age: Kick retries a failed delivery "over a period of time" with the first attempt's id, timestamp and
 * signature, so a genuine retry can carry a timestamp many minutes or hours old. A verified delivery is
 * accepted whatever its age as long as its id was not seen: the signature stops forgeries and the id
 * stops replays. The one bound is the time ids are remembered: Kick gives up on (and unsubscribes) an
 * endpoint that keeps failing for a day, so a delivery stamped more than `maxAgeMs` (two days) ago cannot
 * be a retry, only a replay that the id store may have forgotten; ids are kept a day longer than that.
 */
import { createVerify } from 'node:crypto';
import { AppError, badRequest, unavailable } from '../../lib/errors';
import type { EmitOptions, PlatformEvent } from '../port';
import type { KickClient } from './kick-client';
import { isKickEventName, kickBroadcasterId, mapKickEvent } from './kick-events';

type Headers = Record<string, string | string[] | undefined>;

/** Remembers webhook delivery ids (table `webhook_deliveries`). */
export interface WebhookDeliveryStore {
  /** Whether a delivery was handled before (a duplicate). */
  has(provider: 'kick', messageId: string): Promise<boolean>;
  /** Records a handled delivery; false when it was recorded before. */
  remember(provider: 'kick', messageId: string): Promise<boolean>;
  /** Forgets deliveries received before `before`; returns how many. */
  forgetBefore(before: Date): Promise<number>;
}

/** A live Kick connection of one Greenroom channel. */
export interface KickWebhookSink {
  channelProviderId: string;
  /** The connection's `emit`: resolves once the events are stored. */
  emit(events: readonly PlatformEvent[], options: EmitOptions): Promise<void>;
}

export type KickWebhookOutcome = 'accepted' | 'duplicate' | 'ignored';

/** Hands a verified delivery to the instance holding the broadcaster's connection (see `forwardTo`). */
export type KickWebhookForward = (broadcasterUserId: string, headers: Headers, rawBody: string) => Promise<KickWebhookOutcome | null>;

export interface KickWebhookReceiverOptions {
  client: KickClient;
  store: WebhookDeliveryStore;
  /** Oldest delivery timestamp accepted (default 48 h: Kick stops retrying and unsubscribes after a day of failures). */
  maxAgeMs?: number;
  /** How long delivery ids are remembered (default and minimum: `maxAgeMs` + 24 h). */
  retentionMs?: number;
  /** Least time between two public-key fetches caused by failed verifications (default 60 s). */
  keyRefetchIntervalMs?: number;
  /**
   * Whether Greenroom stores a connection to this Kick channel, though none is registered here now (the server is
   * starting, or the connection is reconnecting): its deliveries are answered 503 so Kick delivers them again
   * instead of being acknowledged unstored. Without it, such deliveries are acknowledged and dropped.
   */
  isStored?: (broadcasterUserId: string) => Promise<boolean>;
  now?: () => number;
  log?: { warn(obj: object, msg?: string): void };
}

function header(headers: Headers, name: string): string | null {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first && first.trim() !== '' ? first.trim() : null;
}

export class KickWebhookReceiver {
  private readonly sinks = new Map<string, Set<KickWebhookSink>>();
  /** Deliveries being stored now, by Kick message id. */
  private readonly inFlight = new Map<string, Promise<KickWebhookOutcome>>();
  private key: { pem: string; fetchedAt: number } | null = null;
  private keyLoading: Promise<string> | null = null;
  private lastPrune = 0;
  private forward: KickWebhookForward | null = null;
  private readonly now: () => number;
  private readonly maxAgeMs: number;
  private readonly retentionMs: number;

  constructor(private readonly options: KickWebhookReceiverOptions) {
    this.now = options.now ?? Date.now;
    this.maxAgeMs = options.maxAgeMs ?? 48 * 3_600_000;
    this.retentionMs = Math.max(options.retentionMs ?? 0, this.maxAgeMs + 24 * 3_600_000);
  }

  /**
   * Several instances: a delivery for a broadcaster whose connection runs on another instance is handed to it by
   * `forward` (resolving with that instance's outcome, or null when no other instance holds it); the delivery is
   * answered with what the holder answered.
   */
  forwardTo(forward: KickWebhookForward): void {
    this.forward = forward;
  }

  /** Routes a broadcaster's webhooks to `sink` until the returned function is called. */
  register(broadcasterUserId: string, sink: KickWebhookSink): () => void {
    let set = this.sinks.get(broadcasterUserId);
    if (!set) this.sinks.set(broadcasterUserId, (set = new Set()));
    set.add(sink);
    return () => {
      const current = this.sinks.get(broadcasterUserId);
      if (!current) return;
      current.delete(sink);
      if (current.size === 0) this.sinks.delete(broadcasterUserId);
    };
  }

  isRegistered(broadcasterUserId: string): boolean {
    return (this.sinks.get(broadcasterUserId)?.size ?? 0) > 0;
  }

  private loadKey(): Promise<string> {
    this.keyLoading ??= this.options.client
      .publicKey()
      .then((pem) => {
        this.key = { pem, fetchedAt: this.now() };
        return pem;
      })
      .finally(() => {
        this.keyLoading = null;
      });
    return this.keyLoading;
  }

  private async verifySignature(signed: string, signature: string): Promise<boolean> {
    const check = (pem: string): boolean => {
      try {
        return createVerify('RSA-SHA256').update(signed).verify(pem, signature, 'base64');
      } catch {
        return false;
      }
    };
    const cached = this.key;
    if (!cached) return check(await this.loadKey());
    if (check(cached.pem)) return true;
    // Kick may have rotated its key: fetch it again, at most once per interval.
    if (this.now() - cached.fetchedAt < (this.options.keyRefetchIntervalMs ?? 60_000)) return false;
    return check(await this.loadKey());
  }

  /**
   * Handles one delivery. Throws AppError 400 (malformed, or older than any retry can be), 403 (bad
   * signature) or 503 (the chat log cannot store it now: Kick delivers it again); resolves with what
   * happened otherwise — after the events are stored — which the route answers with 2xx.
   */
  async receive(headers: Headers, rawBody: string, options: { forwarded?: boolean } = {}): Promise<KickWebhookOutcome> {
    const messageId = header(headers, 'kick-event-message-id');
    const timestamp = header(headers, 'kick-event-message-timestamp');
    const signature = header(headers, 'kick-event-signature');
    const eventType = header(headers, 'kick-event-type');
    if (!messageId || !timestamp || !signature || !eventType) throw badRequest('Missing Kick webhook headers.');

    if (!(await this.verifySignature(`${messageId}.${timestamp}.${rawBody}`, signature))) {
      throw new AppError(403, 'forbidden', 'The Kick webhook signature is invalid.');
    }
    const sentAt = Date.parse(timestamp);
    if (Number.isNaN(sentAt)) throw badRequest('The Kick webhook timestamp is invalid.');
    if (this.now() - sentAt > this.maxAgeMs) throw badRequest('The Kick webhook is older than any retry of Kick can be.');

    this.pruneSometimes();
    if (!isKickEventName(eventType)) return 'ignored';
    let payload: unknown;
    try {
      payload = JSON.parse(rawBody);
    } catch {
      throw badRequest('The Kick webhook body is not JSON.');
    }
    const broadcaster = kickBroadcasterId(payload);
    const sinks = broadcaster ? this.sinks.get(broadcaster) : undefined;
    if (!sinks || sinks.size === 0) {
      // Held by another instance: its outcome is this delivery's answer.
      if (broadcaster && this.forward && !options.forwarded) {
        const outcome = await this.forward(broadcaster, headers, rawBody);
        if (outcome) return outcome;
      }
      // A connection that is not running yet (the server starting, a reconnect): Kick must deliver it again.
      if (broadcaster && (await this.options.isStored?.(broadcaster)))
        throw unavailable('This Kick channel is not connected yet; deliver it again later.');
      // No connection to this channel at all (disconnected): acknowledge without remembering.
      return 'ignored';
    }

    let events: PlatformEvent[];
    try {
      events = mapKickEvent(eventType, payload, messageId, new Date(this.now()).toISOString());
    } catch (error) {
      this.options.log?.warn({ err: error, eventType, messageId }, 'unreadable Kick webhook payload');
      return 'ignored';
    }
    // A copy of a delivery still being handled (Kick sent it twice at once) waits for the first's outcome; the check
    // and the claim happen before any await, so two copies are never stored side by side.
    const running = this.inFlight.get(messageId);
    if (running) {
      if (await running.then(() => true).catch(() => false)) return 'duplicate';
      throw unavailable('Greenroom cannot store this event right now; deliver it again later.');
    }
    const handled = this.store(messageId, eventType, sinks, events);
    this.inFlight.set(messageId, handled);
    try {
      return await handled;
    } finally {
      this.inFlight.delete(messageId);
    }
  }

  private async store(
    messageId: string,
    eventType: string,
    sinks: Set<KickWebhookSink>,
    events: PlatformEvent[],
  ): Promise<KickWebhookOutcome> {
    if (await this.options.store.has('kick', messageId)) return 'duplicate';
    try {
      await Promise.all([...sinks].map((sink) => sink.emit(events, { retryable: true })));
    } catch (error) {
      this.options.log?.warn({ err: error, eventType, messageId }, 'Kick delivery not stored now; Kick delivers it again');
      throw unavailable('Greenroom cannot store this event right now; deliver it again later.');
    }
    try {
      await this.options.store.remember('kick', messageId);
    } catch (error) {
      // Stored already: a redelivery is a duplicate by message id in the pipeline.
      this.options.log?.warn({ err: error, messageId }, 'could not remember a Kick delivery id');
    }
    return 'accepted';
  }

  private pruneSometimes(): void {
    const now = this.now();
    if (now - this.lastPrune < 3_600_000) return;
    this.lastPrune = now;
    this.options.store.forgetBefore(new Date(now - this.retentionMs)).catch((error: unknown) => {
      this.options.log?.warn({ err: error }, 'could not prune webhook delivery ids');
    });
  }
}
