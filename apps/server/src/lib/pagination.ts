/**
 * Shared helpers of the paginated lists (chat history, activity, audit log, channel lists): cursor parsing,
 * the "fetch one more row" page, and LIKE escaping for searches.
 */
import { badRequest } from './errors';

export const INVALID_CURSOR = 'The cursor is not valid. Start again from the first page.';

/** `%`, `_` and `\` are literal in a search (ILIKE's default escape character is the backslash). */
export function escapeLike(q: string): string {
  return q.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A numeric sequence cursor ("123": a `seq` or bigserial id); null when absent, 400 when malformed. */
export function parseSeqCursor(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  // 15 digits stay exact as a JavaScript number.
  if (!/^\d{1,15}$/.test(value)) throw badRequest(INVALID_CURSOR);
  return Number(value);
}

/** An opaque keyset cursor of `size` strings (e.g. [display name, id]), base64url JSON. */
export function encodeKeysetCursor(parts: string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** The parts of a keyset cursor; null when absent, 400 when it is not one of `size` strings. */
export function decodeKeysetCursor(cursor: string | undefined, size: number): string[] | null {
  if (!cursor) return null;
  try {
    const parts: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parts) && parts.length === size && parts.every((p) => typeof p === 'string')) return parts;
  } catch {
    // fall through
  }
  throw badRequest(INVALID_CURSOR);
}

/**
 * One page from rows fetched with `limit + 1`: the first `limit` rows and, when there were more, the cursor of the
 * last row returned (null at the end).
 */
export function pageOf<T>(rows: T[], limit: number, cursorOf: (last: T) => string): { rows: T[]; cursor: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  return { rows: page, cursor: more && last !== undefined ? cursorOf(last) : null };
}
