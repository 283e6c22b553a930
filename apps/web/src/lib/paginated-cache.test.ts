import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Paginated } from '@greenroom/contracts/api/common';
import {
  fetchAll,
  flattenPages,
  prependToPages,
  removeFromPages,
  replaceInPages,
  totalOfPages,
  type PaginatedPages,
} from './paginated-cache';

interface Item {
  id: number;
  name: string;
}

function pagesOf(records: Item[][], total?: number): PaginatedPages<Item> {
  return {
    pages: records.map((page, i) => ({
      records: page,
      cursor: i < records.length - 1 ? `c${i + 1}` : null,
      ...(total === undefined ? {} : { total }),
    })),
    pageParams: records.map((_, i) => (i === 0 ? null : `c${i}`)),
  };
}

const item = (id: number): Item => ({ id, name: `item ${id}` });
const itemArb = fc.record({ id: fc.integer({ min: 0, max: 50 }), name: fc.string() });
const pagesArb = fc.array(fc.array(itemArb, { maxLength: 8 }), { minLength: 1, maxLength: 5 });

describe('prependToPages', () => {
  it('puts the item at the front of the first page and adds one to total', () => {
    const data = pagesOf([[item(1), item(2)], [item(3)]], 3);
    const next = prependToPages(data, item(0))!;
    expect(flattenPages(next).map((i) => i.id)).toEqual([0, 1, 2, 3]);
    expect(next.pages.map((p) => p.total)).toEqual([4, 4]);
    expect(next.pageParams).toBe(data.pageParams);
  });

  it('truncates the first page to maxSize', () => {
    const data = pagesOf([[item(1), item(2), item(3)]], 3);
    const next = prependToPages(data, item(0), { maxSize: 3 })!;
    expect(next.pages[0]!.records.map((i) => i.id)).toEqual([0, 1, 2]);
    expect(next.pages[0]!.total).toBe(4);
  });

  it('leaves total absent when the server did not send it', () => {
    const next = prependToPages(pagesOf([[item(1)]]), item(0))!;
    expect(next.pages[0]!.total).toBeUndefined();
  });

  it('leaves unloaded data unloaded', () => {
    expect(prependToPages<Item, string | null>(undefined, item(0))).toBeUndefined();
  });

  it('property: the new item comes first, nothing else moves, the first page never exceeds maxSize', () => {
    fc.assert(
      fc.property(pagesArb, itemArb, fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }), (records, added, maxSize) => {
        const data = pagesOf(records, 100);
        const next = prependToPages(data, added, { maxSize })!;
        const first = next.pages[0]!.records;
        expect(first[0]).toBe(added);
        if (maxSize !== undefined) expect(first.length).toBeLessThanOrEqual(maxSize);
        expect(first.slice(1)).toEqual(records[0]!.slice(0, maxSize === undefined ? undefined : maxSize - 1));
        expect(next.pages.slice(1).map((p) => p.records)).toEqual(records.slice(1));
        expect(totalOfPages(next)).toBe(101);
      }),
    );
  });
});

describe('replaceInPages', () => {
  it('replaces every matching record, with a value or an updater', () => {
    const data = pagesOf([[item(1), item(2)], [item(3)]]);
    const byValue = replaceInPages(data, (i) => i.id === 3, { id: 3, name: 'three' })!;
    expect(byValue.pages[1]!.records[0]!.name).toBe('three');
    expect(byValue.pages[0]).toBe(data.pages[0]);
    const byUpdater = replaceInPages(
      data,
      (i) => i.id < 3,
      (previous) => ({ ...previous, name: previous.name.toUpperCase() }),
    )!;
    expect(flattenPages(byUpdater).map((i) => i.name)).toEqual(['ITEM 1', 'ITEM 2', 'item 3']);
  });

  it('returns the same object when nothing matches', () => {
    const data = pagesOf([[item(1)]]);
    expect(replaceInPages(data, (i) => i.id === 9, item(9))).toBe(data);
  });

  it('property: keeps length and order; matches become the replacement, others stay', () => {
    fc.assert(
      fc.property(pagesArb, fc.integer({ min: 0, max: 50 }), (records, id) => {
        const replacement = { id, name: 'replaced' };
        const next = replaceInPages(pagesOf(records), (i) => i.id === id, replacement)!;
        const before = records.flat();
        const after = flattenPages(next);
        expect(after).toHaveLength(before.length);
        after.forEach((record, index) => expect(record).toEqual(before[index]!.id === id ? replacement : before[index]));
      }),
    );
  });
});

describe('removeFromPages', () => {
  it('removes matching records and subtracts them from total', () => {
    const data = pagesOf([[item(1), item(2)], [item(3)]], 3);
    const next = removeFromPages(data, (i) => i.id === 2)!;
    expect(flattenPages(next).map((i) => i.id)).toEqual([1, 3]);
    expect(next.pages.map((p) => p.total)).toEqual([2, 2]);
  });

  it('returns the same object when nothing matches, and never lets total go below 0', () => {
    const data = pagesOf([[item(1)]], 0);
    expect(removeFromPages(data, (i) => i.id === 5)).toBe(data);
    expect(removeFromPages(data, (i) => i.id === 1)!.pages[0]!.total).toBe(0);
  });

  it('property: exactly the non-matching records remain, in order, and total drops by the count removed', () => {
    fc.assert(
      fc.property(pagesArb, fc.integer({ min: 0, max: 50 }), (records, id) => {
        const all = records.flat();
        const next = removeFromPages(pagesOf(records, 1000), (i) => i.id === id)!;
        expect(flattenPages(next)).toEqual(all.filter((i) => i.id !== id));
        expect(totalOfPages(next)).toBe(1000 - all.filter((i) => i.id === id).length);
      }),
    );
  });
});

describe('fetchAll', () => {
  function server(records: Item[], pageSize: number) {
    const calls: (string | null)[] = [];
    const fetchPage = async (cursor: string | null): Promise<Paginated<Item>> => {
      calls.push(cursor);
      const start = cursor === null ? 0 : Number(cursor);
      const end = start + pageSize;
      return { records: records.slice(start, end), cursor: end < records.length ? String(end) : null, total: records.length };
    };
    return { calls, fetchPage };
  }

  it('follows the cursor until it is null', async () => {
    const { calls, fetchPage } = server([1, 2, 3, 4, 5].map(item), 2);
    expect((await fetchAll(fetchPage)).map((i) => i.id)).toEqual([1, 2, 3, 4, 5]);
    expect(calls).toEqual([null, '2', '4']);
  });

  it('makes one call for a single page', async () => {
    const { calls, fetchPage } = server([], 10);
    expect(await fetchAll(fetchPage)).toEqual([]);
    expect(calls).toEqual([null]);
  });

  it('stops on a repeated cursor instead of looping forever', async () => {
    await expect(fetchAll(async () => ({ records: [item(1)], cursor: 'same' }))).rejects.toThrow(/twice/);
  });

  it('stops after maxPages', async () => {
    let n = 0;
    await expect(fetchAll(async () => ({ records: [], cursor: String(n++) }), { maxPages: 3 })).rejects.toThrow(/3 pages/);
  });

  it('passes errors through', async () => {
    await expect(fetchAll(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });

  it('property: returns every record in order for any page size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(itemArb, { maxLength: 40 }), fc.integer({ min: 1, max: 7 }), async (records, pageSize) => {
        const { calls, fetchPage } = server(records, pageSize);
        expect(await fetchAll(fetchPage)).toEqual(records);
        expect(calls).toHaveLength(Math.max(1, Math.ceil(records.length / pageSize)));
      }),
    );
  });
});
