/**
 * Text PostgreSQL can store: no NUL characters (text columns refuse them) and no unpaired UTF-16
 * surrogates (not valid Unicode; jsonb refuses their escapes, text columns would silently get U+FFFD).
 */

/** An unpaired UTF-16 surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const loneSurrogates = new RegExp(loneSurrogate.source, 'g');

/** Why a string cannot be stored as it is, or null. */
export function unsafeText(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (loneSurrogate.test(value)) return 'must be valid Unicode text (it has an unpaired surrogate)';
  return null;
}

/** The string with NUL characters and unpaired surrogates replaced by U+FFFD (for records that must be written anyway). */
export function storableText(value: string): string {
  return unsafeText(value) === null ? value : value.replaceAll('\u0000', '\uFFFD').replace(loneSurrogates, '\uFFFD');
}

/** A JSON value with every string and key made storable (see storableText); nesting below `maxDepth` is cut. */
export function storableJson(value: unknown, maxDepth = 32): unknown {
  if (typeof value === 'string') return storableText(value);
  if (value === null || typeof value !== 'object') return value;
  if (maxDepth <= 0) return null;
  if (Array.isArray(value)) return value.map((v) => storableJson(v, maxDepth - 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v, maxDepth - 1)]));
}
