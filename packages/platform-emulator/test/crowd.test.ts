/** The crowd simulator: deterministic under the seed, a realistic mix, reaches the EventSub socket. */
import { afterAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index';
import { emulator } from './helpers';

const started: Emulator[] = [];

afterAll(async () => {
  await Promise.all(started.map((e) => e.close()));
});

async function texts(seed: number, count: number): Promise<string[]> {
  const e = await emulator({ seed });
  started.push(e);
  const out: string[] = [];
  e.world.on('chat', (m) => out.push(`${m.authorId}:${m.text}`));
  e.crowd.burst(count);
  return out;
}

describe('crowd', () => {
  it('produces the same chat for the same seed and different chat for another seed', async () => {
    const a = await texts(7, 300);
    const b = await texts(7, 300);
    const c = await texts(8, 300);
    expect(a).toHaveLength(300);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('mixes emotes, commands, mentions, links, replies and repeats', async () => {
    const e = await emulator({ seed: 3 });
    started.push(e);
    const channel = e.world.channelsOf('twitch').find((c) => c.live)!;
    const messages: { text: string; emotes: number; reply: boolean }[] = [];
    e.world.on('chat', (m) => messages.push({ text: m.text, emotes: m.emotes.length, reply: m.replyToId !== null }));
    e.crowd.burst(2000, channel);
    expect(messages.some((m) => m.emotes > 0)).toBe(true);
    expect(messages.some((m) => m.text.startsWith('!'))).toBe(true);
    expect(messages.some((m) => m.text.includes('catJAM') || m.text.includes('KEKW') || m.text.includes('OMEGALUL'))).toBe(true);
    expect(messages.some((m) => m.reply)).toBe(true);
    expect(messages.some((m) => /https?:\/\/|www\./.test(m.text))).toBe(true);
    const counts = new Map<string, number>();
    for (const m of messages) counts.set(m.text, (counts.get(m.text) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeGreaterThan(5);
  });

  it('follows the configured rate when ticked and only chats in live channels', async () => {
    const e = await emulator({ seed: 4 });
    started.push(e);
    let count = 0;
    const live = new Set(e.crowd.liveChannels().map((c) => `${c.platform}:${c.id}`));
    e.world.on('chat', (m) => {
      count++;
      expect(live.has(`${m.platform}:${m.channelId}`)).toBe(true);
    });
    e.crowd.setRate(1000);
    for (let i = 0; i < 20; i++) e.crowd.tick(50);
    expect(count).toBeGreaterThanOrEqual(990);
    expect(count).toBeLessThanOrEqual(1000);
    e.crowd.setEventRate(100);
    const events: string[] = [];
    e.world.on('event', (ev) => events.push(ev.type));
    e.crowd.tick(1000);
    expect(events.length).toBe(100);
    expect(new Set(events).size).toBeGreaterThan(4);
  });
});
