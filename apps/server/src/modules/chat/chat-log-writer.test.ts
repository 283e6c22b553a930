import { describe, expect, it } from 'vitest';
import type { ChannelStreamEvent } from '@greenroom/contracts/api/events';
import { ChatLogWriter, RetentionJob } from './chat-log-writer';
import { chatMessage } from '../../../test/chat-fixtures';

const silent = { warn: () => {}, error: () => {}, info: () => {} };

describe('ChatLogWriter', () => {
  it('writes in batches of at most batchSize, in order, off the caller path', async () => {
    const batches: ChannelStreamEvent[][] = [];
    const writer = new ChatLogWriter(
      { writeBatch: async (b) => void batches.push([...b]) },
      { batchSize: 100, batchDelayMs: 5, log: silent },
    );
    const events = Array.from({ length: 250 }, (_, i): ChannelStreamEvent => ({ type: 'chat.message', data: chatMessage(i) }));
    await writer.write(events);
    await writer.flush();
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches.flat().map((e) => (e.data as { id: string }).id)).toEqual(events.map((e) => (e.data as { id: string }).id));
  });

  it('bounds the queue: drops the oldest chat messages first, keeps moderation, logs the drop', async () => {
    const warnings: object[] = [];
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    const written: ChannelStreamEvent[] = [];
    const writer = new ChatLogWriter(
      {
        writeBatch: async (b) => {
          await blocked;
          written.push(...b);
        },
      },
      { batchSize: 10, batchDelayMs: 1, maxQueued: 50, log: { ...silent, warn: (o) => void warnings.push(o) } },
    );
    // The first batch blocks the writer; the queue then fills past maxQueued.
    for (let i = 0; i < 10; i++) writer.push({ type: 'chat.message', data: chatMessage(i) });
    await new Promise((r) => setTimeout(r, 10));
    const mod = { type: 'chat.moderation', data: { id: 'mod1' } } as unknown as ChannelStreamEvent;
    writer.push(mod);
    for (let i = 10; i < 200; i++) writer.push({ type: 'chat.message', data: chatMessage(i) });
    expect(writer.pending).toBe(50);
    expect(writer.stats.dropped).toBe(141);
    expect(warnings).toHaveLength(1);
    release();
    await writer.close();
    expect(written.some((e) => e === mod)).toBe(true);
    expect((written[written.length - 1]!.data as { id: string }).id).toBe('twitch:m199');
  });

  it('logs and drops a failed batch, then keeps writing', async () => {
    const errors: object[] = [];
    let calls = 0;
    const writer = new ChatLogWriter(
      {
        writeBatch: async () => {
          if (calls++ === 0) throw new Error('db down');
        },
      },
      { batchSize: 1, batchDelayMs: 1, log: { ...silent, error: (o) => void errors.push(o) } },
    );
    writer.push({ type: 'chat.message', data: chatMessage(1) });
    writer.push({ type: 'chat.message', data: chatMessage(2) });
    await writer.close();
    expect(errors).toHaveLength(1);
    expect(writer.stats).toMatchObject({ written: 1, failedBatches: 1 });
  });
});

describe('RetentionJob', () => {
  it('purges with the configured days and stops cleanly', async () => {
    const calls: number[] = [];
    const job = new RetentionJob({ purgeOlderThan: async (d) => (calls.push(d), 3) }, 30, silent, 10);
    job.start(5);
    await new Promise((r) => setTimeout(r, 35));
    await job.stop();
    const n = calls.length;
    expect(n).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 25));
    expect(calls.length).toBe(n);
    expect(calls.every((d) => d === 30)).toBe(true);
  });
});
