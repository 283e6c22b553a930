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
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Opens the database and applies pending migrations: PostgreSQL when `url` is given,
 * otherwise embedded PGlite in `dataDir` (or in memory for `memory://`).
 */
export async function openDatabase(options: { url?: string; dataDir?: string }): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection closed by the server (restart, failover, a dropped test database) is emitted on the
    // pool; without a listener it would crash the process. The pool replaces it on the next query.
    pool.on('error', (error) => {
      console.warn(`PostgreSQL connection lost: ${error.message}`);
    });
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  const dir = options.dataDir ?? 'memory://';
  const onDisk = !dir.startsWith('memory://');
  if (onDisk) {
    // The database files hold chat logs and encrypted tokens: private to this user, also the ones created later.
    privateFileCreation();
    makePrivate(dir);
  }
  const client = await PGlite.create(onDisk ? path.join(dir, 'pglite') : dir);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  if (onDisk) makePrivate(dir);
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
