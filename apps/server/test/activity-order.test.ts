import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Activity } from '@greenroom/contracts/api/events';
import { activities } from '../src/db/schema';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let owner: TestUser;
let channelId: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser();
  channelId = (await t.s.channels.create(owner.id, 'Feed order')).id;
});
afterAll(async () => t.close());

describe('activity feed order', () => {
  it('is newest first by when it happened, also for a late delivery, and pages through ties without loss', async () => {
    const base = Date.parse('2025-03-05T12:00:00Z');
    // Arrival order: a, b, late (happened a minute before b, delivered after it), c and d at the same moment.
    const arrivals: [string, number][] = [
      ['a', 0],
      ['b', 120_000],
      ['late', 60_000],
      ['c', 180_000],
      ['d', 180_000],
    ];
    for (const [name, offset] of arrivals) {
      await t.s.db.insert(activities).values({
        id: `twitch:${name}`,
        channelId,
        channelProviderId: 'cp',
        provider: 'twitch',
        providerEventId: name,
        type: 'follow',
        viewerId: name,
        viewerLogin: name,
        viewerName: name,
        occurredAt: new Date(base + offset),
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?per_page=2&cursor=${cursor}` : '?per_page=2';
      const res = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/activity${query}` });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<{ records: Activity[]; cursor: string | null }>();
      seen.push(...page.records.map((r) => r.provider_event_id));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(['d', 'c', 'b', 'late', 'a']);
  });
});
