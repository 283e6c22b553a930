/**
 * Keyset pagination walks every list exactly once, in order, whatever the page size — also through ties on the sort
 * key (channels of the same name in another case, activities of the same moment) and after renames (the name key
 * kept by the database). Runs on PGlite and, with `npm run test:pg`, on PostgreSQL.
 */
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, channels, channelUsers, chatGaps, chatMessages } from '../src/db/schema';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let operator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  operator = await t.createUser({ operator: true });
});
afterAll(async () => t.close());

interface Page<T> {
  records: T[];
  cursor: string | null;
  total?: number;
}

/** Every page of `url` (which has a query string), following the cursor; fails on a loop. */
async function walk<T>(user: TestUser, url: string): Promise<{ records: T[]; first: Page<T> }> {
  const records: T[] = [];
  let first: Page<T> | null = null;
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const res = await t.inject(user, { method: 'GET', url: cursor ? `${url}&cursor=${encodeURIComponent(cursor)}` : url });
    expect(res.statusCode).toBe(200);
    const page = res.json<Page<T>>();
    first ??= page;
    records.push(...page.records);
    if (page.cursor === null) return { records, first };
    expect(page.records.length).toBeGreaterThan(0);
    cursor = page.cursor;
  }
  throw new Error('the pages never ended');
}

