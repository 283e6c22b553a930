/**
 * Chat log persistence on embedded PGlite: rows/s through the batched sink (ChatLogWriter →
 * multi-row inserts + one viewers upsert per batch, in a transaction) against a baseline in the
 * same run: one INSERT per message plus one viewers upsert per message (what a naive sink does).
 * Run: npx tsx bench/chat-persist.ts
 */
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import type { ChannelStreamEvent } from '../packages/contracts/src/api/events';
import { openDatabase } from '../apps/server/src/db/client';
import { channels, chatMessages, viewers } from '../apps/server/src/db/schema';
import { ChatLogStore } from '../apps/server/src/modules/chat/chat-log-store';
import { messageRow } from '../apps/server/src/modules/chat/chat-rows';
import { ChatLogWriter } from '../apps/server/src/modules/chat/chat-log-writer';
import { chatMessage } from '../apps/server/test/chat-fixtures';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

function events(prefix: string, count: number): ChannelStreamEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const m = chatMessage(i, { text: `message ${i} with a few words of chat text` });
    const author = { ...m.author, provider_user_id: `u${i % 300}`, login: `viewer${i % 300}`, display_name: `Viewer${i % 300}` };
    return { type: 'chat.message', data: { ...m, id: `twitch:${prefix}${i}`, provider_message_id: `${prefix}${i}`, author } };
  });
}

export async function benchChatPersist(): Promise<BenchResult[]> {
  const database = await openDatabase({ dataDir: 'memory://' });
  const db = database.db;
  try {
    await db.insert(channels).values({ id: 'c1', displayName: 'Bench' });
    const log = { warn: () => {}, error: (o: object) => console.error(o) };

    // Batched sink: 500 rows per batch, as in the server.
    const batchedCount = 20_000;
    const writer = new ChatLogWriter(new ChatLogStore(db), { log, batchSize: 500, batchDelayMs: 250, maxQueued: 100_000 });
    const batched = events('b', batchedCount);
    let start = process.hrtime.bigint();
    await writer.write(batched);
    await writer.close();
    const batchedRate = Math.round(batchedCount / (Number(process.hrtime.bigint() - start) / 1e9));

    // Baseline: a single INSERT (and viewer upsert) per message.
    const singleCount = 2_000;
    const single = events('s', singleCount);
    start = process.hrtime.bigint();
    for (const e of single) {
      if (e.type !== 'chat.message') continue;
      const m = e.data;
      await db.insert(chatMessages).values(messageRow(m)).onConflictDoNothing();
      const at = new Date(m.sent_at);
      await db
        .insert(viewers)
        .values({
          channelId: m.channel_id,
          provider: m.provider,
          providerUserId: m.author.provider_user_id,
          login: m.author.login,
          displayName: m.author.display_name,
          color: m.author.color,
          avatarUrl: m.author.avatar_url,
          badges: m.author.badges,
          roles: m.author.roles,
          firstSeenAt: at,
          lastSeenAt: at,
          messageCount: 1,
        })
        .onConflictDoUpdate({
          target: [viewers.channelId, viewers.provider, viewers.providerUserId],
          set: { messageCount: sql`${viewers.messageCount} + 1`, lastSeenAt: at },
        });
    }
    const singleRate = Math.round(singleCount / (Number(process.hrtime.bigint() - start) / 1e9));

    const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(chatMessages)) as [{ n: number }];
    if (n !== batchedCount + singleCount) throw new Error(`expected ${batchedCount + singleCount} rows, found ${n}`);
    return [
      { name: 'chat log, batched sink (500/batch) on PGlite', value: batchedRate, unit: 'rows/s' },
      { name: 'chat log, single INSERT + viewer upsert per message on PGlite (baseline)', value: singleRate, unit: 'rows/s' },
      { name: 'chat log, batched / single ratio', value: Math.round((batchedRate / singleRate) * 10) / 10, unit: 'x' },
    ];
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchChatPersist()) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
}
