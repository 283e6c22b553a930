/**
 * Chat history search (`?q=`): the matching messages of one channel, newest first, page after page through the `before`
 * cursor — and the trigram index is what finds them, so a search costs the same in a log of millions of messages.
 * Runs on PGlite and, with `npm run test:pg`, on PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelProviders } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { createTestApp, type TestApp, type TestUser } from './helper';

const MESSAGES = 3000;
let t: TestApp;
let owner: TestUser;
let channelId: string;
let otherChannelId: string;

/** `count` messages in `channel`: "message number i", every 100th also saying "needle". */
async function seedMessages(channel: string, count: number, prefix: string): Promise<void> {
  const cp = newId();
  await t.s.db
    .insert(channelProviders)
    .values({ id: cp, channelId: channel, provider: 'twitch', providerChannelId: cp, providerChannelName: cp });
  await t.s.db.execute(sql`
    INSERT INTO chat_messages (id, channel_id, channel_provider_id, provider, provider_message_id, author_id, author_login,
      author_name, author_badges, author_roles, text, emotes, mentions, sent_at)
    SELECT ${prefix} || i, ${channel}, ${cp}, 'twitch', ${prefix} || i, 'a' || (i % 50), 'viewer' || (i % 50), 'Viewer' || (i % 50),
      '[]', '{"broadcaster":false,"moderator":false,"vip":false,"subscriber":false,"member":false,"verified":false}',
      'message number ' || i || CASE WHEN i % 100 = 0 THEN ' with a NeEdLe' ELSE '' END, '[]', '[]', now()
    FROM generate_series(1, ${count}) i`);
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Owner' });
  channelId = (await t.s.channels.create(owner.id, 'Searched')).id;
  otherChannelId = (await t.s.channels.create(owner.id, 'Other')).id;
  await seedMessages(channelId, MESSAGES, 'm');
  await seedMessages(otherChannelId, 500, 'o');
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
