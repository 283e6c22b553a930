import { describe, expect, it, vi } from 'vitest';
import { EarnBatcher, earnLane } from './earn-batcher';
import type { EarnEntry } from './points-repository';

const entry = (i: number): EarnEntry => ({
  channelId: 'c',
  identity: { provider: 'twitch', providerUserId: `u${i}`, login: `u${i}`, displayName: `U${i}` },
  amount: 1,
  kind: 'chat',
  key: `k${i}`,
});

/** An apply whose batches finish when the test says, recording what ran at once. */
function controlled() {
  const running: { size: number; finish: () => void; fail: (e: Error) => void }[] = [];
  let active = 0;
  let most = 0;
  const apply = (entries: readonly EarnEntry[]) =>
    new Promise<number>((resolve, reject) => {
      active += 1;
      most = Math.max(most, active);
      const end = () => (active -= 1);
      running.push({
        size: entries.length,
        finish: () => {
          end();
          resolve(entries.length);
        },
        fail: (e) => {
          end();
          reject(e);
        },
      });
    });
  return { running, apply, most: () => most };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('EarnBatcher', () => {
  it('runs one batch per lane at once, each up to the batch size, a viewer always in the same lane, and everything resolves', async () => {
    const running: { entries: readonly EarnEntry[]; finish: () => void }[] = [];
    let active = 0;
    let most = 0;
    const apply = (entries: readonly EarnEntry[]) =>
      new Promise<number>((resolve) => {
        // No two batches committing at once share a viewer.
        const viewers = new Set(entries.map((e) => e.identity.providerUserId));
        for (const other of running) for (const e of other.entries) expect(viewers.has(e.identity.providerUserId)).toBe(false);
        active += 1;
        most = Math.max(most, active);
        const self = {
          entries,
          finish: () => {
            running.splice(running.indexOf(self), 1);
            active -= 1;
            resolve(entries.length);
          },
        };
        running.push(self);
      });
    const batcher = new EarnBatcher(apply, 10, 2);
    let done = 0;
    // 60 entries for 15 viewers (4 each), so every lane has several batches and a viewer recurs across batches.
    for (let i = 0; i < 60; i++) void batcher.add(entry(i % 15)).then(() => (done += 1));
    await turn();
    expect(running).toHaveLength(2);
    expect(running.every((b) => b.entries.length <= 10)).toBe(true);
    const laneOf = new Map<string, number>();
    let finished = 0;
    while (running.length > 0) {
      for (const b of running)
        for (const e of b.entries) {
          const lane = earnLane(e, 2);
          expect(laneOf.get(e.identity.providerUserId) ?? lane).toBe(lane);
          laneOf.set(e.identity.providerUserId, lane);
        }
      running[0]!.finish();
      finished += 1;
      await turn();
    }
    await batcher.idle();
    expect(done).toBe(60);
    expect(most).toBe(2);
    expect(batcher.stats).toEqual({ batches: finished, entries: 60, applied: 60 });
    expect(finished).toBeGreaterThanOrEqual(6);
  });

  it('one at a time by default; a failed batch rejects only its own entries', async () => {
    const c = controlled();
    const batcher = new EarnBatcher(c.apply, 3);
    const results = Array.from({ length: 6 }, (_, i) =>
      batcher.add(entry(i)).then(
        () => 'ok',
        () => 'failed',
      ),
    );
    await turn();
    expect(c.running).toHaveLength(1);
    c.running[0]!.fail(new Error('database down'));
    await turn();
    expect(c.running).toHaveLength(2);
    c.running[1]!.finish();
    expect(await Promise.all(results)).toEqual(['failed', 'failed', 'failed', 'ok', 'ok', 'ok']);
    await batcher.idle();
  });

  it('with a linger, a lane starts a batch that is not full only once the linger has passed since its last one; a full one at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    try {
      const sizes: number[] = [];
      const batcher = new EarnBatcher(
        async (entries) => {
          sizes.push(entries.length);
          return entries.length;
        },
        5,
        1,
        100,
      );
      void batcher.add(entry(0));
      await turn();
      expect(sizes).toEqual([1]);
      // Within the linger: gathered, not started.
      for (let i = 1; i <= 3; i++) void batcher.add(entry(i));
      await turn();
      expect(sizes).toEqual([1]);
      await vi.advanceTimersByTimeAsync(100);
      expect(sizes).toEqual([1, 3]);
      // A full batch does not wait for the linger.
      for (let i = 4; i < 9; i++) void batcher.add(entry(i));
      await turn();
      expect(sizes).toEqual([1, 3, 5]);
      void batcher.add(entry(9));
      const idle = batcher.idle();
      await vi.advanceTimersByTimeAsync(100);
      await idle;
      expect(sizes).toEqual([1, 3, 5, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('idle resolves at once when nothing is waiting', async () => {
    await new EarnBatcher(async () => 0).idle();
  });
});
