/**
 * The connections to Redis when `REDIS_URL` is set: one for commands and publishing, one for subscriptions (a
 * subscribed Redis connection takes no other commands). Commands fail at once while Redis is unreachable (no
 * offline queue: callers fall back to what this instance knows); ioredis reconnects by itself, every 0.2–2 s, and
 * subscriptions are made again when it is back. Going down and coming back are logged once each.
 */
import { Redis } from 'ioredis';

export interface RedisLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface RedisLink {
  /** Commands and PUBLISH. */
  readonly cmd: Redis;
  /** SUBSCRIBE only. */
  readonly sub: Redis;
  /** Both connections are ready. */
  readonly up: boolean;
  /** Since when Redis has been unreachable (ms), or null. */
  readonly downSince: number | null;
  /** Called with `true` when both connections are ready again after an outage, `false` when one is lost. */
  onState(listener: (up: boolean) => void): void;
  close(): Promise<void>;
}

export function connectRedis(url: string, log: RedisLog): RedisLink {
  const retryStrategy = (times: number) => Math.min(times * 200, 2_000);
  const cmd = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy, connectionName: 'greenroom' });
  // Subscriptions asked for while Redis is away wait for it (and ioredis subscribes again after a reconnect).
  const sub = new Redis(url, { retryStrategy, maxRetriesPerRequest: null, connectionName: 'greenroom-sub' });
  const listeners: ((up: boolean) => void)[] = [];
  let up = false;
  let downSince: number | null = Date.now();
  let closed = false;
  let everUp = false;
  // Unreachable from the start: said once, after a moment to connect.
  const startCheck = setTimeout(() => {
    if (!up && !closed) log.warn({}, 'Redis is unreachable: this instance serves its own channels until it can reach it');
  }, 3_000);
  startCheck.unref();
  const update = () => {
    const now = cmd.status === 'ready' && sub.status === 'ready';
    if (now === up || closed) return;
    up = now;
    if (up) {
      if (everUp && downSince !== null)
        log.info({ downMs: Date.now() - downSince }, 'Redis is reachable again: sharing events and state with the other instances');
      everUp = true;
      downSince = null;
    } else {
      downSince = Date.now();
      log.warn({}, 'Redis is unreachable: this instance keeps serving its own channels; other instances do not see its events');
    }
    for (const l of listeners) {
      try {
        l(up);
      } catch {
        // A listener's failure is its own.
      }
    }
  };
  for (const client of [cmd, sub]) {
    client.on('ready', update);
    client.on('close', update);
    client.on('end', update);
    // Reported through the state change above; without a listener ioredis prints every failed attempt.
    client.on('error', () => undefined);
  }
  return {
    cmd,
    sub,
    get up() {
      return up;
    },
    get downSince() {
      return downSince;
    },
    onState(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      clearTimeout(startCheck);
      await Promise.all([cmd.quit().catch(() => cmd.disconnect()), sub.quit().catch(() => sub.disconnect())]);
    },
  };
}
