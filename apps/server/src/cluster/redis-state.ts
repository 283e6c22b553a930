/**
 * State several instances keep together in Redis: a sliding window per chat sender (so two instances never send
 * more than the platform allows one account together) and a short lock per credential (one instance refreshes a
 * token, the others wait and adopt it). Both degrade to this instance's own view while Redis is unreachable.
 */
import { randomUUID } from 'node:crypto';
import type { RateLimit, SharedSendWindow } from '../platforms/send-queue';
import type { RedisLink } from './redis-link';

/**
 * Sliding window on a sorted set: drop entries older than the window, count, add this send when under the limit.
 * Returns 0 when the send may go now (and records it), else the milliseconds until the oldest entry leaves.
 */
const TAKE = `
local key, now, window, limit, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) < limit then
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, window)
  return 0
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
`;

export function redisSendWindow(link: RedisLink): SharedSendWindow {
  return {
    async take(key: string, limit: RateLimit): Promise<number> {
      // Redis's clock for every instance, so their clocks cannot disagree about the window.
      const [seconds, micros] = await link.cmd.time();
      const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      const wait = await link.cmd.eval(TAKE, 1, `gr:send:${key}`, now, limit.windowMs, limit.limit, `${now}:${randomUUID()}`);
      return Number(wait);
    },
  };
}

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * A lock across instances (SET NX with an expiry, released only by its holder). Waits up to `waitMs` for another
 * holder; without Redis (or after waiting) it proceeds unlocked: the callers re-check the database either way.
 */
export function redisLock(link: RedisLink, options: { ttlMs?: number; waitMs?: number } = {}) {
  const ttl = options.ttlMs ?? 15_000;
  const wait = options.waitMs ?? 15_000;
  return async (name: string): Promise<() => Promise<void>> => {
    const key = `gr:lock:${name}`;
    const token = randomUUID();
    const deadline = Date.now() + wait;
    for (;;) {
      if (!link.up) return async () => undefined;
      const got = await link.cmd.set(key, token, 'PX', ttl, 'NX').catch(() => null);
      if (got === 'OK') return async () => void (await link.cmd.eval(RELEASE, 1, key, token).catch(() => undefined));
      if (Date.now() > deadline) return async () => undefined;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
}
