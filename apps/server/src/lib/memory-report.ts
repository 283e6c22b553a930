/**
 * Where the server's resident memory is (`kill -USR2 <pid>` prints it: see main.ts): the main
 * thread's V8 heap and what its objects hold outside it (buffers), the embedded database thread's
 * heap and PGlite's WebAssembly memory, and the process's resident pages by kind of mapping
 * (/proc/self/smaps on Linux): the WebAssembly memory's reservation, files (the node binary, shared
 * libraries) and the rest (V8 heaps, malloc: native code's buffers, sockets, compiled code).
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type { DatabaseThreadMemory } from '../db/pglite-remote';

const MB = 1024 * 1024;

/**
 * How far past its live size V8 lets a heap grow before its next full collection: 1.5×. V8 picks
 * 1.1–4× from its collector's speed against the program's, and under the chat load took 2.4× (367 MB
 * of heap for 153 MB live); fixed at 1.5× the server's RSS was 568 MB instead of 718 MB at the same
 * load, with nothing lost (docs/ARCHITECTURE.md, chat pipeline, Memory). Process-wide (both threads);
 * V8 reads it at every collection, so it applies when set at start.
 */
export const HEAP_GROWING_PERCENT = 50;

export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
const mb = (bytes: number) => Math.round(bytes / MB);

/** Resident bytes by kind of mapping, from the text of /proc/<pid>/smaps. */
export interface ResidentByMapping {
  /**
   * The WebAssembly memory's mapping: anonymous, of exactly its size (Node 20 maps a memory with a
   * maximum of its own size), or a reservation of 4 GiB or more (V8's guard regions elsewhere).
   */
  wasm: number;
  /** Mappings of a file: the node binary, shared libraries, mapped files. */
  files: number;
  /** Everything else: V8's heaps, malloc (native code's buffers), thread stacks, compiled code. */
  anonymous: number;
}

export function residentByMapping(smaps: string, wasmBytes: number | null): ResidentByMapping {
  const out: ResidentByMapping = { wasm: 0, files: 0, anonymous: 0 };
  let kind: keyof ResidentByMapping = 'anonymous';
  for (const line of smaps.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (header) {
      const size = Number.parseInt(header[2]!, 16) - Number.parseInt(header[1]!, 16);
      const file = header[4]!.trim();
      kind = file.startsWith('/') ? 'files' : size === wasmBytes || size >= 4 * 1024 * MB ? 'wasm' : 'anonymous';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]) * 1024;
  }
  return out;
}

export interface MemoryReport {
  /** Megabytes throughout. */
  rss: number;
  main: { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; liveAfterGc: number | null };
  database: { heapUsed: number; heapTotal: number; external: number; wasm: number } | null;
  resident: ResidentByMapping | null;
  /** Chat rows accepted and waiting for their commit (the group commit's queue: a backlog lives in the main heap). */
  chatHeld: number;
}

/** The report; `database` is the embedded database thread's own figures (null on PostgreSQL or in-process). */
export async function memoryReport(database: (() => Promise<DatabaseThreadMemory>) | null, chatHeld: number): Promise<MemoryReport> {
  const usage = process.memoryUsage();
  // Started with --expose-gc (benches): what of the heap is live, after a full collection.
  const gc = (globalThis as { gc?: () => void }).gc;
  let liveAfterGc: number | null = null;
  if (gc) {
    gc();
    liveAfterGc = mb(process.memoryUsage().heapUsed);
  }
  const db = database ? await database() : null;
  let resident: ResidentByMapping | null = null;
  try {
    const r = residentByMapping(readFileSync('/proc/self/smaps', 'utf8'), db?.wasm ?? null);
    resident = { wasm: mb(r.wasm), files: mb(r.files), anonymous: mb(r.anonymous) };
  } catch {
    // Not Linux.
  }
  return {
    rss: mb(usage.rss),
    main: {
      heapUsed: mb(usage.heapUsed),
      heapTotal: mb(usage.heapTotal),
      external: mb(usage.external),
      arrayBuffers: mb(usage.arrayBuffers),
      liveAfterGc,
    },
    database: db ? { heapUsed: mb(db.heapUsed), heapTotal: mb(db.heapTotal), external: mb(db.external), wasm: mb(db.wasm) } : null,
    resident,
    chatHeld,
  };
}
