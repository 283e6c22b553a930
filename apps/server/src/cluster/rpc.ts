/**
 * Requests from one instance to another over Redis pub/sub: a request goes to `gr:rpc:<instance>`, its answer comes
 * back on the caller's address. Used where the caller must wait for the owner's outcome (a Kick delivery is
 * answered 2xx only once the owner stored it) and for nudges (read your commands now). A call fails at once while
 * Redis is unreachable and after `timeoutMs` without an answer (the owner died or is stuck): callers answer 503.
 */
import type { ErrorType } from '@greenroom/contracts/errors';
import { AppError, unavailable } from '../lib/errors';
import { newId } from '../lib/ids';
import type { RedisLink } from './redis-link';

const PREFIX = 'gr:rpc:';

type Handler = (payload: unknown) => Promise<unknown>;
interface Request {
  id: string;
  from: string;
  kind: string;
  payload: unknown;
}
interface Reply {
  re: string;
  ok: boolean;
  value?: unknown;
  error?: { status: number; type: string; message: string };
}

export class ClusterRpc {
  private readonly handlers = new Map<string, Handler>();
  private readonly pending = new Map<string, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  private address: string;

  constructor(
    private readonly link: RedisLink,
    address: string,
    private readonly log: { warn(obj: object, msg?: string): void },
  ) {
    this.address = address;
    link.sub.on('message', (channel: string, raw: string) => {
      if (channel === PREFIX + this.address) void this.receive(raw);
    });
    void link.sub.subscribe(PREFIX + address).catch(() => undefined);
  }

  /** This instance's lease id changed: listen on the new address. */
  rename(address: string): void {
    const old = this.address;
    this.address = address;
    void this.link.sub.subscribe(PREFIX + address).catch(() => undefined);
    void this.link.sub.unsubscribe(PREFIX + old).catch(() => undefined);
  }

  handle(kind: string, handler: Handler): void {
    this.handlers.set(kind, handler);
  }

  /** Sends without waiting for an answer (best effort). */
  notify(to: string, kind: string, payload: unknown = null): void {
    if (!this.link.up) return;
    const request: Request = { id: '', from: this.address, kind, payload };
    this.link.cmd.publish(PREFIX + to, JSON.stringify(request)).catch(() => undefined);
  }

  call(to: string, kind: string, payload: unknown, timeoutMs = 5_000): Promise<unknown> {
    if (!this.link.up) return Promise.reject(unavailable('The instance holding this channel cannot be reached; try again.'));
    const id = newId();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(unavailable('The instance holding this channel did not answer; try again.'));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      const request: Request = { id, from: this.address, kind, payload };
      this.link.cmd.publish(PREFIX + to, JSON.stringify(request)).then(
        (receivers) => {
          // Nobody listens there: the instance is gone.
          if (receivers === 0)
            this.settle({
              re: id,
              ok: false,
              error: { status: 503, type: 'unavailable', message: 'The instance holding this channel is gone; try again.' },
            });
        },
        () =>
          this.settle({ re: id, ok: false, error: { status: 503, type: 'unavailable', message: 'Redis refused the request; try again.' } }),
      );
    });
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.re);
    if (!waiting) return;
    this.pending.delete(reply.re);
    clearTimeout(waiting.timer);
    if (reply.ok) waiting.resolve(reply.value);
    else {
      const e = reply.error ?? { status: 503, type: 'unavailable', message: 'The request failed on another instance.' };
      waiting.reject(new AppError(e.status, e.type as ErrorType, e.message));
    }
  }

  private async receive(raw: string): Promise<void> {
    let message: Partial<Request & Reply>;
    try {
      message = JSON.parse(raw) as Partial<Request & Reply>;
    } catch {
      return;
    }
    if (typeof message.re === 'string') {
      this.settle(message as Reply);
      return;
    }
    const { id, from, kind } = message;
    if (typeof kind !== 'string' || typeof from !== 'string') return;
    const handler = this.handlers.get(kind);
    let reply: Reply;
    try {
      if (!handler) throw unavailable(`No handler for ${kind}.`);
      reply = { re: id ?? '', ok: true, value: (await handler(message.payload)) ?? null };
    } catch (error) {
      if (!(error instanceof AppError)) this.log.warn({ err: error, kind }, 'cluster request failed');
      reply =
        error instanceof AppError
          ? { re: id ?? '', ok: false, error: { status: error.status, type: error.type, message: error.message } }
          : { re: id ?? '', ok: false, error: { status: 503, type: 'unavailable', message: 'The request failed on another instance.' } };
    }
    if (!id || !this.link.up) return;
    this.link.cmd.publish(PREFIX + from, JSON.stringify(reply)).catch(() => undefined);
  }

  close(): void {
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(unavailable('Shutting down.'));
    }
    this.pending.clear();
  }
}
