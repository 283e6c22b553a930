import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { makePrivate, privateFileCreation } from '../lib/private-files';
import { pgliteExtensions } from './pglite-extensions';
import { analyzeStale } from './planner-statistics';
import { PGliteRemote, type DatabaseThreadMemory } from './pglite-remote';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** The embedded database thread's heap and WebAssembly memory (PGlite in a data directory only). */
  memory?: () => Promise<DatabaseThreadMemory>;
}

/** The session-level advisory lock migrations run under on PostgreSQL (an arbitrary constant: 'greenroo' in ASCII). */
const MIGRATION_LOCK = '7454131819570687855';

/**
 * A pg pool whose checked-out clients are always given back, also when their connection dies while
 * checked out. Drizzle's `transaction()` runs BEGIN before the try/finally that releases the client
 * (drizzle-orm 0.45): a BEGIN that fails on a connection lost during a database restart would keep
 * that client checked out for ever — after a few restarts the pool is empty, every query waits, and
 * `pool.end()` never returns. Here a client whose connection ended is released with an error (the
 * pool discards it); `release` is made idempotent so the caller's own later release is harmless.
 */
class ReleasingPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    if (callback) return super.connect(callback);
    return super.connect().then(releasedWhenLost);
  }
}

function releasedWhenLost(client: pg.PoolClient): pg.PoolClient {
  const release = client.release.bind(client);
  let released = false;
  const lost = () => client.release(new Error('The database connection was lost while checked out.'));
  client.release = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener('end', lost);
    release(err);
  };
  client.once('end', lost);
  return client;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * A new PGlite data directory starts as a copy of `template` (an initialised, migrated empty database made by the
 * production build) when there is one: initdb in WebAssembly takes seconds, copying its ~1,000 files a few hundred
 * milliseconds (synchronously: fs.promises.cp costs more CPU per file). The copy is made under a temporary name and
 * renamed, so an interrupted start never leaves half a database behind.
 */
function seedFromTemplate(target: string, template: string | undefined): void {
  if (!template || existsSync(target) || !existsSync(path.join(template, 'PG_VERSION'))) return;
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(template, partial, { recursive: true });
  renameSync(partial, target);
}

/**
 * Opens the database and applies pending migrations: PostgreSQL when `url` is given,
 * otherwise embedded PGlite in `dataDir` (or in memory for `memory://`), a new one seeded from `template` if given.
 * A PGlite kept in a data directory runs on its own thread (pglite-worker.ts): its queries run synchronously where
 * it lives, and on the main thread every commit would stall the server for its duration. In-memory databases (tests)
 * stay in-process. PGlite has no autovacuum: tables whose statistics are stale are analysed after the migrations
 * (and every minute by PlannerStatisticsJob, started with the server).
 */
export async function openDatabase(options: { url?: string; dataDir?: string; template?: string }): Promise<Database> {
  if (options.url) {
    const pool = new ReleasingPool({ connectionString: options.url, max: 10 });
    // An idle connection closed by the server (restart, failover, a dropped test database) is emitted on the
    // pool; without a listener it would crash the process. The pool replaces it on the next query.
    pool.on('error', (error) => {
      console.warn(`PostgreSQL connection lost: ${error.message}`);
    });
    // A connection lost while checked out (a query or transaction running during a restart) also
    // emits 'error' on its client: the query itself fails (and is retried by its caller), the pool
    // drops the client; without a listener the process would crash.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    const db = drizzlePg(pool, { schema });
    // Several instances starting at once migrate one at a time: the others wait on the lock, then find nothing to do.
    const lock = await pool.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(db, { migrationsFolder });
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      lock.release();
    }
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  const dir = options.dataDir ?? 'memory://';
  if (!dir.startsWith('memory://')) {
    // The database files hold chat logs and encrypted tokens: private to this user, also the ones created later
    // (the umask is the process's, so the database thread's files too).
    privateFileCreation();
    makePrivate(dir);
    seedFromTemplate(path.join(dir, 'pglite'), options.template);
    const remote = await PGliteRemote.create(path.join(dir, 'pglite'));
    const db = drizzlePglite(remote as unknown as PGlite, { schema });
    await migratePglite(db, { migrationsFolder });
    await analyzeStale(db);
    makePrivate(dir);
    return { db: db as unknown as Db, kind: 'pglite', close: () => remote.close(), memory: () => remote.memory() };
  }
  const client = await PGlite.create(dir, { extensions: pgliteExtensions });
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
