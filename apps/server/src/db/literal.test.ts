import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { dollarQuote, jsonLiteral, simpleProtocol } from './literal';

describe('dollarQuote', () => {
  it('picks a tag the text does not close early', () => {
    expect(dollarQuote('plain')).toBe('$gr$plain$gr$');
    expect(dollarQuote('a $gr$ b')).toBe('$gr1$a $gr$ b$gr1$');
    // Text ending in "$gr" would close at its own "$gr" + the tag's "$".
    expect(dollarQuote('ends in $gr')).toBe('$gr1$ends in $gr$gr1$');
  });
});

describe('literals in the database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(async () => database.close());

  it('any text (quotes, backslashes, dollar tags, Unicode) comes back as it was, as text and through JSON', async () => {
    const pieces = fc.constantFrom("'", "''", '\\', '$', '$gr$', '$gr', 'gr$', '$gr1$', ';', '--', '/*', '*/', '😀', '\n');
    const text = fc
      .array(fc.oneof(pieces, fc.string({ unit: 'grapheme', maxLength: 8 })), { maxLength: 12 })
      .map((parts) => parts.join(''))
      .filter((s) => !s.includes('\u0000'));
    await fc.assert(
      fc.asyncProperty(text, async (s) => {
        const asText = await database.db.execute(sql`${simpleProtocol}SELECT ${sql.raw(dollarQuote(s))}::text AS v`);
        expect((asText as { rows: { v: string }[] }).rows[0]!.v).toBe(s);
        const asJson = await database.db.execute(
          sql`${simpleProtocol}SELECT r.v FROM json_to_recordset(${jsonLiteral([{ v: s }])}) AS r(v text)`,
        );
        expect((asJson as { rows: { v: string }[] }).rows[0]!.v).toBe(s);
      }),
      { numRuns: 200 },
    );
  });
});
