/**
 * Chat history search (`?q=`): the matching messages of one channel, newest first, page after page through the `before`
 * cursor — and the trigram index is what finds them, so a search costs the same in a log of millions of messages.
 * Runs on PGlite and, with `npm run test:pg`, on PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelProviders } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { ChatQueries } from '../src/modules/chat';
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
  const short = () => new ChatQueries(t.s.db, { first: 100, max: 300 });
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
