/**
 * A pooled connection that dies while checked out (a PostgreSQL restart) is given back to the pool:
 * a transaction whose BEGIN fails on it does not keep it for ever, so later queries still get a
 * connection and closing the database returns. PostgreSQL only (`npm run test:pg`): the database
 * sits behind a TCP proxy the test cuts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import { freshDatabase } from './helper';
import { TcpProxy } from './tcp-proxy';

const pgUrl = process.env.TEST_DATABASE_URL;
const onPostgres = pgUrl ? describe : describe.skip;

let proxy: TcpProxy;
let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  if (!pgUrl) return;
  const target = new URL(pgUrl);
  proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  ({ database, drop } = await freshDatabase((url) => {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    return through;
  }));
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await drop?.();
});

interface PoolCounts {
  totalCount: number;
  idleCount: number;
}

onPostgres('a connection lost while checked out', () => {
  it('is released when BEGIN fails on it, so the pool keeps serving and closes', async () => {
    const pool = (database.db as unknown as { $client: PoolCounts }).$client;
    await database.db.execute(sql`select 1`);
    // At least one idle connection (opening the database may have used more than one).
    expect(pool.idleCount).toBeGreaterThanOrEqual(1);

    // The idle connection is handed out before its client notices the cut: BEGIN fails on it.
    proxy.cut();
    const failed = await database.db
      .transaction(async (tx) => tx.execute(sql`select 1`))
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failed).toBeInstanceOf(Error);
    proxy.restore();

    await expect.poll(() => pool.totalCount, { timeout: 5000 }).toBe(0);
    await database.db.transaction(async (tx) => tx.execute(sql`select 1`));
    const closed = await Promise.race([
      database.close().then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('stuck'), 5000)),
    ]);
    expect(closed).toBe('closed');
  });
});
