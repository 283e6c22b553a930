/**
 * Rows for a set-based statement (`json_to_recordset`) as ONE parameter: their JSON text, cast to `json`. The chat
 * ingest's hot statements carry their rows so (the messages of a group commit, their effects, the points credits of
 * a batch). The statement's text is then the same whatever its rows and however many: on PGlite it is parsed and
 * planned once (db/pglite-batched.ts keeps it as a named prepared statement with a generic plan, and runs each
 * execution in one call), where rows written into the text made every batch a new statement to parse and plan
 * (≈ 2.5 ms a batch in the database thread: `bench/chat-store-cost.ts`, docs/ARCHITECTURE.md). JSON text never holds
 * a NUL or a lone surrogate (`JSON.stringify` escapes both), so the value is always valid UTF-8 text.
 */
import { sql, type SQL } from 'drizzle-orm';

/** `value` as JSON text in a parameter cast to `json`, e.g. for `json_to_recordset(…)`. */
export function jsonParam(value: unknown): SQL {
  return sql`${JSON.stringify(value)}::text::json`;
}
