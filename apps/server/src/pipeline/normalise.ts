/**
 * The pipeline's first step: what a platform sends is made storable before anything else sees it,
 * so one hostile message can never fail the batch it is written with.
 *
 * - NUL (U+0000) is removed: PostgreSQL text and jsonb cannot hold it.
 * - Lone surrogates become U+FFFD: they are not valid UTF-8, and jsonb refuses their escapes.
 * - Strings are capped (ids and names that are indexed or displayed in one line: 200 code units;
 *   URLs 2,048; message text 2,000; anything else 500) without splitting a surrogate pair; lists
 *   are capped too, and emotes that no longer fall inside the text are dropped.
 * - Integers outside PostgreSQL's `integer` range (or not integers) become null; timestamps that do
 *   not parse, or lie outside years 1970–9999, become the receipt time.
 *
 * Pure, allocation-light for clean input (the same objects come back when nothing needed fixing).
 */
import type { PlatformEvent } from '../platforms/port';

export const TEXT_MAX = 2000;
export const LINE_MAX = 200;
export const URL_MAX = 2048;
export const OTHER_MAX = 500;
const LIST_MAX = 500;

/** Keys whose strings are message text (long). */
const textKeys = new Set(['text', 'message']);
/** Keys whose strings are URLs. */
const urlKeys = new Set(['url', 'avatar_url']);
/** Keys whose strings are ids, logins and names: indexed or shown on one line. */
const lineKeys = new Set([
  'provider_message_id',
  'provider_user_id',
  'provider_event_id',
  'login',
  'display_name',
  'id',
  'set_id',
  'label',
  'name',
  'color',
  'tier',
  'amount',
  'highlight',
  'live_stream_id',
  'user_id',
  'author_display_name',
]);
const dateKeys = new Set(['sent_at', 'occurred_at', 'started_at']);
const intKeys = new Set(['months', 'count', 'duration_seconds', 'viewer_count', 'start', 'end']);

const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;
// NUL is exactly what these look for.
// eslint-disable-next-line no-control-regex
const suspicious = /[\u0000\ud800-\udfff]/;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// eslint-disable-next-line no-control-regex
const nul = /\u0000/g;

function maxFor(key: string): number {
  if (textKeys.has(key)) return TEXT_MAX;
  if (lineKeys.has(key)) return LINE_MAX;
  if (urlKeys.has(key)) return URL_MAX;
  return OTHER_MAX;
}

/** A string PostgreSQL can store: no NUL, no lone surrogate, at most `max` UTF-16 code units (a pair is never split). */
export function cleanString(value: string, max: number): string {
  let s = value;
  if (suspicious.test(s)) s = s.replace(nul, '').replace(loneSurrogate, '\ufffd');
  if (s.length > max) {
    s = s.slice(0, max);
    const last = s.charCodeAt(s.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) s = s.slice(0, -1);
  }
  return s;
}

function cleanInt(value: number): number | null {
  return Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX ? value : null;
}

/** An ISO timestamp PostgreSQL and JavaScript agree on; `fallback` when it does not parse or is out of range. */
export function cleanDate(value: unknown, fallback: string): string {
  if (typeof value !== 'string') return fallback;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return fallback;
  const year = new Date(ms).getUTCFullYear();
  if (year < 1970 || year > 9999) return fallback;
  return new Date(ms).toISOString();
}

/** Cleans every string, integer and timestamp under `value` (copy on write: clean input comes back as is). */
function clean(value: unknown, key: string, now: string): unknown {
  if (typeof value === 'string') {
    if (dateKeys.has(key)) return cleanDate(value, now);
    return cleanString(value, maxFor(key));
  }
  if (typeof value === 'number') {
    if (intKeys.has(key)) return cleanInt(value);
    return Number.isFinite(value) ? value : null;
  }
  if (Array.isArray(value)) {
    let out: unknown[] | null = value.length > LIST_MAX ? value.slice(0, LIST_MAX) : null;
    const source = out ?? value;
    for (let i = 0; i < source.length; i++) {
      const item: unknown = source[i];
      const next = clean(item, key, now);
      if (next !== item) {
        out ??= source.slice();
        out[i] = next;
      }
    }
    return out ?? value;
  }
  if (value !== null && typeof value === 'object') {
    let out: Record<string, unknown> | null = null;
    for (const [k, item] of Object.entries(value)) {
      const next = clean(item, k, now);
      if (next !== item) {
        out ??= { ...(value as Record<string, unknown>) };
        out[k] = next;
      }
    }
    return out ?? value;
  }
  return value;
}

/** An adapter event made storable (see the file comment); `now` is the receipt time (ISO). */
export function normaliseEvent(event: PlatformEvent, now: string): PlatformEvent {
  const cleaned = clean(event, '', now) as PlatformEvent;
  if (cleaned.kind !== 'chat') return cleaned;
  const m = cleaned.message;
  const length = m.text.length;
  const emotes = m.emotes.filter((e) => e.start !== null && e.end !== null && e.start >= 0 && e.end <= length && e.start < e.end);
  if (emotes.length === m.emotes.length) return cleaned;
  return { ...cleaned, message: { ...m, emotes } };
}
