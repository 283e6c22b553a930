/**
 * Kick webhook delivery: signing, an at-least-once queue with retries, and delivery faults.
 *
 * Kick signs `${Kick-Event-Message-Id}.${Kick-Event-Message-Timestamp}.${rawBody}` with RSA-SHA256
 * (PKCS#1 v1.5), base64 in `Kick-Event-Signature`; the public key is served at /public/v1/public-key.
 * Kick retries a failed delivery (non-2xx, no answer) "over a period of time" with the same message id, the
 * timestamp and the signature of the first attempt, so a retry can reach the app long after it was stamped:
 * here with exponential backoff (retryBaseMs · 2^(n-1), at most maxRetryDelayMs; or the fixed retryDelaysMs)
 * until retryForMs after the first attempt (a day by default) or maxAttempts. A subscription whose deliveries
 * keep failing for over a day is unsubscribed (KickDevDocs, webhook-security.md, "Disabling of Webhooks";
 * changelog 12/12/2025).
 */
import { createSign, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { ulid } from './http';

export interface KickSigningKey {
  privateKey: KeyObject;
  publicKeyPem: string;
}

/** Generated off the event loop (a 2048-bit RSA key takes a few hundred milliseconds), so startup work runs meanwhile. */
export async function createKickSigningKey(): Promise<KickSigningKey> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

export function signKickPayload(key: KeyObject, messageId: string, timestamp: string, rawBody: string): string {
  return createSign('RSA-SHA256').update(`${messageId}.${timestamp}.${rawBody}`).sign(key, 'base64');
}

export interface KickDeliveryFault {
  /** Send every delivery twice (same message id, same signature). */
  duplicate: boolean;
  /** Hold every delivery this long before the first attempt (late webhooks). */
  delayMs: number;
  /**
   * Stamp new deliveries this much in the past: the app sees what a retry sent that long after the first attempt
   * looks like (same message id and signature, an old `Kick-Event-Message-Timestamp`) without the test waiting for it.
   */
  backdateMs: number;
}

export interface KickDeliveryRecord {
  messageId: string;
  subscriptionId: string;
  eventType: string;
  url: string | null;
  attempt: number;
  /** HTTP status, or 0 for a network error / no webhook URL. */
  status: number;
  at: Date;
}

export interface KickDeliveryOptions {
  /** How many POSTs may be in flight at once. */
  concurrency: number;
  /** Attempts per message (Kick does not publish one: unlimited within retryForMs by default). */
  maxAttempts: number;
  /** Backoff before retry n is retryBaseMs * 2^(n-1), at most maxRetryDelayMs. */
  retryBaseMs: number;
  maxRetryDelayMs: number;
  /** When set, retry n waits retryDelaysMs[n-1] instead (the last value repeating). */
  retryDelaysMs: number[] | null;
  /** Retries stop this long after the first attempt (Kick: deliveries failing for a day are given up). */
  retryForMs: number;
  /** Per-request timeout. */
  timeoutMs: number;
  /** A subscription whose deliveries have failed without a success for this long is unsubscribed (Kick: a day). */
  unsubscribeAfterMs: number;
}

interface Job {
  messageId: string;
  timestamp: string;
  subscriptionId: string;
  appClientId: string;
  eventType: string;
  eventVersion: number;
  body: string;
  signature: string;
  attempt: number;
  /** When the first attempt was made (retries stop retryForMs after). */
  firstAttemptAt: number | null;
  /** True for the extra copy sent by the duplicate fault. */
  copy: boolean;
}

export class KickWebhookDispatcher {
  readonly fault: KickDeliveryFault = { duplicate: false, delayMs: 0, backdateMs: 0 };
  /** Per subscription: when its deliveries started failing (cleared by a success). */
  private readonly failingSince = new Map<string, number>();
  readonly log: KickDeliveryRecord[] = [];
  private readonly queue: Job[] = [];
  private active = 0;
  /** Jobs waiting on a timer (delay fault or retry backoff). */
  private waiting = 0;
  private idleWaiters: (() => void)[] = [];
  /** Jobs waiting on a timer, by timer. */
  private readonly timers = new Map<NodeJS.Timeout, Job>();
  /** Deleted subscriptions: their queued, waiting and retried deliveries are dropped. */
  private readonly cancelled = new Set<string>();
  private stopped = false;

  constructor(
    private readonly key: KickSigningKey,
    private readonly resolveUrl: (appClientId: string) => string | null | undefined,
    readonly options: KickDeliveryOptions,
    private readonly random: () => number = Math.random,
    /** Called when a subscription's deliveries kept failing for `unsubscribeAfterMs`: the platform removes it. */
    private readonly onFailingTooLong: (subscriptionId: string) => void = () => undefined,
  ) {}

  /** Queues one event for one subscription. Returns the message id. */
  enqueue(input: { subscriptionId: string; appClientId: string; eventType: string; eventVersion: number; payload: unknown }): string {
    const sentAt = Date.now() - this.fault.backdateMs;
    const messageId = ulid(sentAt, this.random);
    const timestamp = new Date(sentAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const body = JSON.stringify(input.payload);
    const job: Job = {
      messageId,
      timestamp,
      subscriptionId: input.subscriptionId,
      appClientId: input.appClientId,
      eventType: input.eventType,
      eventVersion: input.eventVersion,
      body,
      signature: signKickPayload(this.key.privateKey, messageId, timestamp, body),
      attempt: 0,
      firstAttemptAt: null,
      copy: false,
    };
    this.schedule(job, this.fault.delayMs);
    if (this.fault.duplicate) this.schedule({ ...job, copy: true }, this.fault.delayMs);
    return messageId;
  }

  /** Resolves once nothing is queued, in flight or waiting for a retry. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** A subscription was deleted: nothing more is delivered for it, not even queued messages or retries. */
  cancel(subscriptionIds: Iterable<string>): void {
    for (const id of subscriptionIds) this.cancelled.add(id);
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.cancelled.has(this.queue[i]!.subscriptionId)) this.queue.splice(i, 1);
    for (const [timer, job] of this.timers) {
      if (!this.cancelled.has(job.subscriptionId)) continue;
      clearTimeout(timer);
      this.timers.delete(timer);
      this.waiting--;
    }
    this.checkIdle();
  }

  /** Drops everything pending (reset / shutdown). */
  clear(): void {
    for (const timer of this.timers.keys()) clearTimeout(timer);
    this.timers.clear();
    this.cancelled.clear();
    this.failingSince.clear();
    this.waiting = 0;
    this.queue.length = 0;
    this.log.length = 0;
    this.checkIdle();
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && this.active === 0 && this.waiting === 0;
  }

  private checkIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private schedule(job: Job, delayMs: number): void {
    if (this.stopped || this.cancelled.has(job.subscriptionId)) return;
    if (delayMs <= 0) {
      this.queue.push(job);
      this.pump();
      return;
    }
    this.waiting++;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.waiting--;
      this.queue.push(job);
      this.pump();
    }, delayMs);
    this.timers.set(timer, job);
  }

  private pump(): void {
    while (this.active < this.options.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.active++;
      void this.send(job).finally(() => {
        this.active--;
        this.pump();
        this.checkIdle();
      });
    }
  }

  private async send(job: Job): Promise<void> {
    job.attempt++;
    job.firstAttemptAt ??= Date.now();
    const url = this.resolveUrl(job.appClientId) ?? null;
    let status = 0;
    if (url) {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Kick-Event-Message-Id': job.messageId,
            'Kick-Event-Subscription-Id': job.subscriptionId,
            'Kick-Event-Signature': job.signature,
            'Kick-Event-Message-Timestamp': job.timestamp,
            'Kick-Event-Type': job.eventType,
            'Kick-Event-Version': String(job.eventVersion),
            'User-Agent': 'Kick-Webhooks/1.0 (greenroom-emulator)',
          },
          body: job.body,
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        status = response.status;
        await response.body?.cancel();
      } catch {
        status = 0;
      }
    }
    if (this.stopped) return;
    this.log.push({
      messageId: job.messageId,
      subscriptionId: job.subscriptionId,
      eventType: job.eventType,
      url,
      attempt: job.attempt,
      status,
      at: new Date(),
    });
    if (this.log.length > 5000) this.log.splice(0, this.log.length - 5000);
    const ok = status >= 200 && status < 300;
    if (ok) {
      this.failingSince.delete(job.subscriptionId);
      return;
    }
    const now = Date.now();
    const since = this.failingSince.get(job.subscriptionId) ?? now;
    this.failingSince.set(job.subscriptionId, since);
    if (now - since >= this.options.unsubscribeAfterMs) {
      this.failingSince.delete(job.subscriptionId);
      this.onFailingTooLong(job.subscriptionId);
      return;
    }
    if (job.attempt < this.options.maxAttempts && now - (job.firstAttemptAt ?? now) < this.options.retryForMs) {
      const fixed = this.options.retryDelaysMs;
      const delay = fixed?.length
        ? (fixed[Math.min(job.attempt - 1, fixed.length - 1)] ?? 0)
        : Math.min(this.options.maxRetryDelayMs, this.options.retryBaseMs * 2 ** Math.min(job.attempt - 1, 30));
      this.schedule(job, delay);
    }
  }
}
