/**
 * The embedded database's memory. PostgreSQL runs inside PGlite's WebAssembly memory, which only
 * grows: a page PostgreSQL touched once (its buffer cache, a sort's work memory, an index build)
 * stays resident for the life of the process. So what PostgreSQL may use is set at start
 * (`postgresql.conf` in the data directory, written by PGlite on every start), and the database
 * thread's own JavaScript heap is bounded (`resourceLimits` of its Worker). Figures behind these
 * values: docs/ARCHITECTURE.md, chat pipeline, "Memory".
 */
import type { ResourceLimits } from 'node:worker_threads';

export const pgliteSettings: Readonly<Record<string, string>> = {
  // The page cache (PostgreSQL's default is 128 MB, all of it resident once the chat log is busy). The chat
  // log's hot pages (each channel's tail, the indexes' right edges) fit; the rest is read from the files.
  shared_buffers: '32MB',
  // Index builds (migrations) and VACUUM: PostgreSQL's default is 64 MB, kept resident once an index was built.
  maintenance_work_mem: '16MB',
  // A sort or hash before it spills to a file (PostgreSQL's default, written down: the stats rollups use it).
  work_mem: '4MB',
  // Temporary tables' buffers (none are used): PostgreSQL's default is 8 MB.
  temp_buffers: '1MB',
};

/** `postgresql.conf` lines for PGlite's `postgresqlconf` start option. */
export const pgliteConf = Object.entries(pgliteSettings).map(([name, value]) => `${name}=${value}`);

/**
 * The database thread's V8 heap: a young generation of 8 MB (V8's default semi-spaces grow to 16 MB
 * each, and a busy thread keeps them): what lives there is one query's rows at a time.
 */
export const databaseThreadLimits: ResourceLimits = { maxYoungGenerationSizeMb: 8 };
