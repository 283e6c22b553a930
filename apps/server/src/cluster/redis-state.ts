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

/**
 * A job every instance runs on a timer but only one should (validating a shared system bot's token): the first
 * instance to ask in a period runs it (SET NX with the period as expiry). While Redis is away every instance runs it.
 */
export function redisOnce(link: RedisLink) {
  return async (job: string, periodMs: number): Promise<boolean> => {
    if (!link.up) return true;
    // A little under the period, so the next period's first ask is not refused by a key about to expire.
    const got = await link.cmd.set(`gr:once:${job}`, '1', 'PX', Math.max(1, Math.floor(periodMs * 0.9)), 'NX').catch(() => 'OK');
    return got === 'OK';
  };
}

/**
 * Slots of a per-address cap in a sorted set per address: a member per open socket, scored by when it lapses
 * (Redis's clock). Lapsed members (an instance that died without releasing) are dropped before counting.
 */
const CAP_TAKE = `
local key, cap, ttl, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
if redis.call('ZCARD', key) >= cap then return 0 end
redis.call('ZADD', key, now + ttl, member)
redis.call('PEXPIRE', key, ttl)
return 1
`;

const CAP_RENEW = `
local ttl = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + ttl, ARGV[i + 1])
  redis.call('PEXPIRE', key, ttl)
end
return 0
`;

/** How long a slot lasts without renewal (renewed every third of it while its socket is open). */
const CAP_TTL_MS = 60_000;

/**
 * Per-address caps of public sockets counted across instances. While Redis is away each instance caps on its own
 * (the same limit, `fallback`); a slot taken then is not counted in Redis.
 */
export function redisSocketCaps(
  link: RedisLink,
  processId: string,
  fallback: (perIp: number) => { acquire(ip: string): (() => void) | null },
) {
  const held = new Map<string, string>(); // member → key
  let seq = 0;
  const renew = setInterval(() => {
    if (!link.up || held.size === 0) return;
    const entries = [...held];
    void link.cmd
      .eval(CAP_RENEW, entries.length, ...entries.map(([, key]) => key), CAP_TTL_MS, ...entries.map(([member]) => member))
      .catch(() => undefined);
  }, CAP_TTL_MS / 3);
  renew.unref();
  return (name: string, perIp: number) => {
    const local = fallback(perIp);
    return {
      async acquire(ip: string): Promise<(() => void) | null> {
        if (!link.up) return local.acquire(ip);
        const key = `gr:cap:${name}:${ip}`;
        const member = `${processId}:${++seq}`;
        let got: unknown;
        try {
          got = await link.cmd.eval(CAP_TAKE, 1, key, perIp, CAP_TTL_MS, member);
        } catch {
          return local.acquire(ip);
        }
        if (Number(got) !== 1) return null;
        held.set(member, key);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          held.delete(member);
          if (link.up) link.cmd.zrem(key, member).catch(() => undefined);
        };
      },
    };
  };
}
