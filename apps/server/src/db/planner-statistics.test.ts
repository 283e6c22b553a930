import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { analyzeStale, isStale } from './planner-statistics';
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
});
