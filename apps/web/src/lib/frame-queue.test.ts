import { describe, expect, it, vi } from 'vitest';
import { FrameQueue, type FlushScheduler } from './frame-queue';

function manualScheduler() {
  const pending: (() => void)[] = [];
  const schedule: FlushScheduler = (flush) => {
    pending.push(flush);
    return () => {
      const i = pending.indexOf(flush);
      if (i >= 0) pending.splice(i, 1);
    };
  };
  return { schedule, pending, runFrame: () => pending.splice(0).forEach((f) => f()) };
}

describe('frame queue', () => {
  it('delivers everything pushed before a frame as one batch, in order', () => {
    const frames = manualScheduler();
    const onFlush = vi.fn();
    const queue = new FrameQueue<number>(onFlush, { schedule: frames.schedule });
    for (let i = 0; i < 5; i += 1) queue.push(i);
    expect(frames.pending).toHaveLength(1);
    expect(onFlush).not.toHaveBeenCalled();
    frames.runFrame();
    expect(onFlush).toHaveBeenCalledTimes(1);
    expect(onFlush).toHaveBeenCalledWith([0, 1, 2, 3, 4]);
  });

  it('schedules a new frame only after a flush', () => {
    const frames = manualScheduler();
    const batches: number[][] = [];
    const queue = new FrameQueue<number>((b) => batches.push(b), { schedule: frames.schedule });
    queue.push(1);
    frames.runFrame();
    queue.push(2);
    queue.push(3);
    frames.runFrame();
    frames.runFrame();
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('keeps at most maxSize items, dropping the oldest', () => {
    const frames = manualScheduler();
    const onFlush = vi.fn();
    const queue = new FrameQueue<number>(onFlush, { schedule: frames.schedule, maxSize: 3 });
    for (let i = 0; i < 10; i += 1) queue.push(i);
    expect(queue.size).toBe(3);
    frames.runFrame();
    expect(onFlush).toHaveBeenCalledWith([7, 8, 9]);
  });

  it('flushes synchronously on demand and does nothing after dispose', () => {
    const frames = manualScheduler();
    const onFlush = vi.fn();
    const queue = new FrameQueue<string>(onFlush, { schedule: frames.schedule });
    queue.push('a');
    queue.flush();
    expect(onFlush).toHaveBeenCalledWith(['a']);
    expect(frames.pending).toHaveLength(0);
    queue.push('b');
    queue.dispose();
    frames.runFrame();
    expect(onFlush).toHaveBeenCalledTimes(1);
  });

  it('uses requestAnimationFrame by default', async () => {
    const onFlush = vi.fn();
    const queue = new FrameQueue<number>(onFlush);
    queue.push(1);
    queue.push(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(onFlush).toHaveBeenCalledWith([1, 2]);
  });

  it('with minIntervalMs, waits that long after the previous flush before asking for a frame (a quiet stream does not wait)', () => {
    vi.useFakeTimers();
    try {
      let clock = 1000;
      const frames = manualScheduler();
      const batches: number[][] = [];
      const queue = new FrameQueue<number>((b) => batches.push(b), { schedule: frames.schedule, minIntervalMs: 100, now: () => clock });
      queue.push(1);
      expect(frames.pending).toHaveLength(1); // nothing flushed yet: next frame
      frames.runFrame();
      clock += 16;
      queue.push(2);
      queue.push(3);
      expect(frames.pending).toHaveLength(0); // 16 ms after a flush: wait
      vi.advanceTimersByTime(83);
      expect(frames.pending).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(frames.pending).toHaveLength(1);
      clock += 84;
      frames.runFrame();
      expect(batches).toEqual([[1], [2, 3]]);
      clock += 500;
      queue.push(4);
      expect(frames.pending).toHaveLength(1); // long after the last flush: next frame again
      queue.dispose();
      vi.advanceTimersByTime(1000);
      frames.runFrame();
      expect(batches).toEqual([[1], [2, 3]]);
    } finally {
      vi.useRealTimers();
    }
  });
});
