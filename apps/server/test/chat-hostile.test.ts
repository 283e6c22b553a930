/**
 * Hostile text through the whole path: arbitrary Unicode (NUL, lone surrogates, huge strings) in any
 * field an adapter fills → ingest → chat log → history API → staff socket. Nothing is lost, nothing
 * throws, and one bad message never costs another.
 */
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import { channelProviders, channelUsers } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { cleanString, LINE_MAX, TEXT_MAX } from '../src/pipeline/normalise';
import type { IngestSource } from '../src/pipeline/ingest';
import { platformChat } from './chat-fixtures';
import { SocketClient } from './chat-world';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let mod: TestUser;
let channelId: string;
let source: IngestSource;
let socket: SocketClient;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const owner = await t.createUser({ displayName: 'Owner' });
  mod = await t.createUser({ displayName: 'Mod' });
  channelId = (await t.s.channels.create(owner.id, 'Hostile')).id;
  await t.s.db.insert(channelUsers).values({ channelId, userId: mod.id, level: AccessLevel.MOD });
  const cp = newId();
  await t.s.db.insert(channelProviders).values({ id: cp, channelId, provider: 'twitch', providerChannelId: 'b', providerChannelName: 'b' });
  source = { channelId, channelProviderId: cp, provider: 'twitch', providerChannelId: 'b' };
  socket = new SocketClient(
    `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/2/channels/${channelId}/chat-ws`,
    mod.token,
  );
  await socket.opened();
});
afterAll(async () => {
  socket?.close();
  await t?.close();
});

const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('\u0000', '\ud800', '\udfff', 'a\ud83d', '\ude00b', '😀', '\u0000\u0000\ud800'),
  fc.string({ unit: 'grapheme', minLength: 2100, maxLength: 2200 }),
);

describe('hostile text', () => {
  it('arbitrary Unicode in text, names and ids: every message stored once, in history and on the socket, as normalised', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ text: hostile, name: hostile, id: hostile }), { minLength: 1, maxLength: 6 }),
        async (items) => {
          run++;
          const submitted = items.map((x, i) => ({
            // Unique per message, hostile anyway: the id itself goes through the normaliser.
            id: `r${run}-${i}-${x.id}`,
            text: x.text,
            name: x.name,
          }));
          // Submitted separately, as deliveries of different adapters would be, and committed together.
          await Promise.all(
            submitted.map((m) => t.s.ingest.submit(source, [platformChat(m.id, m.text, { id: `u${m.name}`, name: m.name })])),
          );
          const expected = submitted.map((m) => ({
            id: `twitch:${cleanString(m.id, LINE_MAX)}`,
            text: cleanString(m.text, TEXT_MAX),
            name: cleanString(m.name, LINE_MAX),
          }));
          const res = await t.inject(mod, { method: 'GET', url: `/api/2/channels/${channelId}/chat/messages?limit=${submitted.length}` });
          expect(res.statusCode).toBe(200);
          const records = res.json<{ records: { id: string; text: string; author: { display_name: string } }[] }>().records.reverse();
          expect(records.map((r) => ({ id: r.id, text: r.text, name: r.author.display_name }))).toEqual(expected);
          const frames = await socket.waitFor((f) => {
            const got = f.filter((x) => x.type === 'chat.message' && expected.some((e) => e.id === x.data.id));
            return got.length >= expected.length && got;
          });
          expect(frames.map((f) => f.data.text)).toEqual(expected.map((e) => e.text));
        },
      ),
      { numRuns: 25 },
    );
    expect(t.s.ingest.writer.stats.rejected).toBe(0);
    expect(t.s.ingest.writer.stats.abandoned).toBe(0);
  });
});
