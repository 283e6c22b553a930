import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteRemote } from './pglite-remote';
import { databaseThreadLimits, pgliteSettings } from './pglite-settings';

// The embedded database on its own thread: transactions are opened by their first query, and the
// worker keeps drizzle's text-kept types on the instance instead of per query.
describe('PGliteRemote', () => {
  let dir: string;
  let remote: PGliteRemote;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'greenroom-remote-'));
    remote = await PGliteRemote.create(path.join(dir, 'pglite'));
    await remote.query('CREATE TABLE t (id integer PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())');
  }, 60_000);

  afterAll(async () => {
    await remote.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async () =>
    (await remote.query('SELECT id FROM t ORDER BY id', [], { rowMode: 'object' })).rows.map((r) => (r as { id: number }).id);

  it('commits what a transaction wrote, and rolls back a transaction whose callback throws after its first query', async () => {
    await remote.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES ($1)', [1]);
      await tx.query('INSERT INTO t (id) VALUES ($1)', [2]);
    });
    await expect(
      remote.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES ($1)', [3]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await ids()).toEqual([1, 2]);
  });

  it('rolls back when the first query (the one that opens the transaction) fails, and the next transaction works', async () => {
    await expect(remote.transaction(async (tx) => tx.query('INSERT INTO t (id) VALUES ($1)', [1]))).rejects.toMatchObject({
      code: '23505',
    });
    await expect(remote.transaction(async (tx) => tx.query('SELEC nothing'))).rejects.toMatchObject({ code: '42601' });
    await remote.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES ($1)', [4]);
    });
    expect(await ids()).toEqual([1, 2, 4]);
  });

  it('runs queries started together in one transaction inside it, and a transaction without queries returns its value', async () => {
    const inside = await remote.transaction(async (tx) => {
      const [a, b] = await Promise.all([
        tx.query('INSERT INTO t (id) VALUES ($1) RETURNING txid_current() AS x', [5], { rowMode: 'object' }),
        tx.query('INSERT INTO t (id) VALUES ($1) RETURNING txid_current() AS x', [6], { rowMode: 'object' }),
      ]);
      return [a.rows[0], b.rows[0]] as { x: unknown }[];
    });
    expect(inside[0]!.x).toEqual(inside[1]!.x);
    expect(await remote.transaction(async () => 'nothing sent')).toBe('nothing sent');
    expect(await ids()).toEqual([1, 2, 4, 5, 6]);
  });

  it('keeps the types a query names as text, and parses them for a query that names none', async () => {
    const keep = { 1184: (v: string) => v, 1114: (v: string) => v };
    const asText = await remote.query('SELECT at FROM t WHERE id = 1', [], { rowMode: 'object', parsers: keep });
    expect(typeof (asText.rows[0] as { at: unknown }).at).toBe('string');
    const parsed = await remote.query('SELECT at FROM t WHERE id = 1', [], { rowMode: 'object' });
    expect((parsed.rows[0] as { at: unknown }).at).toBeInstanceOf(Date);
    const again = await remote.query('SELECT at FROM t WHERE id = 1', [], { rowMode: 'object', parsers: keep });
    expect(typeof (again.rows[0] as { at: unknown }).at).toBe('string');
    const other = await remote.query("SELECT at, '2024-01-01'::timestamp AS plain FROM t WHERE id = 1", [], {
      rowMode: 'object',
      parsers: { 1114: (v: string) => v },
    });
    const row = other.rows[0] as { at: unknown; plain: unknown };
    expect(row.at).toBeInstanceOf(Date);
    expect(row.plain).toBe('2024-01-01 00:00:00');
  });
});

// Memory bounds of the embedded database (pglite-settings.ts): PostgreSQL's settings are those given at start, the
// thread's young generation is bounded, and the thread reports its heap and WebAssembly memory.
describe('PGliteRemote memory', () => {
  let dir: string;
  let remote: PGliteRemote;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'greenroom-remote-memory-'));
    remote = await PGliteRemote.create(path.join(dir, 'pglite'));
  }, 60_000);

  afterAll(async () => {
    await remote.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts PostgreSQL with the memory settings of pglite-settings.ts', async () => {
    for (const [name, value] of Object.entries(pgliteSettings)) {
      const shown = await remote.query(`SELECT current_setting('${name}') AS v`, [], { rowMode: 'object' });
      expect({ name, value: (shown.rows[0] as { v: string }).v }).toEqual({ name, value });
    }
  });

  it('runs the database thread with its heap limits and reports its memory', async () => {
    expect(remote.resourceLimits.maxYoungGenerationSizeMb).toBe(databaseThreadLimits.maxYoungGenerationSizeMb);
    const memory = await remote.memory();
    expect(memory.heapUsed).toBeGreaterThan(0);
    expect(memory.heapTotal).toBeGreaterThanOrEqual(memory.heapUsed);
    // WebAssembly memory comes in 64 KiB pages.
    expect(memory.wasm).toBeGreaterThan(0);
    expect(memory.wasm % 65_536).toBe(0);
  });
});
