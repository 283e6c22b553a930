/**
 * The main thread's side of the embedded database on its own thread (pglite-worker.ts): the part
 * of PGlite's interface drizzle uses — `query` (with its row mode and the type oids it wants kept
 * as text) and `transaction` — carried over messages. A transaction stays open in the worker
 * across messages; PGlite there queues other queries until it ends, as it would in-process.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { databaseThreadLimits } from './pglite-settings';

export type WorkerRequest =
  | {
      id: number;
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode?: 'array' | 'object';
      rawTypes?: number[];
      tx?: number;
      /** The first query of transaction `tx`: the worker opens it first. */
      begin?: boolean;
    }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'close' }
  | { id: number; op: 'memory' };

export interface WorkerResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

/** The database thread's memory (bytes): its V8 heap, and PGlite's WebAssembly memory (it only grows). */
export interface DatabaseThreadMemory {
  heapUsed: number;
  heapTotal: number;
  /** Memory outside the thread's heap held by its objects (buffers). */
  external: number;
  /** PGlite's WebAssembly memory: PostgreSQL's shared buffers, caches and work memory live there. */
  wasm: number;
}

export interface WorkerReply {
  id: number;
  result?: WorkerResult;
  memory?: DatabaseThreadMemory;
  error?: { message: string; fields: Record<string, string | number> };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

/** The ESM entry of tsx's loader API (the package's `import` condition). */
function tsxLoader(): string {
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  return pathToFileURL(cjs.replace(/index\.cjs$/, 'index.mjs')).href;
}

/** Rebuilds the database's error with its fields (`code` …) so callers classify it as they would in-process. */
function rebuild(error: NonNullable<WorkerReply['error']>): Error {
  return Object.assign(new Error(error.message), { name: 'DatabaseError' }, error.fields);
}

export interface RemoteTransaction {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<WorkerResult>;
}

export class PGliteRemote {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (r: WorkerReply) => void; reject: (e: Error) => void }>();
  private next = 1;
  private closed = false;

  private constructor(dataDir: string) {
    const here = fileURLToPath(import.meta.url);
    // The worker file next to this one, with this file's extension (.ts under tsx, .js when built).
    const ext = path.extname(here);
    const file = pathToFileURL(path.join(path.dirname(here), `pglite-worker${ext}`)).href;
    // Run from TypeScript sources (tsx): the worker registers the same loader before importing its file.
    const loader = ext === '.ts' ? tsxLoader() : null;
    const bootstrap = loader
      ? `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(file)}); });`
      : `import(${JSON.stringify(file)});`;
    this.worker = new Worker(bootstrap, { eval: true, workerData: { dataDir }, resourceLimits: databaseThreadLimits });
    this.worker.unref();
    this.worker.on('message', (reply: WorkerReply) => {
      const pending = this.waiting.get(reply.id);
      if (!pending) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.worker.unref();
      if (reply.error) pending.reject(rebuild(reply.error));
      else pending.resolve(reply);
    });
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', (code) => this.failAll(new Error(`The database thread stopped (exit code ${code}).`)));
  }

  /** Opens the database in `dataDir` on its own thread (resolves once it answers). */
  static async create(dataDir: string): Promise<PGliteRemote> {
    const remote = new PGliteRemote(dataDir);
    await remote.query('SELECT 1');
    return remote;
  }

  private failAll(error: Error): void {
    this.closed = true;
    for (const pending of this.waiting.values()) pending.reject(error);
    this.waiting.clear();
  }

  private exchange(request: DistributiveOmit<WorkerRequest, 'id'> & { id?: number }): Promise<WorkerReply> {
    if (this.closed) return Promise.reject(new Error('The database is closed.'));
    const id = request.id ?? this.next++;
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  private async send(request: DistributiveOmit<WorkerRequest, 'id'> & { id?: number }): Promise<WorkerResult> {
    return (await this.exchange(request)).result!;
  }

  /** The bounds of the database thread's V8 heap (pglite-settings.ts), as the thread runs with them. */
  get resourceLimits(): ResourceLimits {
    return this.worker.resourceLimits ?? {};
  }

  /** The database thread's heap and PGlite's WebAssembly memory (a memory report, see lib/memory-report.ts). */
  async memory(): Promise<DatabaseThreadMemory> {
    return (await this.exchange({ op: 'memory' })).memory!;
  }

  query(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number, begin = false): Promise<WorkerResult> {
    const rawTypes = options.parsers ? Object.keys(options.parsers).map(Number) : undefined;
    return this.send({
      op: 'query',
      sql,
      params,
      ...(options.rowMode ? { rowMode: options.rowMode } : {}),
      ...(rawTypes ? { rawTypes } : {}),
      ...(tx !== undefined ? { tx } : {}),
      ...(begin ? { begin } : {}),
    });
  }

  /**
   * A transaction held open in the worker. It is opened by its first query (that message carries
   * the BEGIN: one round trip between the threads less per transaction, each about 0.1–0.2 ms of CPU
   * and, under load, a wait for this thread's event loop while the database is held); one that
   * sends no query costs nothing.
   */
  async transaction<T>(callback: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    const id = this.next++;
    /** Settles once the first query (the one that opens the transaction) was answered; later ones wait for it. Null: none sent, nothing to end. */
    let opening: Promise<unknown> | null = null;
    const tx: RemoteTransaction = {
      query: (sql, params = [], options = {}) => {
        if (opening) return opening.then(() => this.query(sql, params, options, id));
        const first = this.query(sql, params, options, id, true);
        opening = first.catch(() => undefined);
        return first;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      if (opening) await this.send({ op: 'rollback', tx: id }).catch(() => undefined);
      throw error;
    }
    if (opening) await this.send({ op: 'commit', tx: id });
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.send({ op: 'close' }).catch(() => undefined);
    this.closed = true;
    await this.worker.terminate();
  }
}
