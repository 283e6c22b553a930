import fc from 'fast-check';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchedQueries } from './pglite-batched';

/** The database error `promise` rejects with: its message and PostgreSQL's fields. */
async function failure(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    const e = error as Record<string, unknown> & Error;
    return { message: e.message, code: e.code, detail: e.detail, constraint: e.constraint, table: e.table, severity: e.severity };
  }
  throw new Error('expected the statement to fail');
}

/** The code of the database error `promise` rejects with. */
async function errorCode(promise: Promise<unknown>): Promise<string> {
  return String((await failure(promise)).code);
}

describe('BatchedQueries (a statement in one call into PGlite)', () => {
  let pg: PGlite;
  let batched: BatchedQueries;
  beforeAll(async () => {
    pg = await PGlite.create();
    batched = new BatchedQueries(pg);
    await pg.exec(
      `CREATE TABLE t (id int PRIMARY KEY, name text, big bigint, flag boolean, at timestamptz, data jsonb, tags text[], amount numeric)`,
    );
  });
  afterAll(async () => pg.close());

  const row = fc.record({
    name: fc.option(fc.string({ unit: 'grapheme', maxLength: 20 }).filter((s) => !s.includes('\u0000'))),
    big: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String)),
    flag: fc.option(fc.boolean()),
    at: fc.option(fc.date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })),
    // As drizzle sends a json column: JSON text. jsonb refuses the escapes \u0000 and lone surrogates (`query()` alike).
    data: fc.option(
      fc
        .jsonValue()
        .map((v) => JSON.stringify(v))
        .filter((text) => !text.includes('\\u')),
    ),
    tags: fc.option(
      fc.array(
        fc.string({ maxLength: 6 }).filter((s) => !s.includes('\u0000')),
        { maxLength: 4 },
      ),
    ),
    amount: fc.option(fc.integer().map((n) => `${n}.25`)),
  });

  it('writes and reads every kind of value as PGlite query() does', async () => {
    let id = 0;
    const insert = `INSERT INTO t (id, name, big, flag, at, data, tags, amount) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`;
    const select = `SELECT * FROM t WHERE id = $1 AND (name = $2 OR $2 IS NULL OR name IS NULL)`;
    const withoutId = (rows: unknown[]) => rows.map((r) => ({ ...(r as object), id: 0 }));
    await fc.assert(
      fc.asyncProperty(row, async (r) => {
        id += 2;
        const values = (at: number) => [at, r.name, r.big, r.flag, r.at, r.data, r.tags, r.amount];
        // Written one way and the other: the same row.
        const written = await batched.query(insert, values(id), {}, false);
        expect(written.affectedRows).toBe(1);
        await pg.query(insert, values(id + 1));
        const viaBatch = await batched.query(select, [id, r.name], {}, false);
        const viaQuery = await pg.query(select, [id + 1, r.name]);
        expect(withoutId(viaBatch.rows)).toEqual(withoutId(viaQuery.rows));
        expect(viaBatch.rows).toEqual(written.rows);
        expect(viaBatch.fields).toEqual(viaQuery.fields);
        // As arrays too.
        const asArrays = await batched.query(select, [id, r.name], { rowMode: 'array' }, false);
        expect(asArrays.rows).toEqual((await pg.query(select, [id, r.name], { rowMode: 'array' })).rows);
      }),
      { numRuns: 150 },
    );
  });

  it('fails as query() does, and the next statement runs', async () => {
    expect(await errorCode(batched.query('SELEC 1', [], {}, false))).toBe('42601');
    // Invalid input for a parameter's type, the first time and once the types are kept.
    const byId = 'SELECT name FROM t WHERE id = $1';
    expect(await errorCode(batched.query(byId, ['x'], {}, false))).toBe('22P02');
    expect(await errorCode(batched.query(byId, ['y'], {}, false))).toBe('22P02');
    await pg.query('INSERT INTO t (id) VALUES ($1)', [-100]);
    const duplicate = await failure(batched.query('INSERT INTO t (id) VALUES ($1)', [-100], {}, false));
    expect(duplicate).toEqual(await failure(pg.query('INSERT INTO t (id) VALUES ($1)', [-100])));
    expect(duplicate).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't', severity: 'ERROR' });
    expect((await batched.query('SELECT $1::int + 1 AS n', [41], {}, false)).rows).toEqual([{ n: 42 }]);
  });

  it('inside a transaction sees its uncommitted rows; a rollback discards what it wrote', async () => {
    await expect(
      pg.transaction(async () => {
        await batched.query('INSERT INTO t (id, name) VALUES ($1, $2)', [-1, 'in tx'], {}, true);
        const seen = await batched.query('SELECT name FROM t WHERE id = $1', [-1], {}, true);
        expect(seen.rows).toEqual([{ name: 'in tx' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await batched.query('SELECT name FROM t WHERE id = $1', [-1], {}, false)).rows).toEqual([]);
  });

  it('forgets the parameter types it kept when the schema changes', async () => {
    await pg.exec(`CREATE TABLE k (v int)`);
    const insert = 'INSERT INTO k (v) VALUES ($1)';
    await batched.query(insert, [1], {}, false);
    await batched.query('ALTER TABLE k ALTER COLUMN v TYPE text', [], {}, false);
    await batched.query(insert, ['not a number'], {}, false);
    expect((await pg.query('SELECT v FROM k ORDER BY v')).rows).toEqual([{ v: '1' }, { v: 'not a number' }]);
  });
});
