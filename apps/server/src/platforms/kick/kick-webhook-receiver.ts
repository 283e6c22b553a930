/**
 * Receives Kick's signed webhooks (the route in modules/webhooks hands over headers and the raw body):
 * verifies the RSA-SHA256 signature against Kick's public key (cached, refetched once on failure),
 * rejects stale timestamps, maps the payload and routes the events to every live connection of that
 * broadcaster. Kick adapters register their connection here in `connect()`.
 *
 * Kick delivers at least once and retries a delivery not answered 2xx, so a delivery is answered
 * 2xx only once its events are stored (the connections' `emit` resolved); when the chat log cannot
 * take them now it is answered 503 and Kick delivers it again. Delivery ids
 * (`Kick-Event-Message-Id`) are remembered in the database after the events are stored, so a
 * redelivery is answered without being processed again, across restarts too; one that slips
 * between storing and remembering is a duplicate by message id in the pipeline.
 */
import { createVerify } from 'node:crypto';
import { AppError, badRequest, unavailable } from '../../lib/errors';
import type { EmitOptions, PlatformEvent } from '../port';
import type { KickClient } from './kick-client';
import { isKickEventName, kickBroadcasterId, mapKickEvent } from './kick-events';

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

export interface KickWebhookReceiverOptions {
  client: KickClient;
  store: WebhookDeliveryStore;
  /** How far a delivery's timestamp may lie from now (default 10 min; retries of late deliveries stay inside it). */
  toleranceMs?: number;
  /** How long delivery ids are remembered (default 24 h; must exceed the tolerance). */
  retentionMs?: number;
  /** Least time between two public-key fetches caused by failed verifications (default 60 s). */
  keyRefetchIntervalMs?: number;
  now?: () => number;
  log?: { warn(obj: object, msg?: string): void };
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | null {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first && first.trim() !== '' ? first.trim() : null;
}

export class KickWebhookReceiver {
  private readonly sinks = new Map<string, Set<KickWebhookSink>>();
  private key: { pem: string; fetchedAt: number } | null = null;
  private keyLoading: Promise<string> | null = null;
  private lastPrune = 0;
  private readonly now: () => number;
  private readonly toleranceMs: number;
  private readonly retentionMs: number;

  constructor(private readonly options: KickWebhookReceiverOptions) {
    this.now = options.now ?? Date.now;
    this.toleranceMs = options.toleranceMs ?? 10 * 60_000;
    this.retentionMs = Math.max(options.retentionMs ?? 24 * 3_600_000, this.toleranceMs * 2);
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
   * Handles one delivery. Throws AppError 400 (malformed or stale), 403 (bad signature) or 503 (the
   * chat log cannot store it now: Kick delivers it again); resolves with what happened otherwise —
   * after the events are stored — which the route answers with 2xx.
   */
  async receive(headers: Headers, rawBody: string): Promise<KickWebhookOutcome> {
    const messageId = header(headers, 'kick-event-message-id');
    const timestamp = header(headers, 'kick-event-message-timestamp');
    const signature = header(headers, 'kick-event-signature');
    const eventType = header(headers, 'kick-event-type');
    if (!messageId || !timestamp || !signature || !eventType) throw badRequest('Missing Kick webhook headers.');

    if (!(await this.verifySignature(`${messageId}.${timestamp}.${rawBody}`, signature))) {
      throw new AppError(403, 'forbidden', 'The Kick webhook signature is invalid.');
    }
    const sentAt = Date.parse(timestamp);
    if (Number.isNaN(sentAt) || Math.abs(this.now() - sentAt) > this.toleranceMs)
      throw badRequest('The Kick webhook timestamp is too old or invalid.');

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
    // No live connection for this channel (disconnected, or not started yet): acknowledge without remembering.
    if (!sinks || sinks.size === 0) return 'ignored';

    let events: PlatformEvent[];
    try {
      events = mapKickEvent(eventType, payload, messageId, new Date(this.now()).toISOString());
    } catch (error) {
      this.options.log?.warn({ err: error, eventType, messageId }, 'unreadable Kick webhook payload');
      return 'ignored';
    }
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
