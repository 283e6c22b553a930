import fc from 'fast-check';
import { PGlite, type Results, type Transaction } from '@electric-sql/pglite';
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

describe('BatchedQueries, prepared statements: any sequence answers as PGlite query() does', () => {
  // Two databases fed the same steps: one through BatchedQueries (few texts kept, so they are evicted and
  // deallocated), one through PGlite's query().
  let viaBatch: PGlite;
  let viaQuery: PGlite;
  let batched: BatchedQueries;
  const schema = `CREATE TABLE m (id int PRIMARY KEY, v int, note text)`;
  beforeAll(async () => {
    [viaBatch, viaQuery] = await Promise.all([PGlite.create(), PGlite.create()]);
    batched = new BatchedQueries(viaBatch, 3);
  });
  afterAll(async () => Promise.all([viaBatch.close(), viaQuery.close()]));

  // A few texts, so the same one runs again and again (named, planned generic after five runs), with errors among them.
  const id = fc.integer({ min: 1, max: 6 });
  const statement = fc.oneof(
    fc.record({ sql: fc.constant('SELECT * FROM m WHERE id = $1'), params: fc.tuple(id) }),
    fc.record({
      sql: fc.constant('SELECT id, v FROM m WHERE v > $1 ORDER BY id LIMIT 3'),
      params: fc.tuple(fc.integer({ min: -5, max: 5 })),
    }),
    fc.record({ sql: fc.constant('SELECT count(*)::int AS n FROM m'), params: fc.constant<unknown[]>([]) }),
    fc.record({
      sql: fc.constant('INSERT INTO m (id, v, note) VALUES ($1, $2, $3) RETURNING *'),
      params: fc.tuple(id, fc.integer({ min: -5, max: 5 }), fc.constantFrom('a', 'b', 'abc')),
    }),
    fc.record({ sql: fc.constant('UPDATE m SET v = v + $2 WHERE id = $1'), params: fc.tuple(id, fc.integer({ min: -3, max: 3 })) }),
    fc.record({ sql: fc.constant('DELETE FROM m WHERE id = $1'), params: fc.tuple(id) }),
    // Planned for its values each time (a pattern match): unnamed.
    fc.record({ sql: fc.constant(`SELECT id FROM m WHERE note ILIKE $1 ORDER BY id`), params: fc.tuple(fc.constantFrom('%b%', 'a%')) }),
    // A value of the wrong type (22P02), a division by zero at execution (22012).
    fc.record({ sql: fc.constant('SELECT v FROM m WHERE id = $1'), params: fc.tuple(fc.constantFrom<unknown>(1, 'x')) }),
    fc.record({ sql: fc.constant('SELECT 10 / $1::int AS q'), params: fc.tuple(fc.integer({ min: 0, max: 2 })) }),
    // New statistics (kept statements stay: PostgreSQL replans them).
    fc.record({ sql: fc.constant('ANALYZE m'), params: fc.constant<unknown[]>([]) }),
    // Schema changes between executions of the same texts: a column's type, a column added and dropped.
    fc.record({
      sql: fc.constantFrom('ALTER TABLE m ALTER COLUMN v TYPE bigint', 'ALTER TABLE m ALTER COLUMN v TYPE int'),
      params: fc.constant<unknown[]>([]),
    }),
    fc.record({
      sql: fc.constantFrom('ALTER TABLE m ADD COLUMN IF NOT EXISTS extra text', 'ALTER TABLE m DROP COLUMN IF EXISTS extra'),
      params: fc.constant<unknown[]>([]),
    }),
  );
  // Steps outside a transaction, or a transaction of several (committed or rolled back; an error in its middle aborts it).
  const step = fc.oneof(
    fc.record({ tx: fc.constant(false as const), statements: fc.tuple(statement) }),
    fc.record({ tx: fc.constant(true as const), statements: fc.array(statement, { minLength: 1, maxLength: 5 }), commit: fc.boolean() }),
  );

  type Outcome = { rows: unknown[]; fields: unknown[]; affectedRows?: number } | { error: string; code: unknown };
  async function outcome(promise: Promise<Results<unknown>>): Promise<Outcome> {
    try {
      const r = await promise;
      return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows ?? 0 };
    } catch (error) {
      return { error: (error as Error).message, code: (error as { code?: unknown }).code };
    }
  }

  /** Runs `steps` on one database (`run` sends a statement, in the transaction when `tx` is given): every outcome. */
  async function play(
    pg: PGlite,
    steps: { tx: boolean; statements: { sql: string; params: unknown[] }[]; commit?: boolean }[],
    run: (sql: string, params: unknown[], tx: Transaction | null) => Promise<Results<unknown>>,
  ): Promise<unknown[]> {
    const seen: unknown[] = [];
    for (const s of steps) {
      if (!s.tx) {
        seen.push(await outcome(run(s.statements[0]!.sql, s.statements[0]!.params, null)));
        continue;
      }
      const ended = await outcome(
        pg.transaction(async (tx) => {
          for (const st of s.statements) seen.push(await outcome(run(st.sql, st.params, tx)));
          if (!s.commit) await tx.rollback();
          return { rows: [], fields: [] };
        }),
      );
      seen.push({ ended });
    }
    seen.push(await outcome(pg.query('SELECT * FROM m ORDER BY id')));
    return seen;
  }

  it('repeats, schema changes between them, errors inside transactions, evictions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        for (const pg of [viaBatch, viaQuery]) await pg.exec(`DROP TABLE IF EXISTS m; ${schema}`);
        batched.forgetUnlessDml('DROP TABLE m');
        const expected = await play(viaQuery, steps, (sql, params, tx) => (tx ?? viaQuery).query(sql, params));
        const actual = await play(viaBatch, steps, (sql, params, tx) => batched.query(sql, params, {}, tx !== null));
        expect(actual).toEqual(expected);
        // Every statement forgotten is deallocated (by the next batch): no more prepared than kept.
        await batched.query('SELECT 1', [], {}, false);
        const prepared = await viaBatch.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
        expect(prepared.rows[0]!.n).toBe(batched.size.prepared);
        expect(batched.size.kept).toBeLessThanOrEqual(3);
      }),
      { numRuns: 60 },
    );
  });
});
