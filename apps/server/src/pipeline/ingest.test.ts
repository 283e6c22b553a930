/** The pipeline against a real (embedded) database: commit before publish, dedupe, stages, effects, is_self, state. */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusEvent } from '@greenroom/contracts/bus';
import { openDatabase, type Database } from '../db/client';
import { channelProviders, channels, chatMessages, pipelineEffects } from '../db/schema';
import { LocalEventBus } from '../lib/event-bus';
import { platformChat } from '../../test/chat-fixtures';
import { IngestPipeline, type IngestSource } from './ingest';
import { EffectRefused, type ChatStage, type EffectHandler } from './stage';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
let database: Database;
const source: IngestSource = { channelId: 'c1', channelProviderId: 'cp1', provider: 'twitch', providerChannelId: 'b1', botUserId: 'bot1' };
const viewer = { id: 'v1', name: 'Viewer' };

function pipeline(
  options: { stages?: ChatStage[]; handlers?: EffectHandler[]; alone?: boolean; outbox?: { concurrency?: number; pollMs?: number } } = {},
) {
  const bus = new LocalEventBus(silent);
  const published: BusEvent[] = [];
  bus.subscribe('channel:c1', (e) => void published.push(e));
  const p = new IngestPipeline({
    db: database.db,
    bus,
    log: silent,
    writer: { maxDelayMs: 1 },
    outbox: {
      pollMs: 20,
      backoff: { baseMs: 10, maxMs: 20 },
      ...(options.alone === false ? { alone: false, orphanGraceMs: 0 } : {}),
      ...options.outbox,
    },
  });
  for (const s of options.stages ?? []) p.addStage(s);
  for (const h of options.handlers ?? []) p.addEffectHandler(h);
  return { p, published, bus };
}

const messages = (published: BusEvent[]) => published.flatMap((e) => (e.type === 'chat.message' ? [e] : []));

beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  await database.db.insert(channels).values({ id: 'c1', displayName: 'Pipeline' });
  await database.db
    .insert(channelProviders)
    .values({ id: 'cp1', channelId: 'c1', provider: 'twitch', providerChannelId: 'b1', providerChannelName: 'b1' });
});
afterAll(async () => {
  await database?.close();
});

describe('ingest pipeline', () => {
  it('publishes only after the commit, with the log position; a redelivery waits for the first copy and is not published again', async () => {
    const { p, published } = pipeline();
    const first = p.submit(source, [platformChat('a1', 'hello', viewer)]);
    const again = p.submit(source, [platformChat('a1', 'hello', viewer)]);
    expect(messages(published)).toHaveLength(0);
    await Promise.all([first, again]);
    const [m] = messages(published);
    const [row] = await database.db.select().from(chatMessages).where(eq(chatMessages.id, 'twitch:a1'));
    expect(m).toMatchObject({ seq: row!.seq, data: { id: 'twitch:a1', text: 'hello', author: { is_self: false }, filtered: null } });
    await p.submit(source, [platformChat('a1', 'hello', viewer)]);
    expect(messages(published)).toHaveLength(1);
    expect(p.stats.duplicates).toBe(2);
    await p.close();
  });

  it('a replay after a restart (a fresh pipeline) is a duplicate by id: not published, its effects not stored again', async () => {
    const ping: ChatStage = {
      name: 'ping',
      phase: 'command',
      onMessage: (m, out) => {
        if (m.message.text === '!ping' && !m.isSelf) out.effect({ kind: 'test.reply', channelId: m.message.channel_id, payload: 'pong' });
      },
    };
    const one = pipeline({ stages: [ping] });
    await one.p.submit(source, [platformChat('r1', '!ping', viewer)]);
    await one.p.close();
    const two = pipeline({ stages: [ping] });
    await two.p.submit(source, [platformChat('r1', '!ping', viewer)]);
    expect(messages(two.published)).toEqual([]);
    const effects = await database.db.select().from(pipelineEffects).where(eq(pipelineEffects.sourceId, 'twitch:r1'));
    expect(effects).toHaveLength(1);
    await two.p.close();
  });

  it('stores a filtered message marked; staff get it marked; the public never', async () => {
    const filter: ChatStage = {
      name: 'caps',
      phase: 'moderation',
      onMessage: (m, out) => {
        if (m.message.text === m.message.text.toUpperCase()) out.filter({ stage: 'caps', reason: 'Too many capitals' });
      },
    };
    const { p, published } = pipeline({ stages: [filter] });
    await p.submit(source, [platformChat('f1', 'LOUD NOISES', viewer), platformChat('f2', 'quiet', viewer)]);
    const [loud, quiet] = messages(published);
    expect(loud!.data.filtered).toEqual({ stage: 'caps', reason: 'Too many capitals' });
    expect(quiet!.data.filtered).toBeNull();
    const [row] = await database.db.select().from(chatMessages).where(eq(chatMessages.id, 'twitch:f1'));
    expect(row).toMatchObject({ filterStage: 'caps', filterReason: 'Too many capitals' });
    await p.close();
  });

  it('marks Greenroom’s own messages: the bot account, an id Greenroom sent, the echo of a send in flight', async () => {
    const { p, published } = pipeline();
    const done = p.self.beginSend('cp1', 'broadcaster', 'hello from the dashboard');
    await p.submit(source, [
      platformChat('s1', 'I am the bot', { id: 'bot1', name: 'Bot' }),
      platformChat('s2', 'hello from the dashboard', { id: 'broadcaster', name: 'Streamer' }),
      platformChat('s3', 'hello from the dashboard', { id: 'broadcaster', name: 'Streamer' }),
    ]);
    done('s4');
    await p.submit(source, [platformChat('s4', 'sent earlier', { id: 'broadcaster', name: 'Streamer' })]);
    expect(messages(published).map((m) => [m.data.provider_message_id, m.data.author.is_self])).toEqual([
      ['s1', true],
      ['s2', true],
      ['s3', false],
      ['s4', true],
    ]);
    await p.close();
  });

  it('stores connection state in the same transaction as the messages it covers', async () => {
    const { p } = pipeline();
    await p.submit(source, [platformChat('y1', 'page one', viewer)], { state: { pageToken: 'next-1' }, retryable: true });
    const [row] = await database.db.select({ state: channelProviders.state }).from(channelProviders).where(eq(channelProviders.id, 'cp1'));
    expect(row!.state).toMatchObject({ pageToken: 'next-1' });
    await p.close();
  });

  it('one hostile message never fails the others of its batch', async () => {
    const { p, published } = pipeline();
    const texts = ['nul \u0000 inside', 'lone \ud800 high', 'lone \udc00 low', 'fine 😀', 'x'.repeat(10_000)];
    await Promise.all(texts.map((text, i) => p.submit(source, [platformChat(`h${i}`, text, { id: `u\u0000${i}`, name: 'N\ud800' })])));
    expect(messages(published)).toHaveLength(texts.length);
    const rows = await database.db
      .select({ text: chatMessages.text })
      .from(chatMessages)
      .where(sql`${chatMessages.id} like 'twitch:h%'`);
    expect(rows).toHaveLength(texts.length);
    await p.close();
  });
});

