/**
 * Chat history search (`?q=`): the matching messages of one channel, newest first, page after page through the `before`
 * cursor — and the trigram index is what finds them, so a search costs the same in a log of millions of messages.
 * Runs on PGlite and, with `npm run test:pg`, on PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelProviders } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { ChatQueries, planTerm, type TextSample } from '../src/modules/chat';
import { createTestApp, type TestApp, type TestUser } from './helper';

const MESSAGES = 3000;
let t: TestApp;
let owner: TestUser;
let channelId: string;
let otherChannelId: string;
let mixedChannelId: string;

/** The mixed channel's log, oldest first: 5,000 Twitch messages, then 1,000 YouTube ones. */
const mixed = [
  ...Array.from({ length: 5000 }, (_, k) => ({ id: `t${k + 1}`, provider: 'twitch', text: twitchText(k + 1) })),
  ...Array.from({ length: 1000 }, (_, k) => ({ id: `y${k + 1}`, provider: 'youtube', text: youtubeText(k + 1) })),
];
// Terms of every density: a third of the messages, one in 50, one in 997, one message deep in the log.
function twitchText(i: number): string {
  return `line ${i}${i % 3 === 0 ? ' alpha' : ''}${i % 50 === 0 ? ' Beta' : ''}${i % 997 === 0 ? ' gamma' : ''}${i === 7 ? ' delta' : ''}`;
}
function youtubeText(i: number): string {
  return `yt ${i}${i % 10 === 0 ? ' beta' : ''}`;
}

/** `count` messages in `channel`: "message number i", every 100th also saying "needle". */
async function seedMessages(channel: string, count: number, prefix: string): Promise<void> {
  const cp = newId();
  await t.s.db
    .insert(channelProviders)
    .values({ id: cp, channelId: channel, provider: 'twitch', providerChannelId: cp, providerChannelName: cp });
  await insertMessages(
    channel,
    cp,
    'twitch',
    count,
    prefix,
    sql`'message number ' || i || CASE WHEN i % 100 = 0 THEN ' with a NeEdLe' ELSE '' END`,
  );
}

/** `count` messages (ids `prefix` 1…count, stored in that order) on one connection, each saying `text` (of `i`). */
async function insertMessages(
  channel: string,
  cp: string,
  provider: string,
  count: number,
  prefix: string,
  text: ReturnType<typeof sql>,
): Promise<void> {
  await t.s.db.execute(sql`
    INSERT INTO chat_messages (id, channel_id, channel_provider_id, provider, provider_message_id, author_id, author_login,
      author_name, author_badges, author_roles, text, emotes, mentions, sent_at)
    SELECT ${prefix} || i, ${channel}, ${cp}, ${provider}, ${prefix} || i, 'a' || (i % 50), 'viewer' || (i % 50), 'Viewer' || (i % 50),
      '[]', '{"broadcaster":false,"moderator":false,"vip":false,"subscriber":false,"member":false,"verified":false}',
      ${text}, '[]', '[]', now()
    FROM generate_series(1, ${count}) i`);
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Owner' });
  channelId = (await t.s.channels.create(owner.id, 'Searched')).id;
  otherChannelId = (await t.s.channels.create(owner.id, 'Other')).id;
  await seedMessages(channelId, MESSAGES, 'm');
  await seedMessages(otherChannelId, 500, 'o');
  mixedChannelId = (await t.s.channels.create(owner.id, 'Mixed')).id;
  const [tw, yt] = [newId(), newId()];
  await t.s.db.insert(channelProviders).values([
    { id: tw, channelId: mixedChannelId, provider: 'twitch', providerChannelId: tw, providerChannelName: tw },
    { id: yt, channelId: mixedChannelId, provider: 'youtube', providerChannelId: yt, providerChannelName: yt },
  ]);
  await insertMessages(
    mixedChannelId,
    tw,
    'twitch',
    5000,
    't',
    sql`'line ' || i || CASE WHEN i % 3 = 0 THEN ' alpha' ELSE '' END || CASE WHEN i % 50 = 0 THEN ' Beta' ELSE '' END
      || CASE WHEN i % 997 = 0 THEN ' gamma' ELSE '' END || CASE WHEN i = 7 THEN ' delta' ELSE '' END`,
  );
  await insertMessages(mixedChannelId, yt, 'youtube', 1000, 'y', sql`'yt ' || i || CASE WHEN i % 10 = 0 THEN ' beta' ELSE '' END`);
  await t.s.db.execute(sql`ANALYZE chat_messages`);
});
afterAll(async () => t?.close());

