import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import {
  bufferHas,
  bufferSize,
  createBuffer,
  entryKey,
  messageBufferReducer,
  type ChatEntry,
  type MessageBufferState,
  type MessageEntry,
} from './message-buffer';

/** The entries of a list that holds messages only (these tests add no gap lines unless they say so). */
const m = (list: ChatEntry[]) => list as MessageEntry[];

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
    author: {
      provider_user_id: 'u1',
      login: 'alice',
      display_name: 'Alice',
      color: null,
      avatar_url: null,
      badges: [],
      roles: { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false },
      is_self: false,
    },
    text: `hello ${seq}`,
    emotes: [],
    reply: null,
    mentions: [],
    highlight: null,
    sent_at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    deleted: false,
    filtered: null,
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

const ids = (state: MessageBufferState) => m(state.items).map((e) => e.message.id);

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
    expect(bufferSize(state)).toBe(5);
    expect(state.index.size).toBe(5);
    expect(bufferHas(state, all[0]!.id)).toBe(false);
    expect(bufferHas(state, all[11]!.id)).toBe(true);
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
    const older = [
      msg({ sent_at: '2025-01-03T00:00:00Z' }),
      msg({ sent_at: '2025-01-02T00:00:00Z' }),
      msg({ sent_at: '2025-01-01T00:00:00Z' }),
    ];
    let state = messageBufferReducer(createBuffer(3), { type: 'live', messages: [live] });
    state = messageBufferReducer(state, { type: 'history', messages: older });
    // room for 2: the newest two of the page are kept
    expect(ids(state)).toEqual([older[1]!.id, older[0]!.id, live.id]);
  });

  it('marks a deleted message (from the platform or Greenroom) and messages arriving deleted', () => {
    const a = msg();
    const b = msg();
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [a, b, msg({ deleted: true })] });
    state = messageBufferReducer(state, {
      type: 'moderation',
      events: [mod({ kind: 'delete', provider_message_id: a.provider_message_id })],
    });
    expect(m(state.items).map((e) => e.removed)).toEqual(['deleted', null, 'deleted']);
  });

  it('does not mark a message with the same platform id on another connection', () => {
    const a = msg({ channel_provider_id: 'cp-other' });
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [a] });
    state = messageBufferReducer(state, {
      type: 'moderation',
      events: [mod({ kind: 'delete', provider_message_id: a.provider_message_id })],
    });
    expect(m(state.items)[0]!.removed).toBeNull();
  });

  it('marks every message of a banned or timed-out user on that platform only', () => {
    const bob = { ...msg().author, provider_user_id: 'u2', display_name: 'Bob' };
    const alice1 = msg();
    const bob1 = msg({ author: bob });
    const bobOnKick = msg({ author: bob, provider: 'kick', channel_provider_id: 'cp-kick', id: 'kick:k1' });
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [alice1, bob1, bobOnKick] });
    state = messageBufferReducer(state, {
      type: 'moderation',
      events: [mod({ kind: 'ban', target: { provider_user_id: 'u2', display_name: 'Bob' } })],
    });
    expect(m(state.items).map((e) => e.removed)).toEqual([null, 'ban', null]);
    state = messageBufferReducer(state, {
      type: 'moderation',
      events: [mod({ kind: 'timeout', target: { provider_user_id: 'u1', display_name: 'Alice' }, duration_seconds: 60 })],
    });
    expect(m(state.items).map((e) => e.removed)).toEqual(['timeout', 'ban', null]);
    // Unban leaves removed messages removed.
    const after = messageBufferReducer(state, {
      type: 'moderation',
      events: [mod({ kind: 'unban', target: { provider_user_id: 'u2', display_name: 'Bob' } })],
    });
    expect(after).toBe(state);
  });

  it('clears one viewer (with a target) without touching the others, and never weakens a mark', () => {
    const bob = { ...msg().author, provider_user_id: 'u2', display_name: 'Bob' };
    const alice1 = msg();
    const bob1 = msg({ author: bob });
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [alice1, bob1] });
    state = messageBufferReducer(state, {
      type: 'moderation',
      events: [mod({ kind: 'timeout', target: { provider_user_id: 'u2', display_name: 'Bob' }, duration_seconds: 60 })],
    });
    state = messageBufferReducer(state, {
      type: 'moderation',
      events: [mod({ kind: 'clear', target: { provider_user_id: 'u2', display_name: 'Bob' } })],
    });
    expect(m(state.items).map((e) => e.removed)).toEqual([null, 'timeout']);
    state = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'clear', target: null })] });
    expect(m(state.items).map((e) => e.removed)).toEqual(['clear', 'timeout']);
  });

  it('applies moderation in the same batch after the messages it refers to', () => {
    const a = msg();
    const state = messageBufferReducer(createBuffer(), {
      type: 'live',
      messages: [a],
      moderation: [mod({ kind: 'delete', provider_message_id: a.provider_message_id })],
    });
    expect(m(state.items)[0]!.removed).toBe('deleted');
  });

  it('holds live messages while paused and shows them on resume, still capped', () => {
    const [a, b, c, d] = [msg(), msg(), msg(), msg()];
    let state = messageBufferReducer(createBuffer(3), { type: 'live', messages: [a] });
    state = messageBufferReducer(state, { type: 'pause' });
    state = messageBufferReducer(state, { type: 'live', messages: [b, c] });
    expect(ids(state)).toEqual([a.id]);
    expect(m(state.pending).map((e) => e.message.id)).toEqual([b.id, c.id]);
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
    state = messageBufferReducer(state, {
      type: 'moderation',
      events: [mod({ kind: 'delete', provider_message_id: a.provider_message_id })],
    });
    expect(m(state.pending)[0]!.removed).toBe('deleted');
  });

  it('takes 20,000 messages in batches of 200 and keeps the newest 10,000 in order', () => {
    let state = createBuffer();
    const sent: string[] = [];
    for (let batch = 0; batch < 100; batch += 1) {
      const messages = Array.from({ length: 200 }, () => msg());
      sent.push(...messages.map((x) => x.id));
      state = messageBufferReducer(state, { type: 'live', messages });
    }
    expect(ids(state)).toEqual(sent.slice(-10_000));
  });
});