/** Names from a tiny alphabet in both cases: many equal names and names equal but for case. */
const names = fc.array(fc.stringMatching(/^[abAB]{1,3}$/), { minLength: 0, maxLength: 25 });
const byKey = (a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

/** A chat log row as ingest stores it: `message <i>` from one author, sent (and received) at `at`. */
function storedRow(id: string, channelId: string, provider: string, i: number, at: Date): typeof chatMessages.$inferInsert {
  return {
    id,
    channelId,
    channelProviderId: `cp-${provider}`,
    provider,
    providerMessageId: `m${i}`,
    authorId: 'a',
    authorLogin: 'a',
    authorName: 'A',
    authorBadges: [],
    authorRoles: { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false },
    text: `message ${i}`,
    emotes: [],
    mentions: [],
    sentAt: at,
    receivedAt: at,
  };
}

let run = 0;
/** A tag unique to one property run, found in no other run's names ("q12q" is not inside "q112q"). */
function nextTag(): string {
  run += 1;
  return `q${run}q`;
}

describe('keyset pagination', () => {
  it("a user's channel list: every channel once, by name then id, at any page size, after renames", async () => {
    await fc.assert(
      fc.asyncProperty(
        names,
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        names,
        async (list, perPage, renamed, newNames) => {
          const user = await t.createUser();
          const tag = nextTag();
          const ids = list.map((_, i) => `${tag}c${String(i).padStart(3, '0')}`);
          if (ids.length > 0) {
            await t.s.db.insert(channels).values(ids.map((id, i) => ({ id, displayName: list[i]! })));
            await t.s.db.insert(channelUsers).values(ids.map((channelId) => ({ channelId, userId: user.id, level: 500 })));
          }
          const current = new Map(ids.map((id, i) => [id, list[i]!]));
          for (const [k, pick] of renamed.entries()) {
            if (ids.length === 0 || newNames.length === 0) break;
            const id = ids[pick % ids.length]!;
            const name = newNames[k % newNames.length]!;
            await t.s.db.update(channels).set({ displayName: name }).where(eq(channels.id, id));
            current.set(id, name);
          }
          const expected = [...current].map(([id, name]) => [name.toLowerCase(), id] as [string, string]).sort(byKey);
          const { records, first } = await walk<{ id: string; display_name: string }>(user, `/api/2/channels?per_page=${perPage}`);
          expect(records.map((r) => r.id)).toEqual(expected.map(([, id]) => id));
          expect(records.map((r) => r.display_name)).toEqual(expected.map(([, id]) => current.get(id)));
          expect(first.total).toBe(ids.length);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a name search in the channel list and in the admin list: every match once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(names, fc.integer({ min: 1, max: 6 }), async (list, perPage) => {
        const user = await t.createUser();
        const tag = nextTag();
        // Every channel of this run has the tag in its name, some also "hit" after it (no spaces or punctuation:
        // collations differ on those).
        const rows = list.map((name, i) => ({
          id: `${tag}c${String(i).padStart(3, '0')}`,
          displayName: `${name}${tag}${i % 3 === 0 ? 'hit' : ''}`,
        }));
        if (rows.length > 0) {
          await t.s.db.insert(channels).values(rows);
          await t.s.db.insert(channelUsers).values(rows.map((r) => ({ channelId: r.id, userId: user.id, level: 7 })));
        }
        const hits = rows.filter((r) => r.displayName.endsWith('hit'));
        const own = await walk<{ id: string }>(user, `/api/2/channels?per_page=${perPage}&name=${tag}HIT`);
        expect(own.records.map((r) => r.id)).toEqual(
          hits
            .map((r) => [r.displayName.toLowerCase(), r.id] as [string, string])
            .sort(byKey)
            .map(([, id]) => id),
        );
        const admin = await walk<{ id: string }>(operator, `/api/2/admin/channels?per_page=${perPage}&name=${tag}`);
        expect(admin.records.map((r) => r.id)).toEqual(
          rows
            .map((r) => r.id)
            .sort()
            .reverse(),
        );
        if (admin.first.cursor === null) expect(admin.first.total).toBe(rows.length);
        else expect(admin.first.total).toBeUndefined();
      }),
      { numRuns: 20 },
    );
  });

  it('the activity feed: every activity once, newest first, through ties on the moment', async () => {
    const owner = await t.createUser();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 7 }),
        async (moments, perPage) => {
          const channelId = (await t.s.channels.create(owner.id, `Feed ${nextTag()}`)).id;
          const base = Date.parse('2025-03-05T12:00:00Z');
          const inserted: { id: string; at: number; seq: number }[] = [];
          for (const [i, m] of moments.entries()) {
            const [row] = await t.s.db
              .insert(activities)
              .values({
                id: `twitch:e${i}`,
                channelId,
                channelProviderId: 'cp',
                provider: 'twitch',
                providerEventId: `e${i}`,
                type: 'follow',
                viewerId: `v${i}`,
                viewerLogin: `v${i}`,
                viewerName: `V${i}`,
                occurredAt: new Date(base + m * 1000),
              })
              .returning({ seq: activities.seq });
            inserted.push({ id: `twitch:e${i}`, at: m, seq: row!.seq });
          }
          const expected = inserted.sort((a, b) => b.at - a.at || b.seq - a.seq).map((r) => r.id);
          const { records } = await walk<{ id: string }>(owner, `/api/2/channels/${channelId}/activity?per_page=${perPage}`);
          expect(records.map((r) => r.id)).toEqual(expected);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('the activity feed filtered by type (and platform): every matching activity once, newest first', async () => {
    const owner = await t.createUser();
    const types = ['follow', 'sub', 'raid', 'cheer'] as const;
    const platforms = ['twitch', 'kick'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ at: fc.integer({ min: 0, max: 4 }), type: fc.constantFrom(...types), provider: fc.constantFrom(...platforms) }),
          {
            maxLength: 30,
          },
        ),
        fc.uniqueArray(fc.constantFrom(...types), { minLength: 1, maxLength: 3 }),
        fc.option(fc.constantFrom(...platforms)),
        fc.integer({ min: 1, max: 7 }),
        async (feed, wanted, platform, perPage) => {
          const channelId = (await t.s.channels.create(owner.id, `Feed ${nextTag()}`)).id;
          const base = Date.parse('2025-03-05T12:00:00Z');
          const inserted: { id: string; at: number; seq: number; type: string; provider: string }[] = [];
          for (const [i, a] of feed.entries()) {
            const [row] = await t.s.db
              .insert(activities)
              .values({
                id: `${a.provider}:e${i}`,
                channelId,
                channelProviderId: 'cp',
                provider: a.provider,
                providerEventId: `e${i}`,
                type: a.type,
                viewerId: `v${i}`,
                viewerLogin: `v${i}`,
                viewerName: `V${i}`,
                occurredAt: new Date(base + a.at * 1000),
              })
              .returning({ seq: activities.seq });
            inserted.push({ id: `${a.provider}:e${i}`, at: a.at, seq: row!.seq, type: a.type, provider: a.provider });
          }
          const expected = inserted
            .filter((r) => (wanted as readonly string[]).includes(r.type) && (platform === null || r.provider === platform))
            .sort((a, b) => b.at - a.at || b.seq - a.seq);
          const url = `/api/2/channels/${channelId}/activity?per_page=${perPage}&types=${wanted.join(',')}${platform ? `&providers=${platform}` : ''}`;
          const { records } = await walk<{ id: string; type: string; occurred_at: string }>(owner, url);
          expect(records.map((r) => r.id)).toEqual(expected.map((r) => r.id));
          expect(records.map((r) => [r.type, Date.parse(r.occurred_at)])).toEqual(expected.map((r) => [r.type, base + r.at * 1000]));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('chat history filtered by platform: every message of that platform once, newest first', async () => {
    const owner = await t.createUser();
    const platforms = ['twitch', 'youtube', 'kick'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...platforms), { maxLength: 40 }),
        fc.constantFrom(...platforms),
        fc.integer({ min: 1, max: 7 }),
        async (log, platform, perPage) => {
          const channelId = (await t.s.channels.create(owner.id, `Chat ${nextTag()}`)).id;
          const sent = new Date('2025-03-05T12:00:00Z');
          const inserted: { id: string; provider: string; seq: number }[] = [];
          for (const [i, provider] of log.entries()) {
            const [row] = await t.s.db
              .insert(chatMessages)
              .values(storedRow(`${provider}:m${i}`, channelId, provider, i, sent))
              .returning({ seq: chatMessages.seq });
            inserted.push({ id: `${provider}:m${i}`, provider, seq: row!.seq });
          }
          const expected = inserted.filter((m) => m.provider === platform).sort((a, b) => b.seq - a.seq);
          // Older pages follow `before` = the cursor.
          const records: { id: string; provider: string }[] = [];
          let before: string | null = null;
          for (let pages = 0; pages < 100; pages++) {
            const url = `/api/2/channels/${channelId}/chat/messages?limit=${perPage}&provider=${platform}${before ? `&before=${before}` : ''}`;
            const res = await t.inject(owner, { method: 'GET', url });
            expect(res.statusCode).toBe(200);
            const page = res.json<{ records: { id: string; provider: string }[]; cursor: string | null }>();
            records.push(...page.records);
            if (page.cursor === null) break;
            before = page.cursor;
          }
          expect(records.map((r) => r.id)).toEqual(expected.map((m) => m.id));
          expect(records.every((r) => r.provider === platform)).toBe(true);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('chat history: every message once either way, each page with the gap lines of the time it spans', async () => {
    const owner = await t.createUser();
    const platforms = ['twitch', 'youtube'] as const;
    const base = Date.parse('2025-03-05T12:00:00Z');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ provider: fc.constantFrom(...platforms), at: fc.integer({ min: 0, max: 60 }) }), { maxLength: 25 }),
        fc.uniqueArray(fc.integer({ min: -5, max: 65 }), { maxLength: 8 }),
        fc.constantFrom(undefined, ...platforms),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        async (log, gapEnds, platform, perPage, forward) => {
          const channelId = (await t.s.channels.create(owner.id, `Gaps ${nextTag()}`)).id;
          // Sent in no particular order of seq (a message's time is the platform's), seconds apart.
          const messages = log.map((m, i) => ({ id: `${m.provider}:m${i}`, provider: m.provider, at: base + m.at * 1000 }));
          for (const [i, m] of messages.entries())
            await t.s.db.insert(chatMessages).values(storedRow(m.id, channelId, m.provider, i, new Date(m.at)));
          const gaps = gapEnds.map((end, i) => ({ id: `g${i}`, provider: platforms[i % 2]!, endedAt: base + end * 1000 + 500 }));
          for (const g of gaps)
            await t.s.db.insert(chatGaps).values({
              id: `${channelId}:${g.id}`,
              channelId,
              channelProviderId: `cp-${g.provider}`,
              provider: g.provider,
              reason: 'platform',
              startedAt: new Date(g.endedAt - 2000),
              endedAt: new Date(g.endedAt),
            });
          const sentAt = new Map(messages.map((m) => [m.id, m.at]));
          const ofPlatform = messages.filter((m) => !platform || m.provider === platform).map((m) => m.id);
          const records: string[] = [];
          let cursor: string | null = forward ? '0' : null;
          for (let pages = 0; pages < 100; pages++) {
            const position = cursor === null ? '' : `&${forward ? 'after' : 'before'}=${cursor}`;
            const url = `/api/2/channels/${channelId}/chat/messages?limit=${perPage}${platform ? `&provider=${platform}` : ''}${position}`;
            const res = await t.inject(owner, { method: 'GET', url });
            expect(res.statusCode).toBe(200);
            const page = res.json<{ records: { id: string }[]; cursor: string | null; gaps: { id: string; ended_at: string }[] }>();
            // The time the page spans: from its oldest message (the very start on the last page going back) to its
            // newest (now, on the newest page or a catch-up that reached the end); no gaps for an empty older page.
            const ids = page.records.map((r) => r.id);
            const more = page.cursor !== null;
            const [oldest, newest] = forward ? [ids[0], ids.at(-1)] : [ids.at(-1), ids[0]];
            const reachesNow = forward ? !more : cursor === null;
            const reachesStart = !forward && !more;
            const from = reachesStart || !oldest ? -Infinity : sentAt.get(oldest)!;
            const to = reachesNow || !newest ? Infinity : sentAt.get(newest)!;
            const expected =
              ids.length === 0 && !reachesNow
                ? []
                : gaps
                    .filter((g) => (!platform || g.provider === platform) && g.endedAt >= from && g.endedAt <= to)
                    .sort((a, b) => b.endedAt - a.endedAt)
                    .map((g) => `${channelId}:${g.id}`);
            expect(page.gaps.map((g) => g.id)).toEqual(expected);
            records.push(...ids);
            if (!more) break;
            cursor = page.cursor;
          }
          expect(records).toEqual(forward ? ofPlatform : ofPlatform.toReversed());
        },
      ),
      { numRuns: 25 },
    );
  });
});
