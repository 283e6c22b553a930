import type { InfiniteData } from '@tanstack/react-query';
import type { Paginated } from '@greenroom/contracts/api/common';

export type PaginatedPages<T> = InfiniteData<Paginated<T>, string | null>;
type Pages<T, P = unknown> = InfiniteData<Paginated<T>, P>;

function withTotal<T>(page: Paginated<T>, delta: number): Paginated<T> {
  return page.total === undefined ? page : { ...page, total: Math.max(0, page.total + delta) };
}

/**
 * Puts a new item at the front of the first page, optionally truncating that page to `maxSize`
 * records; `total` grows by one on every page that carries it. Unloaded data stays unloaded.
 */
export function prependToPages<T, P>(
  data: Pages<T, P> | undefined,
  item: NoInfer<T>,
  options: { maxSize?: number } = {},
): Pages<T, P> | undefined {
  if (!data) return data;
  const [first, ...rest] = data.pages;
  if (!first) return { ...data, pages: [{ records: [item], cursor: null, total: 1 }] };
  let records = [item, ...first.records];
  if (options.maxSize !== undefined) records = records.slice(0, Math.max(0, options.maxSize));
  return { ...data, pages: [withTotal({ ...first, records }, 1), ...rest.map((page) => withTotal(page, 1))] };
}

/** Replaces every record that matches. Pages without a match keep their identity. */
export function replaceInPages<T, P>(
  data: Pages<T, P> | undefined,
  match: (record: NoInfer<T>) => boolean,
  replacement: NoInfer<T> | ((previous: NoInfer<T>) => NoInfer<T>),
): Pages<T, P> | undefined {
  if (!data) return data;
  const next = (previous: T): T => (typeof replacement === 'function' ? (replacement as (previous: T) => T)(previous) : replacement);
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.records.some(match)) return page;
    changed = true;
    return { ...page, records: page.records.map((record) => (match(record) ? next(record) : record)) };
  });
  return changed ? { ...data, pages } : data;
}

/** Removes every record that matches; `total` shrinks by the number removed. */
export function removeFromPages<T, P>(data: Pages<T, P> | undefined, match: (record: NoInfer<T>) => boolean): Pages<T, P> | undefined {
  if (!data) return data;
  const removed = data.pages.reduce((count, page) => count + page.records.filter(match).length, 0);
  if (removed === 0) return data;
  return {
    ...data,
    pages: data.pages.map((page) => withTotal({ ...page, records: page.records.filter((record) => !match(record)) }, -removed)),
  };
}

/** Every record of all loaded pages, in order. */
export function flattenPages<T>(data: Pages<T, unknown> | undefined): T[] {
  return data ? data.pages.flatMap((page) => page.records) : [];
}

/** `total` of the newest page that has one. */
export function totalOfPages<T>(data: Pages<T, unknown> | undefined): number | undefined {
  return data?.pages.findLast((page) => page.total !== undefined)?.total;
}

/**
 * Fetch-all helper: follows `cursor` until it is null. Stops with an error when a cursor repeats
 * or after `maxPages` pages, so a misbehaving server cannot loop forever.
 */
export async function fetchAll<T>(
  fetchPage: (cursor: string | null) => Promise<Paginated<T>>,
  options: { maxPages?: number } = {},
): Promise<T[]> {
  const maxPages = options.maxPages ?? 1000;
  const seen = new Set<string>();
  const records: T[] = [];
  let cursor: string | null = null;
  for (let pageCount = 0; ; pageCount += 1) {
    if (pageCount >= maxPages) throw new Error(`fetchAll stopped after ${maxPages} pages`);
    const page: Paginated<T> = await fetchPage(cursor);
    records.push(...page.records);
    if (page.cursor === null) return records;
    if (seen.has(page.cursor)) throw new Error(`fetchAll got the cursor "${page.cursor}" twice`);
    seen.add(page.cursor);
    cursor = page.cursor;
  }
}
