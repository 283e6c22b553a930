import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';
import { BoundedSet } from '../lib/bounded-set';
import { SendQueue, sendRateLimit } from './send-queue';

describe('SendQueue', () => {
  it('sends at most `limit` per window per sender, queues the rest in order, and refuses an overlong queue', async () => {
    let now = 0;
    const q = new SendQueue({ maxQueued: 3, now: () => now });
    const sent: number[] = [];
    const limit = { limit: 2, windowMs: 1000 };
    const all = [1, 2, 3, 4, 5].map((i) => q.run('a', limit, async () => sent.push(i)));
    await Promise.resolve();
    expect(sent).toEqual([1, 2]);
    await expect(q.run('a', limit, async () => 0)).rejects.toMatchObject({ status: 429 });
    expect(q.queued('a')).toBe(3);
    // Another sender is not held up.
    await q.run('b', limit, async () => sent.push(9));
    expect(sent).toEqual([1, 2, 9]);
    now = 1000;
    await new Promise((r) => setTimeout(r, 1050));
    await Promise.all(all.slice(0, 4));
    expect(sent.slice(3)).toEqual([3, 4]);
    q.close();
    await expect(all[4]).rejects.toMatchObject({ status: 502 });
  });

  it('uses Twitch 20/30 s, 100/30 s for the broadcaster or a moderator', () => {
    expect(sendRateLimit('twitch', false).limit).toBe(20);
    expect(sendRateLimit('twitch', true).limit).toBe(100);
    expect(sendRateLimit('twitch', true).windowMs).toBeGreaterThan(30_000);
  });
});

describe('BoundedSet and backoff', () => {
  it('remembers the last `capacity` keys', () => {
    const s = new BoundedSet(3);
    expect(['a', 'b', 'c'].map((k) => s.add(k))).toEqual([true, true, true]);
    expect(s.add('a')).toBe(false);
    expect(s.add('d')).toBe(true);
    expect(s.add('a')).toBe(true);
    expect(s.size).toBe(3);
  });

  it('grows exponentially with jitter, capped', () => {
    expect(backoffDelay(0, { baseMs: 100, random: () => 0 })).toBe(50);
    expect(backoffDelay(3, { baseMs: 100, random: () => 1 })).toBe(800);
    expect(backoffDelay(30, { baseMs: 100, maxMs: 5000, random: () => 1 })).toBe(5000);
  });
});
