/**
 * The embedded database on its own thread: PGlite (PostgreSQL compiled to WebAssembly) runs its
 * queries synchronously on the thread that holds it, so in the server's main thread every commit
 * would stall websockets, platform connections and HTTP for its whole duration. Here it answers the
 * messages of `pglite-remote.ts`: queries, and transactions held open across several messages.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { BatchedQueries } from './pglite-batched';
import { pgliteExtensions } from './pglite-extensions';
import { pgliteConf } from './pglite-settings';
import { logSlow, slowMs, watchEventLoop } from './slow-log';
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
// PostgreSQL's memory settings (the page cache, work memory): see pglite-settings.ts.
const ready = PGlite.create(dataDir, { postgresqlconf: pgliteConf, extensions: pgliteExtensions });
const transactions = new Map<number, OpenTransaction>();
const batched = ready.then((pg) => new BatchedQueries(pg));
let runningBatched: BatchedQueries | null = null;
void batched.then((b) => (runningBatched = b));
if (slowMs > 0) {
  void ready.then(timeDatabaseCalls);
  watchEventLoop();
}

/** Time spent inside PGlite during the request being answered (DB_SLOW_MS only). */
let runMsOfCalls = 0;

/**
 * DB_SLOW_MS (slow-log.ts): each synchronous call into PGlite's WebAssembly and each flush of its files timed, the slow
 * ones logged with the statement they ran, read from the protocol messages themselves (a simple query's text, a
 * parse's text, or the text a bind names), since calls queue under PGlite's locks in an order this file does not see.
 */
function timeDatabaseCalls(pg: PGlite): void {
  const texts = new Map<string, string>();
  const cstring = (bytes: Uint8Array, at: number): [string, number] => {
    const end = bytes.indexOf(0, at);
    return [Buffer.from(bytes.buffer, bytes.byteOffset + at, end - at).toString('utf8'), end + 1];
  };
  const statementOf = (bytes: Uint8Array): string => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at + 5 <= bytes.length; at += 1 + view.getInt32(at + 1)) {
      const code = String.fromCharCode(bytes[at]!);
      if (code === 'Q') return cstring(bytes, at + 5)[0];
      if (code === 'P') {
        const [name, next] = cstring(bytes, at + 5);
        const text = cstring(bytes, next)[0];
        // The unnamed statement too: a bind of '' runs the last one parsed.
        texts.set(name, text);
        return text;
      }
      if (code === 'B') {
        const [, next] = cstring(bytes, at + 5);
        const name = cstring(bytes, next)[0];
        // A statement prepared by pglite-batched.ts, which says what it runs.
        return texts.get(name) ?? runningBatched?.running ?? `(prepared statement ${name || 'unnamed'})`;
      }
    }
    return '(protocol)';
  };
  const engine = pg as unknown as { execProtocolRawSync(message: Uint8Array): Uint8Array; syncToFs(): Promise<void> };
  const run = engine.execProtocolRawSync.bind(pg);
  engine.execProtocolRawSync = (message: Uint8Array) => {
    const started = performance.now();
    try {
      return run(message);
    } finally {
      const ms = performance.now() - started;
      runMsOfCalls += ms;
      if (ms > slowMs) logSlow({ kind: 'run', at: Date.now(), ms, sql: statementOf(message) });
    }
  };
  const sync = engine.syncToFs.bind(pg);
  engine.syncToFs = async () => {
    const started = performance.now();
    try {
      await sync();
    } finally {
      const ms = performance.now() - started;
      if (ms > slowMs) logSlow({ kind: 'sync', at: Date.now(), ms });
    }
  };
}

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

/**
 * The type oids drizzle keeps as the database's text (it maps dates itself): every query it sends
 * names the same ones (`rawTypes`). They are set once on the database's own parsers, so a query
 * passes no parsers: PGlite copies its whole parser table (hundreds of types) into a new object for
 * every query that passes some, about a third of a small query's cost in this thread.
 */
let instanceRaw = '';
const keepText = (value: string) => value;

function parsersFor(pg: PGlite, oids: number[] | undefined): Record<number, (value: string) => unknown> | undefined {
  const key = oids?.length ? [...oids].sort((a, b) => a - b).join(',') : '';
  if (key === instanceRaw) return undefined;
  if (instanceRaw === '' && key !== '') {
    // The first query that keeps types as text (drizzle's first, at start-up) sets them on the instance.
    for (const oid of oids!) {
      original.set(oid, pg.parsers[oid]);
      pg.parsers[oid] = keepText;
    }
    instanceRaw = key;
    return undefined;
  }
  // Another set (no caller sends one today): exactly these kept as text, the others as PGlite parses them.
  const wanted = new Set(oids ?? []);
  const out: Record<number, (value: string) => unknown> = {};
  for (const [oid, parser] of original) if (!wanted.has(oid) && parser) out[oid] = parser as (value: string) => unknown;
  for (const oid of wanted) out[oid] = keepText;
  return out;
}
const original = new Map<number, unknown>();

/**
 * Opens a PGlite transaction (it queues other queries until it ends), kept open across messages
 * until commit or rollback.
 */
async function openTransaction(pg: PGlite, id: number): Promise<void> {
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
  transactions.set(id, { ...entry, done });
  if (slowMs > 0) {
    const opened = performance.now();
    void done
      .catch(() => {})
      .finally(() => {
        const ms = performance.now() - opened;
        if (ms > slowMs) logSlow({ kind: 'tx', at: Date.now(), ms });
      });
  }
}

port.on('message', (request: WorkerRequest) => {
  void handle(request);
});

async function handle(request: WorkerRequest): Promise<void> {
  if (slowMs === 0) return answer(request);
  const started = performance.now();
  const runBefore = runMsOfCalls;
  await answer(request);
  const ms = performance.now() - started;
  if (ms > slowMs)
    logSlow({
      kind: 'call',
      at: Date.now(),
      ms,
      op: request.op,
      // Other requests' calls may run meanwhile (the thread interleaves them): the thread's PGlite time over the call.
      runMs: Math.round((runMsOfCalls - runBefore) * 10) / 10,
      ...(request.op === 'query' ? { sql: request.sql, tx: request.tx !== undefined } : {}),
    });
}

async function answer(request: WorkerRequest): Promise<void> {
  try {
    const pg = await ready;
    switch (request.op) {
      case 'query': {
        const options = { rowMode: request.rowMode, parsers: parsersFor(pg, request.rawTypes) };
        // A transaction's first query opens it (one message instead of two: see pglite-remote.ts).
        if (request.begin && request.tx !== undefined) await openTransaction(pg, request.tx);
        if (request.tx !== undefined && !transactions.has(request.tx)) throw new Error('The transaction is no longer open.');
        // The extended protocol's messages in one call (db/pglite-batched.ts), not six.
        const fast = await batched;
        const result = await fast.query(request.sql, request.params, options, request.tx !== undefined);
        reply({ id: request.id, result: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows } });
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
      case 'memory': {
        const heap = getHeapStatistics();
        reply({
          id: request.id,
          memory: {
            heapUsed: heap.used_heap_size,
            heapTotal: heap.total_heap_size,
            external: heap.external_memory,
            // Emscripten's view of the memory (its types are not in PGlite's declarations).
            wasm: (pg.Module as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer.byteLength,
          },
        });
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
