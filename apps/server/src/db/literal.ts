/**
 * A text value written into the SQL text itself, for the chat ingest's hot statements: on PGlite a
 * statement without parameters that starts with SIMPLE_PROTOCOL runs over the simple query protocol
 * (`exec`: one call into the database) instead of the extended one (parse, describe, bind, describe,
 * execute, sync: six), which halves its cost; see db/pglite-worker.ts. Dollar-quoted with a tag the text cannot close early, so
 * nothing in the text (quotes, backslashes, dollar signs) is ever read as SQL, whatever
 * `standard_conforming_strings` says. JSON text never holds a NUL or a lone surrogate
 * (`JSON.stringify` escapes both), so the statement stays valid UTF-8.
 */
import { sql, type SQL } from 'drizzle-orm';

/** The dollar-quoted SQL literal of `text` (a tag `$gr$`, `$gr1$`, … that first occurs where it closes). */
export function dollarQuote(text: string): string {
  for (let n = 0; ; n++) {
    const tag = n === 0 ? '$gr$' : `$gr${n}$`;
    if ((text + tag).indexOf(tag) === text.length) return `${tag}${text}${tag}`;
  }
}

/** `value` as JSON text in a literal cast to `json`, e.g. for `json_to_recordset(…)`. */
export function jsonLiteral(value: unknown): SQL {
  return sql.raw(`${dollarQuote(JSON.stringify(value))}::json`);
}

/**
 * Starts a statement PGlite may run over the simple query protocol (db/pglite-worker.ts): only these,
 * so that no other statement ever runs where several statements in one text would be accepted.
 */
export const SIMPLE_PROTOCOL = '/* gr:simple */';
export const simpleProtocol = sql.raw(`${SIMPLE_PROTOCOL} `);
