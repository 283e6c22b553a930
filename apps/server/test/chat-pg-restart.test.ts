/**
 * PostgreSQL goes away mid-stream (a restart: every connection dropped, new ones refused for a few
 * seconds) while chat flows on Twitch, Kick and YouTube: nothing is lost. Twitch's messages are held
 * and written once the database is back; Kick's deliveries are answered 5xx and delivered again;
 * YouTube polls the same page again. Staff are told the chat is delayed, then that it caught up.
 * Runs on PostgreSQL only (`npm run test:pg`): the database sits behind a TCP proxy the test cuts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import { chatPlatforms, SocketClient, startChatWorld, type ChatWorld } from './chat-world';
import { TcpProxy } from './tcp-proxy';
import type { TestUser } from './helper';

const pgUrl = process.env.TEST_DATABASE_URL;
const onPostgres = pgUrl ? describe : describe.skip;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let world: ChatWorld;
let proxy: TcpProxy;
let mod: TestUser;

beforeAll(async () => {
  if (!pgUrl) return;
  const target = new URL(pgUrl);
  proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  world = await startChatWorld('Database restart', {
    databaseThrough: (url) => {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(proxy.port);
      return through;
    },
  });
  world.emulator.ctx.kick!.delivery.maxRetryDelayMs = 300;
  mod = await world.member('Moddy', AccessLevel.MOD);
}, 90_000);

afterAll(async () => {
  proxy?.restore();
  await world?.close();
  await proxy?.close();
});

onPostgres('PostgreSQL restart mid-stream', () => {
  it('loses nothing on any platform and tells staff the chat is delayed, then caught up', async () => {
    const socket = new SocketClient(`${world.base}/api/2/channels/${world.channelId}/chat-ws`, mod.token);
    await socket.opened();
    const probe = await world.chat('youtube', 'probe');
    await socket.waitFor((f) => f.some((x) => x.type === 'chat.message' && x.data.provider_message_id === probe.id));

    const sent: string[] = [];
    let n = 0;
    const round = async () => {
      n++;
      for (const p of chatPlatforms) {
        const text = `pg-${p}-${n}`;
        await world.chat(p, text);
        sent.push(text);
      }
    };
    for (let i = 0; i < 10; i++) await round();
    proxy.cut();
    const downUntil = Date.now() + 4000;
    while (Date.now() < downUntil) {
      await round();
      await sleep(50);
    }
    proxy.restore();
    for (let i = 0; i < 10; i++) await round();

    await socket.waitFor((f) => {
      const texts = new Set(f.filter((x) => x.type === 'chat.message').map((x) => x.data.text));
      return sent.every((t) => texts.has(t));
    }, 60_000);
    const statuses = socket.frames.filter((f) => f.type === 'chat.ingest_status').map((f) => f.data.state);
    expect(statuses).toContain('delayed');
    expect(statuses.at(-1)).toBe('ok');

    const texts: string[] = [];
    let before: string | null = null;
    for (;;) {
      const res = await world.t.inject(mod, {
        method: 'GET',
        url: `/api/2/channels/${world.channelId}/chat/messages?limit=500${before ? `&before=${before}` : ''}`,
      });
      const page = res.json<{ records: { text: string }[]; cursor: string | null }>();
      texts.push(...page.records.map((r) => r.text));
      if (!page.cursor) break;
      before = page.cursor;
    }
    const counts = new Map<string, number>();
    for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
    expect(sent.filter((t) => counts.get(t) !== 1)).toEqual([]);
    expect(world.t.s.ingest.stats.lost).toBe(0);
    socket.close();
  }, 120_000);
});
