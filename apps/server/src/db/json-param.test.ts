import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { jsonParam } from './json-param';

describe('JSON rows as one parameter', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(async () => database.close());

  // Text the database can hold (ingest normalises NUL and lone surrogates away first: pipeline/normalise.ts).
  it('any text (quotes, backslashes, dollar signs, SQL comments, Unicode) comes back as it was through json_to_recordset', async () => {
    const pieces = fc.constantFrom("'", "''", '\\', '$', '$gr$', '$$', ';', '--', '/*', '*/', '😀', '\n', '"', '\\u0041');
    const text = fc
      .array(fc.oneof(pieces, fc.string({ unit: 'grapheme', maxLength: 8 })), { maxLength: 12 })
      .map((parts) => parts.join(''))
      .filter((s) => !s.includes('\u0000'));
    await fc.assert(
      fc.asyncProperty(text, async (s) => {
        const result = await database.db.execute(sql`SELECT r.v FROM json_to_recordset(${jsonParam([{ v: s }])}) AS r(v text)`);
        expect((result as { rows: { v: string }[] }).rows[0]!.v).toBe(s);
      }),
      { numRuns: 200 },
    );
  });
});
