import { describe, expect, it } from 'vitest';
import type { Activity } from '@greenroom/contracts/api/events';
import type { PaginatedPages } from '../../../lib/paginated-cache';
import { insertByTime } from './use-live-activity';

const at = (id: string, occurred: string): Activity => ({
  id,
  channel_id: 'c',
  channel_provider_id: 'cp',
  provider: 'kick',
  provider_event_id: id,
  type: 'follow',
  viewer: null,
  tier: null,
  months: null,
  count: null,
  amount: null,
  message: null,
  occurred_at: occurred,
});

const pages = (records: Activity[], cursor: string | null = null): PaginatedPages<Activity> => ({
  pages: [{ records, cursor }],
  pageParams: [null],
});
const ids = (data: PaginatedPages<Activity> | undefined) => data!.pages.flatMap((p) => p.records.map((r) => r.id));

describe('insertByTime', () => {
  const list = pages([at('c', '2025-01-01T12:03:00Z'), at('b', '2025-01-01T12:02:00Z'), at('a', '2025-01-01T12:00:00Z')]);

  it('puts a new activity at the front and a late delivery where it happened', () => {
    expect(ids(insertByTime(list, at('d', '2025-01-01T12:04:00Z')))).toEqual(['d', 'c', 'b', 'a']);
    expect(ids(insertByTime(list, at('late', '2025-01-01T12:01:00Z')))).toEqual(['c', 'b', 'late', 'a']);
  });

  it('ignores one it already has, and one older than a first page that has more after it', () => {
    expect(insertByTime(list, at('b', '2025-01-01T12:02:00Z'))).toBe(list);
    const partial = pages(list.pages[0]!.records, 'next');
    expect(insertByTime(partial, at('old', '2024-12-31T00:00:00Z'))).toBe(partial);
  });

  it('puts one that happened in the same millisecond as others above them, as the later arrival', () => {
    // Ids are random: an id that sorts below the other must not move the newer arrival down.
    const same = pages([at('zzz-raid', '2025-01-01T12:03:00.123Z'), at('b', '2025-01-01T12:02:00Z')]);
    expect(ids(insertByTime(same, at('aaa-sub', '2025-01-01T12:03:00.123Z')))).toEqual(['aaa-sub', 'zzz-raid', 'b']);
    expect(ids(insertByTime(list, at('tie', '2025-01-01T12:02:00Z')))).toEqual(['c', 'tie', 'b', 'a']);
  });
});
