import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import { createBuffer, messageBufferReducer, type MessageBufferState } from './message-buffer';

let seq = 0;
function msg(partial: Partial<ChatMessage> & { id?: string } = {}): ChatMessage {
  seq += 1;
  const id = partial.id ?? `twitch:m${seq}`;
  return {
    id,
    channel_id: 'c1',
    channel_provider_id: 'cp-twitch',
    provider: 'twitch',
    provider_message_id: id.split(':')[1] ?? id,
    author: { provider_user_id: 'u1', login: 'alice', display_name: 'Alice', color: null, avatar_url: null, badges: [], roles: { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false } },
    text: `hello ${seq}`,
    emotes: [],
    reply: null,
    mentions: [],
    highlight: null,
    sent_at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    deleted: false,
    ...partial,
  };
}

function mod(partial: Partial<ModerationEvent>): ModerationEvent {
  return {
    id: `mod${++seq}`,
    channel_id: 'c1',
    channel_provider_id: 'cp-twitch',
    provider: 'twitch',
    kind: 'delete',
    target: null,
    provider_message_id: null,
    duration_seconds: null,
    reason: null,
    moderator: null,
    source: 'platform',
    occurred_at: new Date(Date.UTC(2026, 0, 1, 1)).toISOString(),
    ...partial,
  };
}

const ids = (state: MessageBufferState) => state.items.map((e) => e.message.id);

describe('message buffer reducer', () => {
  it('keeps live messages in arrival order', () => {
    const [a, b, c] = [msg(), msg({ provider: 'kick', id: 'kick:x' }), msg()];
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [a] });
    state = messageBufferReducer(state, { type: 'live', messages: [b, c] });
    expect(ids(state)).toEqual([a.id, b.id, c.id]);
  });

  it('caps the buffer by dropping the oldest, and forgets dropped ids', () => {
    const all = Array.from({ length: 12 }, () => msg());
    let state = createBuffer(5);
    state = messageBufferReducer(state, { type: 'live', messages: all.slice(0, 8) });
    state = messageBufferReducer(state, { type: 'live', messages: all.slice(8) });
    expect(ids(state)).toEqual(all.slice(7).map((m) => m.id));
    expect(state.ids.size).toBe(5);
    expect(state.ids.has(all[0]!.id)).toBe(false);
  });

  it('drops duplicates by id, within a batch, across batches and between history and live', () => {
    const a = msg();
    const b = msg();
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [a, a, b] });
    const same = messageBufferReducer(state, { type: 'live', messages: [a] });
    expect(same).toBe(state);
    state = messageBufferReducer(state, { type: 'history', messages: [b, msg({ id: 'twitch:old', sent_at: '2025-01-01T00:00:00Z' })] });
    expect(ids(state)).toEqual(['twitch:old', a.id, b.id]);
  });

  it('puts history pages (newest first) before what is held, oldest first, within the cap', () => {
    const live = msg();
    const older = [msg({ sent_at: '2025-01-03T00:00:00Z' }), msg({ sent_at: '2025-01-02T00:00:00Z' }), msg({ sent_at: '2025-01-01T00:00:00Z' })];
    let state = messageBufferReducer(createBuffer(3), { type: 'live', messages: [live] });
    state = messageBufferReducer(state, { type: 'history', messages: older });
    // room for 2: the newest two of the page are kept
    expect(ids(state)).toEqual([older[1]!.id, older[0]!.id, live.id]);
  });

  it('marks a deleted message (from the platform or Greenroom) and messages arriving deleted', () => {
    const a = msg();
    const b = msg();
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [a, b, msg({ deleted: true })] });
    state = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'delete', provider_message_id: a.provider_message_id })] });
    expect(state.items.map((e) => e.removed)).toEqual(['deleted', null, 'deleted']);
  });

  it('does not mark a message with the same platform id on another connection', () => {
    const a = msg({ channel_provider_id: 'cp-other' });
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [a] });
    state = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'delete', provider_message_id: a.provider_message_id })] });
    expect(state.items[0]!.removed).toBeNull();
  });

  it('marks every message of a banned or timed-out user on that platform only', () => {
    const bob = { ...msg().author, provider_user_id: 'u2', display_name: 'Bob' };
    const alice1 = msg();
    const bob1 = msg({ author: bob });
    const bobOnKick = msg({ author: bob, provider: 'kick', channel_provider_id: 'cp-kick', id: 'kick:k1' });
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [alice1, bob1, bobOnKick] });
    state = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'ban', target: { provider_user_id: 'u2', display_name: 'Bob' } })] });
    expect(state.items.map((e) => e.removed)).toEqual([null, 'ban', null]);
    state = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'timeout', target: { provider_user_id: 'u1', display_name: 'Alice' }, duration_seconds: 60 })] });
    expect(state.items.map((e) => e.removed)).toEqual(['timeout', 'ban', null]);
    // Unban leaves removed messages removed.
    const after = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'unban', target: { provider_user_id: 'u2', display_name: 'Bob' } })] });
    expect(after).toBe(state);
  });

  it('clears one viewer (with a target) without touching the others, and never weakens a mark', () => {
    const bob = { ...msg().author, provider_user_id: 'u2', display_name: 'Bob' };
    const alice1 = msg();
    const bob1 = msg({ author: bob });
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [alice1, bob1] });
    state = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'timeout', target: { provider_user_id: 'u2', display_name: 'Bob' }, duration_seconds: 60 })] });
    state = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'clear', target: { provider_user_id: 'u2', display_name: 'Bob' } })] });
    expect(state.items.map((e) => e.removed)).toEqual([null, 'timeout']);
    state = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'clear', target: null })] });
    expect(state.items.map((e) => e.removed)).toEqual(['clear', 'timeout']);
  });

  it('applies moderation in the same batch after the messages it refers to', () => {
    const a = msg();
    const state = messageBufferReducer(createBuffer(), { type: 'live', messages: [a], moderation: [mod({ kind: 'delete', provider_message_id: a.provider_message_id })] });
    expect(state.items[0]!.removed).toBe('deleted');
  });

  it('holds live messages while paused and shows them on resume, still capped', () => {
    const [a, b, c, d] = [msg(), msg(), msg(), msg()];
    let state = messageBufferReducer(createBuffer(3), { type: 'live', messages: [a] });
    state = messageBufferReducer(state, { type: 'pause' });
    state = messageBufferReducer(state, { type: 'live', messages: [b, c] });
    expect(ids(state)).toEqual([a.id]);
    expect(state.pending.map((e) => e.message.id)).toEqual([b.id, c.id]);
    state = messageBufferReducer(state, { type: 'live', messages: [d] });
    expect(ids(state)).toEqual([]);
    expect(state.pending).toHaveLength(3);
    state = messageBufferReducer(state, { type: 'resume' });
    expect(ids(state)).toEqual([b.id, c.id, d.id]);
    expect(state.pending).toEqual([]);
  });

  it('marks pending messages too', () => {
    const a = msg();
    let state = messageBufferReducer(createBuffer(), { type: 'pause' });
    state = messageBufferReducer(state, { type: 'live', messages: [a] });
    state = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'delete', provider_message_id: a.provider_message_id })] });
    expect(state.pending[0]!.removed).toBe('deleted');
  });

  it('handles 10,000 messages at 200 per batch quickly', () => {
    let state = createBuffer();
    const start = performance.now();
    for (let batch = 0; batch < 100; batch += 1) state = messageBufferReducer(state, { type: 'live', messages: Array.from({ length: 200 }, () => msg()) });
    expect(state.items).toHaveLength(10_000);
    expect(performance.now() - start).toBeLessThan(2000);
  });
});
