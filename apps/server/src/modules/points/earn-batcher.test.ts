import { describe, expect, it } from 'vitest';
import { EarnBatcher } from './earn-batcher';
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
  it('runs at most `concurrency` batches at once, each up to the batch size, and everything resolves', async () => {
    const c = controlled();
    const batcher = new EarnBatcher(c.apply, 10, 2);
    let done = 0;
    for (let i = 0; i < 45; i++) void batcher.add(entry(i)).then(() => (done += 1));
    await turn();
    expect(c.running.map((b) => b.size)).toEqual([10, 10]);
    c.running[0]!.finish();
    await turn();
    // A free slot takes the next batch at once.
    expect(c.running.map((b) => b.size)).toEqual([10, 10, 10]);
    expect(done).toBe(10);
    let idle = false;
    void batcher.idle().then(() => (idle = true));
    for (let i = 1; i < 4; i++) {
      c.running[i]!.finish();
      await turn();
    }
    expect(c.running.map((b) => b.size)).toEqual([10, 10, 10, 10, 5]);
    expect(idle).toBe(false);
    c.running[4]!.finish();
    await batcher.idle();
    expect(idle).toBe(true);
    expect(done).toBe(45);
    expect(c.most()).toBe(2);
    expect(batcher.stats).toEqual({ batches: 5, entries: 45, applied: 45 });
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

  it('idle resolves at once when nothing is waiting', async () => {
    await new EarnBatcher(async () => 0).idle();
  });
});
