import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { analyzeStale, isStale } from './planner-statistics';
import { channels } from './schema';

describe('isStale', () => {
  it('analyses a table with rows that was never analysed, or whose size moved by more than a tenth', () => {
    expect(isStale({ name: 't', analyzedPages: 0, analyzedTuples: -1, pages: 0 })).toBe(false);
    expect(isStale({ name: 't', analyzedPages: 0, analyzedTuples: -1, pages: 1 })).toBe(true);
    expect(isStale({ name: 't', analyzedPages: 100, analyzedTuples: 5000, pages: 110 })).toBe(false);
    expect(isStale({ name: 't', analyzedPages: 100, analyzedTuples: 5000, pages: 111 })).toBe(true);
    expect(isStale({ name: 't', analyzedPages: 100, analyzedTuples: 5000, pages: 85 })).toBe(true);
    expect(isStale({ name: 't', analyzedPages: 1, analyzedTuples: 3, pages: 2 })).toBe(false);
    expect(isStale({ name: 't', analyzedPages: 1, analyzedTuples: 3, pages: 3 })).toBe(true);
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
});
