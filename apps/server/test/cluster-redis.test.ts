/**
 * The Redis implementations behind the shared interfaces, on a throw-away redis-server: the bus between two
 * instances (each event once, never echoed back to its publisher), Redis going away and coming back (local delivery
 * goes on, sharing resumes), and the chat send window two instances share (together never over the limit).
 * Skipped, saying why, when redis-server is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusEvent } from '@greenroom/contracts/bus';
import { connectRedis, type RedisLink } from '../src/cluster/redis-link';
import { RedisEventBus } from '../src/cluster/redis-bus';
import { redisLock, redisSendWindow } from '../src/cluster/redis-state';
import { SendQueue } from '../src/platforms/send-queue';
import { redisMissing, redisServerBin, startRedisServer, type RedisServer } from './redis-server';

const skipWhy = redisServerBin() ? null : redisMissing;
if (skipWhy) console.warn(`Redis tests skipped: ${skipWhy}`);
const withRedis = skipWhy ? describe.skip : describe;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let redis: RedisServer;
const links: RedisLink[] = [];

async function link(): Promise<RedisLink> {
  const l = connectRedis(redis.url, quiet);
  links.push(l);
  await until(() => l.up);
  return l;
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

const status = (n: number): BusEvent => ({
  type: 'stream.status',
  data: {
    channel_id: 'c',
    channel_provider_id: `cp-${n}`,
    provider: 'twitch',
    is_live: true,
    viewer_count: n,
    title: null,
    category: null,
    started_at: null,
    live_stream_id: null,
  },
});

beforeAll(async () => {
  if (!skipWhy) redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(links.map((l) => l.close()));
  await redis?.stop();
});

withRedis('the bus across instances', () => {
  it('delivers each event once to every instance with a subscriber, in order, never back to its publisher', async () => {
    const [la, lb] = [await link(), await link()];
    const a = new RedisEventBus(la, 'a', quiet);
    const b = new RedisEventBus(lb, 'b', quiet);
    const onA: BusEvent[] = [];
    const onB: BusEvent[] = [];
    a.subscribe('channel:c1', (e) => onA.push(e));
    b.subscribe('channel:c1', (e) => onB.push(e));
    b.subscribe('channel:other', () => onB.push(status(-1)));
    await sleep(100);
    for (let i = 0; i < 20; i++) a.publish('channel:c1', status(i));
    await until(() => onB.length === 20);
    await sleep(100);
    expect(onA.map((e) => (e.data as { viewer_count: number }).viewer_count)).toEqual([...Array(20).keys()]);
    expect(onB).toEqual(onA);
    // An instance without a subscriber of the topic does not receive it.
    expect(b.stats.received).toBe(20);
    await a.close();
    await b.close();
  });

  it('keeps delivering locally while Redis is down and shares again when it is back', async () => {
    const [la, lb] = [await link(), await link()];
    const a = new RedisEventBus(la, 'a2', quiet);
    const b = new RedisEventBus(lb, 'b2', quiet);
    const onA: BusEvent[] = [];
    const onB: BusEvent[] = [];
    a.subscribe('channel:c2', (e) => onA.push(e));
    b.subscribe('channel:c2', (e) => onB.push(e));
    await sleep(100);
    await redis.kill();
    await until(() => !la.up && !lb.up);
    a.publish('channel:c2', status(1));
    expect(onA).toHaveLength(1);
    expect(a.stats.unshared).toBe(1);
    await redis.start();
    await until(() => la.up && lb.up, 15_000);
    // Subscriptions are made again after the reconnect.
    await sleep(200);
    a.publish('channel:c2', status(2));
    await until(() => onB.length === 1);
    expect((onB[0]!.data as { viewer_count: number }).viewer_count).toBe(2);
    await a.close();
    await b.close();
  }, 40_000);
});

withRedis('shared state', () => {
  it('two instances sending as one account stay under the platform limit together', async () => {
    const [la, lb] = [await link(), await link()];
    const limit = { limit: 5, windowMs: 1_000 };
    const times: number[] = [];
    const queues = [new SendQueue({ shared: redisSendWindow(la) }), new SendQueue({ shared: redisSendWindow(lb) })];
    await Promise.all(
      queues.flatMap((q) =>
        Array.from({ length: 8 }, () =>
          q.run('cp-1:bot', limit, async () => {
            times.push(Date.now());
          }),
        ),
      ),
    );
    expect(times).toHaveLength(16);
    times.sort((x, y) => x - y);
    // Any 5 + 1 consecutive sends span at least one window (a little slack for the two clocks of one machine).
    for (let i = limit.limit; i < times.length; i++)
      expect(times[i]! - times[i - limit.limit]!).toBeGreaterThanOrEqual(limit.windowMs - 20);
    for (const q of queues) q.close();
  }, 20_000);

  it('a credential lock lets one holder in at a time', async () => {
    const [la, lb] = [await link(), await link()];
    const [lockA, lockB] = [redisLock(la), redisLock(lb)];
    const order: string[] = [];
    const releaseA = await lockA('cred-1');
    const waiting = lockB('cred-1').then(async (release) => {
      order.push('b');
      await release();
    });
    await sleep(200);
    order.push('a');
    await releaseA();
    await waiting;
    expect(order).toEqual(['a', 'b']);
  });
});
