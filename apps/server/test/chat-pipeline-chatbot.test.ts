/**
 * The chatbot's stages and effect handlers registered in the chat pipeline, end to end on the emulator: a command
 * typed in a platform's chat is answered once on that platform; the answer comes back through ingest marked as
 * Greenroom's own and is never answered in turn; a spam filter hides a line from the public and marks it for staff
 * before anyone sees it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { AccessLevel } from '@greenroom/contracts/access';
import { pipelineEffects } from '../src/db/schema';
import type { TestUser } from './helper';
import { SocketClient as Client, startChatWorld, type ChatWorld } from './chat-world';

let world: ChatWorld;
let mod: TestUser;
const api = (path: string) => `/api/2/channels/${world.channelId}${path}`;

beforeAll(async () => {
  world = await startChatWorld('Bot in the pipeline');
  mod = await world.member('Moddy', AccessLevel.MOD);
  // Compiles the connected channel's commands and filters (main.ts does this at startup).
  await world.t.s.chatbot.start();
}, 60_000);

afterAll(async () => {
  await world?.close();
});

describe('chatbot in the chat pipeline', () => {
  it('answers a command once, on the platform it was typed on, and never answers its own echo', async () => {
    const created = await world.t.inject(world.owner, {
      method: 'POST',
      url: api('/chat-commands'),
      // The answer starts with the command itself: were the echo answered, it would answer again.
      payload: { name: '!ping', responses: ['!ping pong for $(user)'] },
    });
    expect(created.statusCode).toBe(201);

    const staff = new Client(`${world.base}/api/2/channels/${world.channelId}/chat-ws`, mod.token);
    await staff.opened();
    const viewer = await world.newViewer('kick', 'Pinger');
    const asked = await world.chat('kick', '!ping', viewer.id);
    const answer = await staff.waitFor((frames) =>
      frames.find((f) => f.type === 'chat.message' && typeof f.data.text === 'string' && f.data.text.startsWith('!ping pong for')),
    );
    expect(answer.data.provider).toBe('kick');
    expect(answer.data.text).toBe(`!ping pong for ${viewer.displayName}`);
    expect((answer.data.author as { is_self: boolean }).is_self).toBe(true);
    expect(staff.frames.some((f) => f.type === 'chat.message' && f.data.provider_message_id === asked.id)).toBe(true);
    staff.close();

    // The echo was stored with whatever effects its stages asked for: exactly one reply was ever planned.
    await world.t.s.ingest.flush();
    const replies = await world.t.s.db
      .select()
      .from(pipelineEffects)
      .where(and(eq(pipelineEffects.channelId, world.channelId), eq(pipelineEffects.kind, 'chatbot.reply')));
    expect(replies).toHaveLength(1);
    expect(replies[0]!.status).toBe('done');
  });

  it('a spam filter marks the line for staff and keeps it from the public', async () => {
    const created = await world.t.inject(world.owner, {
      method: 'POST',
      url: api('/chat-filters'),
      payload: { name: 'No links', type: 'links', settings: { allowed_domains: [] }, message: '' },
    });
    expect(created.statusCode).toBe(201);

    const staff = new Client(`${world.base}/api/2/channels/${world.channelId}/chat-ws`, mod.token);
    const publicSocket = new Client(`${world.base}/api/2/public/channels/${world.channelId}/chat-ws`);
    await Promise.all([staff.opened(), publicSocket.opened()]);
    const viewer = await world.newViewer('kick', 'Linker');
    const spam = await world.chat('kick', 'free stuff at https://spam.com/win', viewer.id);
    const after = await world.chat('kick', 'an ordinary line', viewer.id);

    const seen = await staff.waitFor((frames) => frames.find((f) => f.type === 'chat.message' && f.data.provider_message_id === spam.id));
    expect(seen.data.filtered).toMatchObject({ stage: 'chatbot.filters' });
    // The public socket gets the next line, never the filtered one.
    await publicSocket.waitFor((frames) => frames.some((f) => f.type === 'chat.message' && f.data.text === 'an ordinary line'));
    expect(publicSocket.frames.some((f) => f.type === 'chat.message' && f.data.text === 'free stuff at https://spam.com/win')).toBe(false);
    expect(staff.frames.find((f) => f.data.provider_message_id === after.id)?.data.filtered ?? null).toBeNull();
    staff.close();
    publicSocket.close();
  });
});
