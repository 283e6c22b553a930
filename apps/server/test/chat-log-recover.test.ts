/**
 * A write whose commit reached the database but whose answer was lost (the connection died between
 * COMMIT and its reply): the writer retries it, finds its rows stored, and hands them over as
 * committed — published once, their effects stored once. Runs on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { channelProviders, chatMessages, moderationEvents, pipelineEffects, viewers } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { ChatLogStore, rowKey, type WriteBatch, type WriteResult } from '../src/pipeline/chat-log-store';
import { ChatLogWriter } from '../src/pipeline/chat-log-writer';
import { chatMessage } from './chat-fixtures';
import { createTestApp, type TestApp } from './helper';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const connectionLost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });

let t: TestApp;
let channelId: string;
let cp: string;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await t.createUser({ displayName: 'Owner' });
  channelId = (await t.s.channels.create(owner.id, 'Recover channel')).id;
  cp = newId();
  await t.s.db
    .insert(channelProviders)
    .values({ id: cp, channelId, provider: 'twitch', providerChannelId: 'tw', providerChannelName: 'tw' });
});

afterAll(async () => {
  await t?.close();
});

describe('a commit whose answer was lost', () => {
  it('is found stored on the retry and handed over once, without storing or applying its effects or counting its viewers twice', async () => {
    const store = new ChatLogStore(t.s.db);
    // An effect applied in the statement that stores its message (like a points credit): applied by the attempt that
    // committed, not by the retry.
    await t.s.db.execute(sql`CREATE TABLE IF NOT EXISTS test_in_statement (channel_id text NOT NULL, payload jsonb)`);
    store.applyInStatement({
      kind: 'test.in-statement',
      run: async () => {},
      applyInStatement: (source) => `test_applied AS (INSERT INTO test_in_statement SELECT channel_id, payload FROM ${source})`,
    });
    let attempts = 0;
    const modes: { recover?: boolean }[] = [];
    const writer = new ChatLogWriter(
      {
        write: async (batch, options) => {
          modes.push({ recover: options?.recover ?? false });
          const result = await store.write(batch, options);
          // The first attempt commits, then its answer is lost.
          if (++attempts === 1) throw connectionLost();
          return result;
        },
      },
      { backoff: { baseMs: 5, maxMs: 5 }, log: silent },
    );
    const base = { channel_id: channelId, channel_provider_id: cp };
    const messages = [0, 1].map((i) => chatMessage(i, { ...base, id: `twitch:lost-${i}`, provider_message_id: `lost-${i}` }));
    const ban = {
      id: newId(),
      ...base,
      provider: 'twitch' as const,
      kind: 'ban' as const,
      source: 'platform' as const,
      target: { provider_user_id: 'nobody', display_name: 'Nobody' },
      provider_message_id: null,
      duration_seconds: null,
      reason: null,
      moderator: null,
      occurred_at: new Date().toISOString(),
    };
    const batch: WriteBatch = {
      messages,
      moderation: [ban],
      activities: [],
      gaps: [],
      effects: [
        { effect: { kind: 'test.effect', channelId, payload: null }, sourceId: messages[0]!.id },
        { effect: { kind: 'test.in-statement', channelId, payload: { n: 1 } }, sourceId: messages[1]!.id },
      ],
      states: [],
    };
    const handed: WriteResult[] = [];
    writer.submit({ batch, rows: 4, retryable: false, committed: (r) => handed.push(r), abandoned: () => handed.push(null!) });
    await writer.flush();

    expect(modes).toEqual([{ recover: false }, { recover: true }]);
    expect(handed).toHaveLength(1);
    const result = handed[0]!;
    for (const m of messages) expect(result.messages.get(rowKey(channelId, m.id))).toBeGreaterThan(0);
    expect(result.moderation.has(rowKey(channelId, ban.id))).toBe(true);
    expect(result.existing.size).toBe(3);
    expect(writer.stats.recovered).toBe(3);

    const stored = await t.s.db.select({ id: chatMessages.id }).from(chatMessages).where(eq(chatMessages.channelId, channelId));
    expect(stored.map((r) => r.id).sort()).toEqual(messages.map((m) => m.id).sort());
    const effects = await t.s.db.select().from(pipelineEffects).where(eq(pipelineEffects.channelId, channelId));
    expect(effects.map((e) => e.kind)).toEqual(['test.effect']);
    const applied = await t.s.db.execute(sql`SELECT payload FROM test_in_statement WHERE channel_id = ${channelId}`);
    expect((applied as { rows: { payload: unknown }[] }).rows.map((r) => r.payload)).toEqual([{ n: 1 }]);
    // Both messages are by one viewer: counted once each, by the commit that stored them.
    const counted = await t.s.db.select().from(viewers).where(eq(viewers.channelId, channelId));
    expect(counted.map((v) => [v.providerUserId, v.messageCount])).toEqual([['u1', 2]]);
    const bans = await t.s.db.select().from(moderationEvents).where(eq(moderationEvents.channelId, channelId));
    expect(bans).toHaveLength(1);
  });
});