describe('message buffer structure (append-only index, eviction at the cap)', () => {
  it('numbers entries in arrival order and keeps items ++ pending = lo … hi - 1 through eviction, pause and history', () => {
    const check = (state: MessageBufferState) => {
      const all = state.items.concat(state.pending);
      expect(all.map((e) => e.seq)).toEqual(Array.from({ length: state.hi - state.lo }, (_, i) => state.lo + i));
      for (const e of all) expect(state.index.get(entryKey(e))).toBe(e.seq);
      expect(state.index.size).toBe(all.length);
    };
    let state = createBuffer(4);
    state = messageBufferReducer(state, { type: 'live', messages: [msg(), msg(), msg()] });
    check(state);
    state = messageBufferReducer(state, { type: 'history', messages: [msg({ sent_at: '2025-01-01T00:00:00Z' })] });
    check(state);
    expect(state.lo).toBe(-1);
    state = messageBufferReducer(state, { type: 'pause' });
    state = messageBufferReducer(state, { type: 'live', messages: [msg(), msg()] });
    check(state);
    expect(state.items).toHaveLength(2);
    expect(state.pending).toHaveLength(2);
    state = messageBufferReducer(state, { type: 'resume' });
    check(state);
    state = messageBufferReducer(state, { type: 'live', messages: Array.from({ length: 9 }, () => msg()) });
    check(state);
    expect(state.items).toHaveLength(4);
  });

  it('evicts exactly the oldest at the cap, one per new message, and the index never grows past the cap', () => {
    const cap = 100;
    let state = createBuffer(cap);
    const sent: ChatMessage[] = [];
    for (let i = 0; i < 250; i += 1) {
      const m = msg();
      sent.push(m);
      state = messageBufferReducer(state, { type: 'live', messages: [m] });
      expect(bufferSize(state)).toBe(Math.min(i + 1, cap));
      expect(state.index.size).toBe(Math.min(i + 1, cap));
    }
    expect(ids(state)).toEqual(sent.slice(-cap).map((m) => m.id));
    expect(bufferHas(state, sent[149]!.id)).toBe(false);
    expect(bufferHas(state, sent[150]!.id)).toBe(true);
  });

  it('keeps only the newest `cap` of a burst larger than the cap', () => {
    const burst = Array.from({ length: 12 }, () => msg());
    const state = messageBufferReducer(createBuffer(5), { type: 'live', messages: burst });
    expect(ids(state)).toEqual(burst.slice(7).map((m) => m.id));
    expect(state.index.size).toBe(5);
  });

  it('dedupes after eviction: a dropped id is accepted again, a held one still is not', () => {
    const [a, b, c, d] = [msg(), msg(), msg(), msg()];
    let state = messageBufferReducer(createBuffer(3), { type: 'live', messages: [a, b, c] });
    state = messageBufferReducer(state, { type: 'live', messages: [d] }); // drops a
    expect(bufferHas(state, a.id)).toBe(false);
    const again = messageBufferReducer(state, { type: 'live', messages: [a, b, d] }); // b and d are held: only a comes back
    expect(ids(again)).toEqual([c.id, d.id, a.id]);
    expect(bufferHas(again, a.id)).toBe(true);
    expect(bufferHas(again, b.id)).toBe(false); // dropped to make room for a
    expect(again.index.get(a.id)).toBe(again.hi - 1);
    // The re-added id keeps its new number when its old number is evicted later.
    const later = messageBufferReducer(again, { type: 'live', messages: [msg(), msg()] });
    expect(bufferHas(later, a.id)).toBe(true);
    expect(ids(later).at(0)).toBe(a.id);
  });

  it('does not let a history page bring back ids that are still held, and fills only the room left', () => {
    const live = Array.from({ length: 3 }, () => msg());
    let state = messageBufferReducer(createBuffer(4), { type: 'live', messages: live });
    const old = msg({ sent_at: '2025-01-01T00:00:00Z' });
    state = messageBufferReducer(state, { type: 'history', messages: [live[0]!, old, msg({ sent_at: '2024-12-31T00:00:00Z' })] });
    expect(ids(state)).toEqual([old.id, ...live.map((m) => m.id)]);
  });

  it('gives the same result when run twice on the same state (StrictMode, discarded renders)', () => {
    const [a, b] = [msg(), msg()];
    const base = messageBufferReducer(createBuffer(3), { type: 'live', messages: [msg(), msg(), msg()] });
    const action = { type: 'live' as const, messages: [a, b, a] };
    const first = messageBufferReducer(base, action);
    const second = messageBufferReducer(base, action);
    expect(ids(second)).toEqual(ids(first));
    expect(second.lo).toBe(first.lo);
    expect(second.hi).toBe(first.hi);
    expect(bufferHas(second, a.id) && bufferHas(second, b.id)).toBe(true);
    const h = { type: 'history' as const, messages: [msg({ sent_at: '2025-01-01T00:00:00Z' })] };
    const roomy = messageBufferReducer(createBuffer(10), { type: 'live', messages: [a] });
    expect(ids(messageBufferReducer(roomy, h))).toEqual(ids(messageBufferReducer(roomy, h)));
  });

  it('copies a list once when moderation marks entries and not at all when nothing matches', () => {
    const state = messageBufferReducer(createBuffer(), { type: 'live', messages: Array.from({ length: 50 }, () => msg()) });
    const none = messageBufferReducer(state, { type: 'moderation', events: [mod({ kind: 'delete', provider_message_id: 'nope' })] });
    expect(none).toBe(state);
    const target = m(state.items)[10]!.message;
    const marked = messageBufferReducer(state, {
      type: 'moderation',
      events: [mod({ kind: 'delete', provider_message_id: target.provider_message_id })],
    });
    expect(m(marked.items)[10]!.removed).toBe('deleted');
    expect(marked.items[9]).toBe(state.items[9]);
    expect(m(marked.items)[10]!.seq).toBe(m(state.items)[10]!.seq);
  });

  it('keeps a full 10,000 buffer at its cap with an index that never grows past it (cost: bench/message-buffer.ts)', () => {
    let state = createBuffer();
    state = messageBufferReducer(state, { type: 'live', messages: Array.from({ length: 10_000 }, () => msg()) });
    const first = state;
    let last: ChatMessage[] = [];
    for (let frame = 0; frame < 3000; frame += 1) {
      last = [msg(), msg(), msg(), msg()];
      state = messageBufferReducer(state, { type: 'live', messages: last });
    }
    expect(bufferSize(state)).toBe(10_000);
    expect(state.index.size).toBe(10_000);
    expect(ids(state).slice(-4)).toEqual(last.map((x) => x.id));
    expect(bufferHas(state, m(first.items)[0]!.message.id)).toBe(false);
    expect(bufferHas(state, last[0]!.id)).toBe(true);
  });

  it('shows a filtered message as removed by the filter, and keeps that label when the platform deletes it too', () => {
    const spam = msg({ filtered: { stage: 'links', reason: 'Links are not allowed' } });
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [spam, msg()] });
    expect(m(state.items).map((e) => e.removed)).toEqual(['filtered', null]);
    state = messageBufferReducer(state, {
      type: 'moderation',
      events: [mod({ kind: 'delete', provider_message_id: spam.provider_message_id })],
    });
    expect(m(state.items)[0]!.removed).toBe('filtered');
  });

  it('adds gap lines live and from history (by time), each once', () => {
    const gap = (id: string, at: number) => ({
      id,
      channel_id: 'c1',
      channel_provider_id: 'cp-twitch',
      provider: 'twitch' as const,
      reason: 'platform' as const,
      started_at: new Date(Date.UTC(2026, 0, 1, 0, 0, at - 5)).toISOString(),
      ended_at: new Date(Date.UTC(2026, 0, 1, 0, 0, at)).toISOString(),
      lost: 0,
    });
    const [a, b] = [msg(), msg()];
    let state = messageBufferReducer(createBuffer(), { type: 'live', messages: [a], gaps: [gap('g1', 90)] });
    state = messageBufferReducer(state, { type: 'live', messages: [b], gaps: [gap('g1', 90)] });
    expect(state.items.map(entryKey)).toEqual([a.id, 'gap:g1', b.id]);
    // History: an older message, a gap between it and an older one.
    const older1 = msg({ sent_at: new Date(Date.UTC(2025, 11, 31, 23, 0, 0)).toISOString() });
    const older2 = msg({ sent_at: new Date(Date.UTC(2025, 11, 31, 23, 0, 10)).toISOString() });
    const between = { ...gap('g0', 0), ended_at: new Date(Date.UTC(2025, 11, 31, 23, 0, 5)).toISOString() };
    state = messageBufferReducer(state, { type: 'history', messages: [older2, older1], gaps: [between] });
    expect(state.items.map(entryKey)).toEqual([older1.id, 'gap:g0', older2.id, a.id, 'gap:g1', b.id]);
  });
});