describe('effects: exactly once', () => {
  const reply = (stageName: string, kind: string): ChatStage => ({
    name: stageName,
    phase: 'command',
    onMessage: (m, out) => {
      if (m.message.text.startsWith('!') && !m.isSelf)
        out.effect({ kind, channelId: m.message.channel_id, payload: { text: m.message.text } });
    },
  });
  const until = async (check: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 500 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('runs each stored effect once after its commit; a failure is retried; past maxAttempts it is failed', async () => {
    const runs: string[] = [];
    let flaky = 2;
    const { p } = pipeline({
      stages: [reply('r', 'test.once')],
      handlers: [
        {
          kind: 'test.once',
          maxAttempts: 3,
          run: async (e) => {
            const text = (e.payload as { text: string }).text;
            runs.push(text);
            if (text === '!flaky' && flaky-- > 0) throw new Error('platform said 503');
            if (text === '!never') throw new Error('always fails');
          },
        },
      ],
    });
    await p.start();
    await p.submit(source, [
      platformChat('e1', '!hello', viewer),
      platformChat('e2', '!flaky', viewer),
      platformChat('e3', '!never', viewer),
    ]);
    await until(async () => {
      const rows = await database.db.select().from(pipelineEffects).where(eq(pipelineEffects.kind, 'test.once'));
      return rows.length === 3 && rows.every((r) => r.status === 'done' || r.status === 'failed');
    });
    const rows = await database.db.select().from(pipelineEffects).where(eq(pipelineEffects.kind, 'test.once'));
    expect(Object.fromEntries(rows.map((r) => [r.sourceId, [r.status, r.attempts]]))).toEqual({
      'twitch:e1': ['done', 1],
      'twitch:e2': ['done', 3],
      'twitch:e3': ['failed', 3],
    });
    expect(runs.filter((r) => r === '!hello')).toHaveLength(1);
    await p.close();
  });

  it('more effects than it runs at once: each runs once when a run ends, without waiting for the backstop poll; all are marked done', async () => {
    const runs: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { p } = pipeline({
      stages: [reply('r', 'test.backlog')],
      handlers: [
        {
          kind: 'test.backlog',
          run: async (e) => {
            runs.push((e.payload as { text: string }).text);
            await gate;
          },
        },
      ],
      // Two at a time, and no poll within the test: only the outbox's own bookkeeping can start the rest.
      outbox: { concurrency: 2, pollMs: 600_000 },
    });
    await p.start();
    for (let i = 0; i < 7; i++) await p.submit(source, [platformChat(`b${i}`, `!b${i}`, viewer)]);
    await until(() => runs.length === 2);
    open();
    const rows = () => database.db.select().from(pipelineEffects).where(eq(pipelineEffects.kind, 'test.backlog'));
    await until(async () => (await rows()).filter((r) => r.status === 'done').length === 7);
    expect((await rows()).map((r) => [r.status, r.attempts])).toEqual(Array.from({ length: 7 }, () => ['done', 1]));
    expect(runs.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `!b${i}`));
    await p.close();
  });

  it('an effect refused for good is failed at once with its reason, never retried', async () => {
    let runs = 0;
    const { p } = pipeline({
      stages: [reply('r', 'test.refused')],
      handlers: [
        {
          kind: 'test.refused',
          run: async () => {
            runs++;
            throw new EffectRefused('Not sent on Twitch: no bot account may send there.');
          },
        },
      ],
    });
    await p.start();
    await p.submit(source, [platformChat('refused1', '!refused', viewer)]);
    const row = async () => (await database.db.select().from(pipelineEffects).where(eq(pipelineEffects.kind, 'test.refused')))[0];
    await until(async () => (await row())?.status === 'failed');
    // Several polls later it is still failed after its one attempt.
    await new Promise((r) => setTimeout(r, 200));
    expect(await row()).toMatchObject({ status: 'failed', attempts: 1, lastError: 'Not sent on Twitch: no bot account may send there.' });
    expect(runs).toBe(1);
    await p.close();
  });

  it('a claim left by a process that died is not run again unless its handler is idempotent', async () => {
    // Two effects claimed by a process that stopped while running them.
    await database.db.insert(pipelineEffects).values([
      { id: 'dead-reply', channelId: 'c1', kind: 'test.orphan-reply', payload: null, status: 'running', claimedBy: 'dead', attempts: 1 },
      { id: 'dead-delete', channelId: 'c1', kind: 'test.orphan-delete', payload: null, status: 'running', claimedBy: 'dead', attempts: 1 },
    ]);
    const ran: string[] = [];
    const { p } = pipeline({
      handlers: [
        { kind: 'test.orphan-reply', run: async (e) => void ran.push(e.id) },
        { kind: 'test.orphan-delete', idempotent: true, run: async (e) => void ran.push(e.id) },
      ],
    });
    await p.start();
    await until(() => ran.length >= 1);
    await p.outbox.idle();
    expect(ran).toEqual(['dead-delete']);
    const rows = await database.db
      .select()
      .from(pipelineEffects)
      .where(sql`${pipelineEffects.id} in ('dead-reply', 'dead-delete')`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ 'dead-reply': 'interrupted', 'dead-delete': 'done' });
    expect(p.outbox.stats).toMatchObject({ interrupted: 1, requeued: 1 });
    await p.close();
  });

  it('beside other instances, a live instance’s claim is left alone; a claim older than any live run is settled', async () => {
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await database.db.insert(pipelineEffects).values([
      {
        id: 'live-other',
        channelId: 'c1',
        kind: 'test.multi',
        payload: null,
        status: 'running',
        claimedBy: 'other',
        claimedAt: new Date(),
        attempts: 1,
      },
      {
        id: 'dead-other',
        channelId: 'c1',
        kind: 'test.multi',
        payload: null,
        status: 'running',
        claimedBy: 'gone',
        claimedAt: longAgo,
        attempts: 1,
      },
    ]);
    const { p } = pipeline({ alone: false, handlers: [{ kind: 'test.multi', timeoutMs: 1000, run: async () => {} }] });
    await p.start();
    await p.outbox.idle();
    const rows = await database.db
      .select()
      .from(pipelineEffects)
      .where(sql`${pipelineEffects.id} in ('live-other', 'dead-other')`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ 'live-other': 'running', 'dead-other': 'interrupted' });
    await p.close();
  });

  it('a run that outlives its timeout is not run again unless idempotent; an effect never blocks chat', async () => {
    const { p, published } = pipeline({
      stages: [reply('slow', 'test.slow')],
      handlers: [{ kind: 'test.slow', timeoutMs: 30, run: () => new Promise(() => {}) }],
    });
    await p.start();
    await p.submit(source, [platformChat('t1', '!slow', viewer)]);
    // Chat keeps flowing while the effect hangs.
    await p.submit(source, [platformChat('t2', 'still chatting', viewer)]);
    expect(messages(published).map((m) => m.data.provider_message_id)).toEqual(['t1', 't2']);
    await until(async () => {
      const [row] = await database.db.select().from(pipelineEffects).where(eq(pipelineEffects.sourceId, 'twitch:t1'));
      return row?.status === 'interrupted';
    });
    const [row] = await database.db.select().from(pipelineEffects).where(eq(pipelineEffects.sourceId, 'twitch:t1'));
    expect(row).toMatchObject({ status: 'interrupted', attempts: 1 });
    await p.close();
  });
});
