import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { analyzeStale, analyzeStatements, isStale } from './planner-statistics';
import { rowsOf } from './rows';
import { channels } from './schema';

describe('isStale', () => {
  it('analyses a table with rows that was never analysed, or whose size moved by more than a tenth', () => {
    const t = (analyzedPages: number, analyzedTuples: number, pages: number) => ({
      name: 't',
      analyzedPages,
      analyzedTuples,
      pages,
      hasColumnStats: analyzedTuples > 0,
    });
    expect(isStale(t(0, -1, 0))).toBe(false);
    expect(isStale(t(0, -1, 1))).toBe(true);
    expect(isStale(t(100, 5000, 110))).toBe(false);
    expect(isStale(t(100, 5000, 111))).toBe(true);
    expect(isStale(t(100, 5000, 85))).toBe(true);
    expect(isStale(t(1, 3, 2))).toBe(false);
    expect(isStale(t(1, 3, 3))).toBe(true);
  });

  it('analyses a table whose rows were counted by CREATE INDEX or VACUUM but that has no column statistics', () => {
    expect(isStale({ name: 't', analyzedPages: 100, analyzedTuples: 5000, pages: 100, hasColumnStats: false })).toBe(true);
    // Analysed while empty: nothing to gather, nothing to redo until it grows.
    expect(isStale({ name: 't', analyzedPages: 1, analyzedTuples: 0, pages: 1, hasColumnStats: false })).toBe(false);
  });
});

describe('analyzeStale', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(async () => database.close());

  const estimate = async () => {
    const result: unknown = await database.db.execute(sql`SELECT reltuples FROM pg_class WHERE relname = 'channels'`);
    return Number((result as { rows: { reltuples: number }[] }).rows[0]!.reltuples);
  };

  it('gives a table filled after the migrations its statistics, then leaves it until it grows again', async () => {
    await database.db.execute(
      sql`INSERT INTO channels (id, display_name) SELECT 'c' || i, 'Channel ' || i FROM generate_series(1, 2000) i`,
    );
    expect(await estimate()).toBeLessThan(0);
    expect(await analyzeStale(database.db)).toContain('channels');
    expect(await estimate()).toBe(2000);
    expect(await analyzeStale(database.db)).not.toContain('channels');
    await database.db.insert(channels).values(Array.from({ length: 2000 }, (_, i) => ({ id: `d${i}`, displayName: `More ${i}` })));
    expect(await analyzeStale(database.db)).toContain('channels');
    expect(await estimate()).toBe(4000);
  });

  it('analyses a table filled and then indexed (CREATE INDEX counts its rows but gathers no column statistics)', async () => {
    await database.db.execute(sql`CREATE TABLE bulk_loaded (id int, name text)`);
    await database.db.execute(sql`INSERT INTO bulk_loaded SELECT i, 'n' || (i % 7) FROM generate_series(1, 5000) i`);
    await database.db.execute(sql`CREATE INDEX bulk_loaded_name ON bulk_loaded (name)`);
    const distinct = async () => {
      const result: unknown = await database.db.execute(
        sql`SELECT n_distinct FROM pg_stats WHERE tablename = 'bulk_loaded' AND attname = 'name'`,
      );
      return (result as { rows: { n_distinct: number }[] }).rows[0]?.n_distinct;
    };
    expect(await distinct()).toBeUndefined();
    expect(await analyzeStale(database.db)).toContain('bulk_loaded');
    expect(Number(await distinct())).toBe(7);
    expect(await analyzeStale(database.db)).not.toContain('bulk_loaded');
  });

  it('leaves a stale table that is not due for later (the job paces each table by its last ANALYZE), and says how long one took', async () => {
    await database.db.execute(sql`CREATE TABLE paced (id int)`);
    await database.db.execute(sql`INSERT INTO paced SELECT i FROM generate_series(1, 3000) i`);
    expect(await analyzeStale(database.db, { due: (table) => table !== 'paced' })).not.toContain('paced');
    const took = new Map<string, number>();
    expect(await analyzeStale(database.db, { took: (table, ms) => took.set(table, ms) })).toContain('paced');
    expect(took.get('paced')).toBeGreaterThanOrEqual(0);
  });

  it('gathers no statistics for the chat log columns no query filters by, and keeps those the planner needs', async () => {
    await database.db.execute(sql`INSERT INTO channels (id, display_name) VALUES ('stats-c', 'Stats')`);
    await database.db.execute(sql`
      INSERT INTO chat_messages (id, channel_id, channel_provider_id, provider, provider_message_id, author_id, author_login,
        author_name, author_badges, author_roles, text, emotes, mentions, sent_at)
      SELECT 'twitch:m' || i, 'stats-c', 'cp', 'twitch', 'm' || i, 'a' || (i % 50), 'login' || i, 'Name ' || i,
        '[]', '[]', 'hello ' || i, '[]', '[]', now()
      FROM generate_series(1, 2000) i
    `);
    expect(await analyzeStale(database.db)).toContain('chat_messages');
    const result: unknown = await database.db.execute(sql`SELECT attname FROM pg_stats WHERE tablename = 'chat_messages'`);
    const columns = new Set((result as { rows: { attname: string }[] }).rows.map((r) => r.attname));
    for (const needed of ['channel_id', 'provider', 'seq', 'author_id', 'text', 'sent_at', 'received_at'])
      expect(columns).toContain(needed);
    for (const skipped of [
      'author_badges',
      'author_roles',
      'emotes',
      'mentions',
      'author_login',
      'author_name',
      'id',
      'provider_message_id',
    ])
      expect(columns).not.toContain(skipped);
  });

  it('analyses the chat log one statistics target at a time: its other columns from a small sample, the text alone from a large one', async () => {
    const statements = (await analyzeStatements(database.db, 'chat_messages')).map((s) => new PgDialect().sqlToQuery(s).sql);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toContain('"seq"');
    expect(statements[0]).not.toContain('"text"');
    expect(statements[1]).toBe('ANALYZE "chat_messages" ("text")');
    // Columns with no statistics are in neither.
    expect(statements.join(' ')).not.toContain('"emotes"');
    // A table whose columns share a target: one statement.
    expect((await analyzeStatements(database.db, 'channels')).map((s) => new PgDialect().sqlToQuery(s).sql)).toEqual([
      'ANALYZE "channels"',
    ]);
    // The texts history search reads as its sample: the text's histogram from the large sample (101 bounds).
    await database.db.execute(sql`
      INSERT INTO chat_messages (id, channel_id, channel_provider_id, provider, provider_message_id, author_id, author_login,
        author_name, author_badges, author_roles, text, emotes, mentions, sent_at)
      SELECT 'twitch:s' || i, 'stats-c', 'cp', 'twitch', 's' || i, 'a', 'l', 'N', '[]', '[]', md5(i::text), '[]', '[]', now()
      FROM generate_series(1, 20000) i
    `);
    expect(await analyzeStale(database.db)).toContain('chat_messages');
    const bounds = rowsOf<{ text: number; seq: number }>(
      await database.db.execute(sql`
        SELECT max(array_length(histogram_bounds::text::text[], 1)) FILTER (WHERE attname = 'text') AS text,
          max(array_length(histogram_bounds::text::text[], 1)) FILTER (WHERE attname = 'seq') AS seq
        FROM pg_stats WHERE tablename = 'chat_messages'`),
    )[0]!;
    expect([Number(bounds.text), Number(bounds.seq)]).toEqual([101, 26]);
    expect(await analyzeStale(database.db)).not.toContain('chat_messages');
  });
});
