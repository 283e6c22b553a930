/**
 * The embedded database on its own thread: PGlite (PostgreSQL compiled to WebAssembly) runs its
 * queries synchronously on the thread that holds it, so in the server's main thread every commit
 * would stall websockets, platform connections and HTTP for its whole duration. Here it answers the
 * messages of `pglite-remote.ts`: queries, and transactions held open across several messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { SIMPLE_PROTOCOL } from './literal';
import { BatchedQueries } from './pglite-batched';
import { pgliteExtensions } from './pglite-extensions';
import type { WorkerReply, WorkerRequest } from './pglite-remote';

interface OpenTransaction {
  tx: Transaction;
  /** Ends the transaction callback: commit (true) or roll back (false). */
  finish: (commit: boolean) => void;
  /** Settles once PGlite has run COMMIT (or ROLLBACK). */
  done: Promise<void>;
}

const port = parentPort!;
const { dataDir } = workerData as { dataDir: string };
// Shared buffers of a small server (PostgreSQL's default is 128 MB, all resident once the chat log is busy).
const ready = PGlite.create(dataDir, { postgresqlconf: 'shared_buffers=32MB', extensions: pgliteExtensions });
const transactions = new Map<number, OpenTransaction>();
const batched = ready.then((pg) => new BatchedQueries(pg));

class RolledBack extends Error {}

function reply(message: WorkerReply): void {
  port.postMessage(message);
}

function errorOf(error: unknown): WorkerReply['error'] {
  const e = error as Record<string, unknown> | null;
  const out: NonNullable<WorkerReply['error']> = { message: error instanceof Error ? error.message : String(error), fields: {} };
  if (e && typeof e === 'object') {
    for (const key of ['code', 'detail', 'hint', 'severity', 'constraint', 'table', 'column', 'schema', 'position']) {
      const value = e[key];
      if (typeof value === 'string' || typeof value === 'number') out.fields[key] = value;
    }
  }
  return out;
}

/** Keeps the values of these type oids as the database's text (drizzle maps dates itself). */
function rawParsers(oids: number[] | undefined): Record<number, (value: string) => string> | undefined {
  if (!oids?.length) return undefined;
  return Object.fromEntries(oids.map((oid) => [oid, (value: string) => value]));
}

port.on('message', (request: WorkerRequest) => {
  void handle(request);
});

async function handle(request: WorkerRequest): Promise<void> {
  try {
    const pg = await ready;
    switch (request.op) {
      case 'query': {
        const options = { rowMode: request.rowMode, parsers: rawParsers(request.rawTypes) };
        const target = request.tx !== undefined ? transactions.get(request.tx)?.tx : pg;
        if (!target) throw new Error('The transaction is no longer open.');
        // A chat ingest statement (marked, without parameters: db/literal.ts) over the simple query
        // protocol: one call into the database instead of the extended protocol's six (parse,
        // describe, bind, describe, execute, sync), about half its CPU.
        // Any other statement: the extended protocol's messages in one call (db/pglite-batched.ts), not six.
        const fast = await batched;
        let result;
        if (request.params.length === 0 && request.sql.startsWith(SIMPLE_PROTOCOL)) {
          fast.forgetTypesUnlessDml(request.sql);
          result = (await target.exec(request.sql, options)).at(-1) ?? { rows: [], fields: [], affectedRows: 0 };
        } else {
          result = await fast.query(request.sql, request.params, options, request.tx !== undefined);
        }
        reply({ id: request.id, result: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows } });
        return;
      }
      case 'begin': {
        // PGlite's own transaction (it queues other queries until it ends), kept open until commit/rollback.
        let opened!: (entry: Omit<OpenTransaction, 'done'>) => void;
        const started = new Promise<Omit<OpenTransaction, 'done'>>((resolve) => (opened = resolve));
        const done = pg.transaction(
          (tx) =>
            new Promise<void>((resolve, reject) => {
              opened({ tx, finish: (commit) => (commit ? resolve() : reject(new RolledBack())) });
            }),
        );
        const entry = await Promise.race([started, done.then(() => null)]);
        if (!entry) throw new Error('The transaction ended before it started.');
        transactions.set(request.id, { ...entry, done });
        reply({ id: request.id, result: { rows: [], fields: [], affectedRows: 0 } });
        return;
      }
      case 'commit':
      case 'rollback': {
        const open = transactions.get(request.tx);
        transactions.delete(request.tx);
        if (!open) throw new Error('The transaction is no longer open.');
        open.finish(request.op === 'commit');
        if (request.op === 'commit') await open.done;
        else
          await open.done.catch((error: unknown) => {
            if (!(error instanceof RolledBack)) throw error;
          });
        reply({ id: request.id, result: { rows: [], fields: [], affectedRows: 0 } });
        return;
      }
      case 'close': {
        await pg.close();
        reply({ id: request.id, result: { rows: [], fields: [], affectedRows: 0 } });
        return;
      }
    }
  } catch (error) {
    reply({ id: request.id, error: errorOf(error) });
  }
}
