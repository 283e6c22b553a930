/**
 * What the command import (import.ts) and the timer import (timer-import.ts) share: reading untrusted
 * JSON without throwing, finding the list in a pasted export, the preview line of an item, and the
 * notes for variables the bot does not know. Both imports are pure and never throw on odd input
 * except `ImportError` (not an export of either bot), which the route answers with 400.
 */
import { cleanString } from '../../../pipeline/normalise';
import { parseTemplate } from './template';
import { variables } from './variables';

export type ImportSource = 'nightbot' | 'streamelements';

/** ok: maps fully; partial: imported with the notes' caveats; skipped: not imported (the notes say why). */
export type ImportStatus = 'ok' | 'partial' | 'skipped';

/** One line of an import preview: the name in the export, what it maps to (null when skipped) and why. */
export interface PreviewItem<T> {
  source_name: string;
  status: ImportStatus;
  value: T | null;
  notes: string[];
  /** For a skipped line: the field its reason is about (`name` when the name is taken), for field errors. */
  field?: string;
}

/** The data is not an export of either bot. */
export class ImportError extends Error {}

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A string field the database can store (no NUL, no lone surrogate); numbers are accepted as their digits; anything else is empty. */
export const str = (v: unknown): string =>
  typeof v === 'string' ? cleanString(v, Number.MAX_SAFE_INTEGER) : typeof v === 'number' ? String(v) : '';
/** A non-negative count field: a finite number (below zero: 0) or a string of digits; anything else is 0. */
export const num = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) ? Math.max(0, v) : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0;

/** The list in a pasted export: the API's body when it is an array, else its `key` array. */
export function exportList(data: unknown, key: string): unknown[] | null {
  if (Array.isArray(data)) return data as unknown[];
  if (isObject(data) && Array.isArray(data[key])) return data[key] as unknown[];
  return null;
}

/** Variables of the other bots already explained by their own note. */
const explained = new Set(['eval', 'countdown', 'countup']);

/** Notes for variables the bot does not know (they would render a marker). */
export function unknownVariables(texts: readonly string[]): string[] {
  const unknown = new Set<string>();
  for (const r of texts) for (const name of parseTemplate(r).names) if (!variables.has(name) && !explained.has(name)) unknown.add(name);
  return [...unknown].map((n) => `Variable ${n} is not supported and would show [unknown: ${n}]`);
}

/** A mapped item: `ok` without notes, else `partial`; unknown variables of `texts` are noted, each note once. */
export function mapped<T>(sourceName: string, value: T, texts: readonly string[], notes: string[]): PreviewItem<T> {
  const all = [...new Set([...notes, ...unknownVariables(texts)])];
  return { source_name: sourceName, status: all.length ? 'partial' : 'ok', value, notes: all };
}

export function skipped<T>(sourceName: string, reason: string, field?: string): PreviewItem<T> {
  return { source_name: sourceName, status: 'skipped', value: null, notes: [reason], ...(field ? { field } : {}) };
}

/**
 * The lines an apply saves: `only` (positions in `items`) or every line that maps. A position that is not a line,
 * or a line that is skipped, is refused with `ImportError` naming the line.
 */
export function chosenLines(items: readonly PreviewItem<unknown>[], only: readonly number[] | undefined): number[] {
  if (!only) return items.flatMap((item, i) => (item.value ? [i] : []));
  for (const i of only) {
    const item = items[i];
    if (!item) throw new ImportError(`The export has no line ${i + 1}: preview it again.`);
    if (!item.value) throw new ImportError(`${item.source_name} cannot be imported: ${item.notes[0] ?? 'it does not map'}`);
  }
  return [...new Set(only)];
}
