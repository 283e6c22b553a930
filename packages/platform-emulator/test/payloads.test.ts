import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index';
import { chatMessageEvent, chatMessageEventJson } from '../src/twitch/eventsub/payloads';
import { emulator } from './helpers';

let e: Emulator;
beforeAll(async () => {
  e = await emulator();
});
afterAll(async () => {
  await e.close();
});

describe('channel.chat.message serialisation', () => {
  it('the fast serialiser equals JSON.stringify of the reference event, key order included', () => {
    const channel = e.world.channelsOf('twitch').find((c) => c.live)!;
    const seen: string[] = [];
    e.world.on('chat', (m) => {
      if (m.platform === 'twitch') seen.push(m.id);
    });
    e.crowd.burst(500, channel);
    for (const id of seen) {
      const m = e.world.messages.get(id)!;
      expect(chatMessageEventJson(e.world, m)).toBe(JSON.stringify(chatMessageEvent(e.world, m)));
    }
  });
});
