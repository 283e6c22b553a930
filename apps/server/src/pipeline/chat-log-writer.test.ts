import { describe, expect, it } from 'vitest';
import { chatMessage } from '../../test/chat-fixtures';
import { rowKey, type WriteBatch, type WriteResult } from './chat-log-store';
import { ChatLogWriter, type WriteItem } from './chat-log-writer';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function result(batch: WriteBatch, rejected: string[] = []): WriteResult {
  const messages = new Map<string, number>();
  batch.messages.forEach((m, i) => {
    const key = rowKey(m.channel_id, m.id);
    if (!rejected.includes(key)) messages.set(key, i + 1);
  });
  return { messages, activities: new Map(), moderation: new Set(), rejected: new Set(rejected), existing: new Set(), effects: 0 };
}

/** An item of `n` messages; records when it was committed or abandoned. */
function item(log: string[], name: string, n = 1, retryable = false): WriteItem & { outcome: () => string | null } {
  let outcome: string | null = null;
  const batch: WriteBatch = {
    messages: Array.from({ length: n }, (_, i) => chatMessage(0, { id: `${name}-${i}` })),
    moderation: [],
    activities: [],
    gaps: [],
    effects: [],
    states: [],
  };
  return {
    batch,
    rows: n,
    retryable,
    committed: () => {
      outcome = 'committed';
      log.push(name);
    },
    abandoned: () => {
      outcome = 'abandoned';
      log.push(`abandoned ${name}`);
    },
    outcome: () => outcome,
  };
}

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe('ChatLogWriter (group commit)', () => {
  it('commits a batch every maxBatchRows rows or maxDelayMs, one transaction at a time, in order', async () => {
    const batches: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const writer = new ChatLogWriter(
      {
        write: async (b) => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await sleep(5);
          inFlight--;
          batches.push(b.messages.length);
          return result(b);
        },
      },
      { maxBatchRows: 10, maxDelayMs: 20, log: silent },
    );
    const log: string[] = [];
    for (let i = 0; i < 25; i++) writer.submit(item(log, `m${i}`));
    await writer.flush();
    expect(log).toEqual(Array.from({ length: 25 }, (_, i) => `m${i}`));
    expect(batches.every((n) => n <= 10)).toBe(true);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(25);
    expect(maxInFlight).toBe(1);
  });

  it('waits for maxBatchRows rows or maxDelayMs, whichever comes first', async () => {
    const batches: number[] = [];
    const writer = new ChatLogWriter(
      { write: async (b) => (batches.push(b.messages.length), result(b)) },
      { maxBatchRows: 10, maxDelayMs: 60_000, log: silent },
    );
    const log: string[] = [];
    for (let i = 0; i < 9; i++) writer.submit(item(log, `m${i}`));
    await sleep(20);
    expect(batches).toEqual([]);
    writer.submit(item(log, 'm9'));
    while (batches.length === 0) await sleep(1);
    expect(batches).toEqual([10]);
  });

  it('retries a batch the database could not take (transient) with backoff, never dropping it; status says delayed meanwhile', async () => {
    let failures = 3;
    const statuses: string[] = [];
    const writer = new ChatLogWriter(
      {
        write: async (b) => {
          if (failures-- > 0) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
          return result(b);
        },
      },
      { maxDelayMs: 1, backoff: { baseMs: 5, maxMs: 20 }, log: silent, onStatus: (s) => void statuses.push(s.state) },
    );
    const log: string[] = [];
    const a = item(log, 'a');
    writer.submit(a);
    await sleep(3);
    expect(writer.status.state).toBe('delayed');
    writer.submit(item(log, 'b'));
    await writer.flush();
    expect(log).toEqual(['a', 'b']);
    expect(writer.stats.retries).toBe(3);
    expect(statuses).toEqual(['delayed', 'ok']);
  });

  it('while writes fail, refuses what the platform will deliver again, holds the rest up to holdRows', async () => {
    let down = true;
    const writer = new ChatLogWriter(
      {
        write: async (b) => {
          if (down) throw pgError('57P01');
          return result(b);
        },
      },
      { maxDelayMs: 1, holdRows: 5, backoff: { baseMs: 5, maxMs: 5 }, log: silent },
    );
    const log: string[] = [];
    writer.submit(item(log, 'first', 2));
    await sleep(5);
    expect(writer.submit(item(log, 'kick', 1, true))).toBe(false);
    expect(writer.submit(item(log, 'twitch1', 2))).toBe(true);
    expect(writer.submit(item(log, 'twitch2', 2))).toBe(false);
    expect(writer.held).toBe(4);
    expect(writer.stats.refused).toBe(2);
    down = false;
    await writer.flush();
    expect(log).toEqual(['first', 'twitch1']);
    expect(writer.submit(item(log, 'kick again', 1, true))).toBe(true);
    await writer.flush();
  });

  it('a row the database refuses fails only itself: the batch is written again row by row', async () => {
    const calls: boolean[] = [];
    const poison = rowKey('c1', 'b-0');
    const writer = new ChatLogWriter(
      {
        write: async (b, o) => {
          calls.push(o?.isolate ?? false);
          if (!o?.isolate && b.messages.some((m) => rowKey(m.channel_id, m.id) === poison)) throw pgError('22021');
          return result(b, b.messages.some((m) => rowKey(m.channel_id, m.id) === poison) ? [poison] : []);
        },
      },
      { maxDelayMs: 50, log: silent },
    );
    const log: string[] = [];
    for (const name of ['a', 'b', 'c']) writer.submit(item(log, name));
    await writer.flush();
    expect(log).toEqual(['a', 'b', 'c']);
    expect(calls).toEqual([false, true]);
    expect(writer.stats.rejected).toBe(1);
  });

  it('an item whose batch-level data is refused even alone is abandoned; the others are written', async () => {
    const writer = new ChatLogWriter(
      {
        write: async (b) => {
          if (b.messages.some((m) => m.id.startsWith('bad'))) throw pgError('23503');
          return result(b);
        },
      },
      { maxDelayMs: 50, log: silent },
    );
    const log: string[] = [];
    for (const name of ['a', 'bad', 'c', 'd']) writer.submit(item(log, name));
    await writer.flush();
    expect(log).toEqual(['a', 'abandoned bad', 'c', 'd']);
    expect(writer.stats.abandoned).toBe(1);
    expect(writer.held).toBe(0);
  });

  it('at shutdown gives the database a deadline, then abandons what it could not write', async () => {
    const writer = new ChatLogWriter(
      {
        write: async () => {
          throw pgError('08006');
        },
      },
      { maxDelayMs: 1, backoff: { baseMs: 5, maxMs: 5 }, log: silent },
    );
    const log: string[] = [];
    const a = item(log, 'a', 1, true);
    writer.submit(a);
    await writer.close(50);
    expect(a.outcome()).toBe('abandoned');
    expect(writer.submit(item(log, 'after'))).toBe(false);
  });
});