interface HistoryPage {
  records: { id: string; text: string }[];
  cursor: string | null;
}

describe('chat history search', () => {
  it("walks the channel's matches newest first, page by page, case-insensitively, and nothing of another channel", async () => {
    const found: string[] = [];
    let before: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const url = `/api/2/channels/${channelId}/chat/messages?q=needle&limit=7${before ? `&before=${before}` : ''}`;
      const res = await t.inject(owner, { method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const page = res.json<HistoryPage>();
      found.push(...page.records.map((r) => r.id));
      if (page.cursor === null) break;
      before = page.cursor;
    }
    const expected = Array.from({ length: MESSAGES / 100 }, (_, k) => `m${MESSAGES - k * 100}`);
    expect(found).toEqual(expected);
  });

  it('finds a single message among thousands, and none where nothing matches', async () => {
    const one = await t.inject(owner, {
      method: 'GET',
      url: `/api/2/channels/${channelId}/chat/messages?q=${encodeURIComponent('number 1234')}`,
    });
    expect(one.json<HistoryPage>().records.map((r) => r.text)).toEqual(['message number 1234']);
    const none = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?q=haystack` });
    expect(none.json<HistoryPage>()).toMatchObject({ records: [], cursor: null });
  });

  it('reads the trigram index for a search, not the channel log', async () => {
    // A table this small is cheapest read whole or in seq order (the planner's right choice at this size): without
    // those plans, the search must be answerable from the trigram index, and it must beat the channel's own index.
    // (bench/scale.ts shows the plans of a log of millions of messages.)
    const plan = await t.s.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      await tx.execute(sql`SET LOCAL enable_indexscan = off`);
      const result: unknown = await tx.execute(sql`
        EXPLAIN SELECT * FROM chat_messages
        WHERE channel_id = ${channelId} AND text ILIKE ${'%number 1234%'}
        ORDER BY seq DESC LIMIT 51`);
      return result as { rows: Record<string, string>[] };
    });
    const text = plan.rows.map((r) => Object.values(r)[0]).join('\n');
    expect(text).toContain('chat_messages_text_trgm');
  });
});

describe('chat history search at every density of its term', () => {
  /** Every page of a search, newest first through `before` (or oldest first through `after`, from the start). */
  async function everyPage(query: string, direction: 'before' | 'after'): Promise<string[]> {
    const found: string[] = [];
    let cursor: string | null = direction === 'after' ? '0' : null;
    for (let pages = 0; pages < 1000; pages++) {
      const url = `/api/2/channels/${mixedChannelId}/chat/messages?${query}${cursor !== null ? `&${direction}=${cursor}` : ''}`;
      const res = await t.inject(owner, { method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const page = res.json<HistoryPage>();
      found.push(...page.records.map((r) => r.id));
      if (page.cursor === null) return found;
      cursor = page.cursor;
    }
    throw new Error('more than 1000 pages');
  }

  // Common terms end in the first walked rows, sparse ones walk farther, rare ones go to the trigram index past the
  // walked rows: each must find exactly the matching messages, in order, page after page, each once.
  const cases: { term: string; limit: number; provider?: 'twitch' | 'youtube' }[] = [
    { term: 'alpha', limit: 500 },
    { term: 'beta', limit: 7 },
    { term: 'BETA', limit: 100, provider: 'twitch' },
    { term: 'beta', limit: 30, provider: 'youtube' },
    { term: 'gamma', limit: 1 },
    { term: 'gamma', limit: 100 },
    { term: 'delta', limit: 100 },
    { term: 'line 1', limit: 200 },
    { term: 'ne 4998 al', limit: 5 },
    { term: 'omega', limit: 100 },
  ];
  for (const { term, limit, provider } of cases) {
    it(`"${term}", ${limit} a page${provider ? `, ${provider} only` : ''}: every match once, in order, both ways`, async () => {
      const expected = mixed
        .filter((m) => m.text.toLowerCase().includes(term.toLowerCase()) && (!provider || m.provider === provider))
        .map((m) => m.id);
      const query = `q=${encodeURIComponent(term)}&limit=${limit}${provider ? `&provider=${provider}` : ''}`;
      expect(await everyPage(query, 'before')).toEqual(expected.toReversed());
      expect(await everyPage(query, 'after')).toEqual(expected);
    });
  }
});

describe('chat history search beyond a short walk', () => {
  // The same searches with a walk of 100 rows (at most 300): sparse terms reach the trigram index's range of seq
  // sized from the walk's density, then the rest of the log, as a log of millions does with the real walk.
  const short = () => new ChatQueries(t.s.db, { first: 100, max: 300, range: 40 });
  /** Every page, newest first (`before`) or oldest first (`after` from the start), of the short-walk search. */
  async function everyPage(term: string, limit: number, direction: 'before' | 'after', provider?: 'twitch'): Promise<string[]> {
    const found: string[] = [];
    let cursor: string | undefined = direction === 'after' ? '0' : undefined;
    for (let pages = 0; pages < 1000; pages++) {
      const page = await short().history(mixedChannelId, { limit, q: term, provider, [direction]: cursor });
      found.push(...page.records.map((r) => r.id));
      if (page.cursor === null) return found;
      cursor = page.cursor;
    }
    throw new Error('more than 1000 pages');
  }
  const cases: { term: string; limit: number; provider?: 'twitch' }[] = [
    { term: 'alpha', limit: 100 },
    { term: 'beta', limit: 20 },
    { term: 'beta', limit: 7, provider: 'twitch' },
    { term: 'gamma', limit: 2 },
    { term: 'line 1', limit: 50 },
    { term: 'delta', limit: 10 },
  ];
  it('a message found through the trigram index is the same record the unfiltered history returns', async () => {
    const found = await short().history(mixedChannelId, { limit: 1, q: 'delta' });
    const plain = await new ChatQueries(t.s.db).history(mixedChannelId, { limit: 1, before: String(Number(found.head) + 1) });
    expect(found.records.map((r) => r.provider_message_id)).toEqual(['t7']);
    expect(found.records).toEqual(plain.records);
  });
  for (const { term, limit, provider } of cases) {
    it(`"${term}", ${limit} a page${provider ? `, ${provider} only` : ''}: every match once, in order, both ways`, async () => {
      const expected = mixed.filter((m) => m.text.toLowerCase().includes(term) && (!provider || m.provider === provider)).map((m) => m.id);
      expect(await everyPage(term, limit, 'before', provider)).toEqual(expected.toReversed());
      expect(await everyPage(term, limit, 'after', provider)).toEqual(expected);
    });
  }
});

/** A sample of `count` texts, each standing for an equal share of the log. */
function sampleOf(texts: string[]): TextSample {
  return { texts: texts.map((text) => ({ text: text.toLowerCase(), share: 1 / texts.length })) };
}

describe('the way a search takes, from the sample of texts', () => {
  const sample = sampleOf(Array.from({ length: 100 }, (_, i) => `hello there number ${i * 2000}${i % 10 === 0 ? ' kappa' : ''}`));

  it('walks for a term the sample finds often, and looks a rare one up in the trigram index', () => {
    expect(planTerm('hello', sample)).toEqual({ common: true, words: [] });
    expect(planTerm('kappa', sample).common).toBe(true);
    expect(planTerm('pogchamp', sample)).toEqual({ common: false, words: ['pogchamp'] });
    expect(planTerm('haystack', sample)).toEqual({ common: false, words: ['haystack'] });
  });

  it('leaves out of the lookup the words the sample finds everywhere, and keeps the whole term when every word is', () => {
    expect(planTerm('number 100001', sample)).toEqual({ common: false, words: ['100001'] });
    expect(planTerm('Hello 77 pogchamp!', sample)).toEqual({ common: false, words: ['pogchamp'] });
    expect(planTerm('there hello', sample)).toEqual({ common: false, words: [] });
  });
});

describe('chat history search, every way, any log', () => {
  // Texts of a few words (some inside others: "number 12" in "number 123"), terms of every density, and each way a
  // search can take forced by its sample: the walk first (no sample), the trigram index at once with every word looked
  // up (nothing in the sample), and with the common words left out (the sample finds "number" and "alpha" everywhere).
  // Walks and ranges are shrunk to a few rows, so a log of dozens takes every step a log of millions does.
  const words = ['alpha', 'Beta', 'gamma', 'number 12', 'number 123', 'numbers', 'x'];
  const terms = ['alpha', 'ALPHA', 'beta gamma', 'number 12', 'mber 1', 'alpha gamma', 'numbers', 'zeta', 'a b', 'x'];
  const samples: [string, TextSample | null][] = [
    ['walk first', null],
    ['trigram index', sampleOf(Array.from({ length: 60 }, () => 'zzz'))],
    ['common words left out', sampleOf(Array.from({ length: 60 }, () => 'number alpha'))],
  ];
  let tag = 0;
  it('finds every match once, in order, both ways, by any page size, for every platform', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ text: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }), youtube: fc.boolean() }), {
          maxLength: 40,
        }),
        fc.constantFrom(...terms),
        fc.integer({ min: 1, max: 6 }),
        fc.option(fc.constantFrom('twitch' as const, 'youtube' as const)),
        fc.record({ first: fc.integer({ min: 1, max: 4 }), max: fc.integer({ min: 4, max: 10 }), range: fc.integer({ min: 1, max: 4 }) }),
        async (log, term, limit, provider, tuning) => {
          tag += 1;
          const channel = (await t.s.channels.create(owner.id, `Property ${tag}`)).id;
          const [tw, yt] = [newId(), newId()];
          await t.s.db.insert(channelProviders).values([
            { id: tw, channelId: channel, provider: 'twitch', providerChannelId: tw, providerChannelName: tw },
            { id: yt, channelId: channel, provider: 'youtube', providerChannelId: yt, providerChannelName: yt },
          ]);
          const messages = log.map((m, i) => ({ id: `p${tag}m${i}`, text: m.text.join(' '), provider: m.youtube ? 'youtube' : 'twitch' }));
          // One at a time, in order: seq follows the log (another channel's rows in between would change nothing).
          for (const m of messages) {
            await t.s.db.execute(sql`
              INSERT INTO chat_messages (id, channel_id, channel_provider_id, provider, provider_message_id, author_id, author_login,
                author_name, author_badges, author_roles, text, emotes, mentions, sent_at)
              VALUES (${m.id}, ${channel}, ${m.provider === 'youtube' ? yt : tw}, ${m.provider}, ${m.id}, 'a', 'a', 'A', '[]',
                '{"broadcaster":false,"moderator":false,"vip":false,"subscriber":false,"member":false,"verified":false}',
                ${m.text}, '[]', '[]', now())`);
          }
          const expected = messages
            .filter((m) => m.text.toLowerCase().includes(term.toLowerCase()) && (!provider || m.provider === provider))
            .map((m) => m.id);
          for (const [, sample] of samples) {
            const queries = new ChatQueries(t.s.db, { ...tuning, sample });
            for (const direction of ['before', 'after'] as const) {
              const found: string[] = [];
              let cursor: string | undefined = direction === 'after' ? '0' : undefined;
              for (let pages = 0; ; pages++) {
                expect(pages).toBeLessThan(100);
                const page = await queries.history(channel, { limit, q: term, provider: provider ?? undefined, [direction]: cursor });
                found.push(...page.records.map((r) => r.provider_message_id));
                if (page.cursor === null) break;
                cursor = page.cursor;
              }
              expect(found).toEqual(direction === 'before' ? expected.toReversed() : expected);
            }
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
